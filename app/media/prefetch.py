"""Fetch the images a batch of test cases names by URL at once, before each case is taken in
on its own (`ingest.take_in(..., fetched=...)`): one traced export brings hundreds of calls,
and fetched case after case their images cost the sum of every host's answer time."""

import asyncio
from collections.abc import Iterable
from typing import Any

from app.media.fetch import (
    FetchedImage,
    FetchError,
    FetchPolicy,
    fetch_image,
    new_client,
    trust_context,
)
from app.media.ingest import _run, image_sources
from app.media.own import OwnMedia


def fetch_linked(
    cases: Iterable[dict[str, Any]], settings: Any, own: OwnMedia | None = None
) -> dict[str, FetchedImage | FetchError]:
    """Every image URL of stored-form `cases` that is fetched (not a data URL, not this
    server's media nor a `blob:` reference), fetched under the fetch policy,
    LOUPE_FETCH_CONCURRENCY at a time: its bytes, or why it could not be fetched. Nothing is
    checked or decoded here: `take_in` does that for each case as for any fetched image."""
    indexed = [{**case, "index": index} for index, case in enumerate(cases)]
    urls = [
        url
        for url, source in image_sources(indexed).items()
        if not source.is_data and (own is None or own.digest(url) is None)
    ]
    if not urls:
        return {}
    return _run(_fetch_all(urls, settings))


async def _fetch_all(urls: list[str], settings: Any) -> dict[str, FetchedImage | FetchError]:
    policy = FetchPolicy.from_settings(settings)
    slots = asyncio.Semaphore(settings.fetch_concurrency)
    verify = trust_context(getattr(settings, "ca_bundle", None))
    async with new_client(policy, verify) as client:

        async def one(url: str) -> FetchedImage | FetchError:
            async with slots:
                try:
                    return await fetch_image(client, url, policy)
                except FetchError as exc:
                    return exc

        found = await asyncio.gather(*(one(url) for url in urls))
    return dict(zip(urls, found, strict=True))
