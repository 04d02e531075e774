"""Take in a submission's images: decode or fetch, check, normalise, store once, reference.

Runs at submit time so a bad image or URL fails the request (422 naming the field), not the run.
Each distinct URL string is handled once, and each distinct normalised image stored once.
"""

import asyncio
import itertools
from collections.abc import Coroutine, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from app.media.audio import AudioClip, decode_audio_url, stored_clip
from app.media.decoding import SLOTS
from app.media.fetch import FetchError, FetchPolicy, fetch_image, new_client, trust_context
from app.media.images import (
    ImageError,
    ImageLimits,
    NormalisedImage,
    data_url_size,
    header,
    normalise,
)
from app.media.images import decode_data_url as _decode
from app.media.own import OwnMedia
from app.media.store import BlobStore, StoredImage, reference
from app.problems import FieldError, field_error, invalid_request

CONTENT_FIELDS = ("input", "actual_output", "expected_output")
NODE_FIELDS = ("context", "retrieval_context")
# A conversation's fields that hold content besides its turns.
CONVERSATION_CONTENT_FIELDS = ("scenario", "expected_outcome")


def conversation_contents(
    turns: Any, scenario: Any = None, expected_outcome: Any = None
) -> list[tuple[list[str | int], Any]]:
    """(location within the case, content) of a conversation: each turn's content and
    retrieval-context nodes, then its scenario and expected outcome."""
    contents: list[tuple[list[str | int], Any]] = []
    for number, turn in enumerate(turns or []):
        if not isinstance(turn, dict):
            continue
        contents.append((["turns", number, "content"], turn.get("content")))
        for node_index, node in enumerate(turn.get("retrieval_context") or []):
            contents.append((["turns", number, "retrieval_context", node_index], node))
    contents.append((["scenario"], scenario))
    contents.append((["expected_outcome"], expected_outcome))
    return contents


T = TypeVar("T")


@dataclass
class _Source:
    """One distinct image URL and every part that uses it."""

    url: str
    uses: list[tuple[int, list[str | int], dict[str, Any]]] = field(default_factory=list)

    @property
    def is_data(self) -> bool:
        return self.url[:5].lower() == "data:"


def _collect(
    content: Any,
    path: list[str | int],
    sources: dict[str, _Source],
    order: Iterator[int],
    audio: dict[str, _Source] | None = None,
) -> None:
    if not isinstance(content, list):
        return
    for index, part in enumerate(content):
        if not isinstance(part, dict):
            continue
        if part.get("type") == "image_url":
            url = part["image_url"]["url"]
            source = sources.setdefault(url, _Source(url))
            source.uses.append((next(order), [*path, index, "image_url", "url"], part))
        elif part.get("type") == "input_audio" and audio is not None:
            url = part["input_audio"]["data"]
            source = audio.setdefault(url, _Source(url))
            source.uses.append((next(order), [*path, index, "input_audio", "data"], part))


def case_contents(cases: list[dict[str, Any]]) -> list[tuple[list[str | int], Any]]:
    """(field location, content) for every content value of stored-form test cases."""
    contents: list[tuple[list[str | int], Any]] = []
    for case in cases:
        base: list[str | int] = ["test_cases", case["index"]]
        for name in CONTENT_FIELDS:
            contents.append(([*base, name], case.get(name)))
        for name in NODE_FIELDS:
            for node_index, node in enumerate(case.get(name) or []):
                contents.append(([*base, name, node_index], node))
        for path, content in conversation_contents(
            case.get("turns"), case.get("scenario"), case.get("expected_outcome")
        ):
            contents.append(([*base, *path], content))
    return contents


def image_sources(cases: list[dict[str, Any]]) -> dict[str, _Source]:
    """Every distinct image URL in stored-form test cases, in order of first use."""
    sources: dict[str, _Source] = {}
    order = itertools.count()
    for path, content in case_contents(cases):
        _collect(content, path, sources, order)
    return sources


class _Budget:
    """A per-request total of the images' bytes or pixels, each distinct image counted once."""

    def __init__(self, limit: int, unit: str, setting: str, type_: str) -> None:
        self.limit = limit
        self.unit = unit
        self.setting = setting
        self.type = type_
        self.spent = 0

    def spend(self, amount: int) -> None:
        self.spent += amount
        if self.spent > self.limit:
            raise ImageError(
                f"the request's images total more than {self.limit} {self.unit} ({self.setting})",
                self.type,
            )


def _budgets(settings: Any) -> tuple[_Budget, _Budget]:
    """The request's byte and pixel budgets: pixels are counted from each image's header before
    any is decoded, since decoding costs memory and time by the pixel, not by the byte."""
    return (
        _Budget(
            settings.max_request_image_bytes,
            "bytes",
            "LOUPE_MAX_REQUEST_IMAGE_BYTES",
            "image_request_total",
        ),
        _Budget(
            settings.max_request_image_pixels,
            "pixels",
            "LOUPE_MAX_REQUEST_IMAGE_PIXELS",
            "image_request_pixels",
        ),
    )


def _from_data_url(url: str, limits: ImageLimits) -> NormalisedImage:
    declared, data = _decode(url, limits.max_bytes)
    return normalise(data, declared, limits)


def _data_url_pixels(url: str, limits: ImageLimits) -> int:
    """Width x height of a data URL's image, from its header (the bytes are decoded again with
    the image, so that only images being decoded hold theirs)."""
    declared, data = _decode(url, limits.max_bytes)
    facts = header(data, declared, limits)
    return facts.width * facts.height


async def _prepare(
    sources: list[_Source], settings: Any, held: dict[str, StoredImage | FetchError]
) -> tuple[dict[str, NormalisedImage], dict[str, ImageError | FetchError]]:
    limits = ImageLimits.from_settings(settings)
    policy = FetchPolicy.from_settings(settings)
    budget, pixels = _budgets(settings)
    fetch_slots = asyncio.Semaphore(settings.fetch_concurrency)
    images: dict[str, NormalisedImage] = {}
    errors: dict[str, ImageError | FetchError] = {}

    async def decode(source: _Source, function: Any, *args: Any) -> None:
        try:
            # Decoding slots are the process's, shared by every request.
            images[source.url] = await SLOTS.run(function, *args, limits)
        except ImageError as exc:
            errors[source.url] = exc

    async def fetch(source: _Source, client: Any) -> tuple[bytes, int] | None:
        try:
            # This server's own media URLs come from the store, checked like fetched bytes.
            stored = held.get(source.url)
            if isinstance(stored, FetchError):
                raise stored
            if stored is not None:
                data = stored.data
            else:
                async with fetch_slots:
                    data = (await fetch_image(client, source.url, policy)).data
            budget.spend(len(data))
            # The bytes decide the format; servers mislabel images too often to refuse it.
            facts = await asyncio.to_thread(header, data, None, limits)
        except (ImageError, FetchError) as exc:
            errors[source.url] = exc
            return None
        return data, facts.width * facts.height

    async def fetch_and_decode(fetched_sources: list[_Source], client: Any) -> None:
        fetched = await asyncio.gather(*(fetch(source, client) for source in fetched_sources))
        admitted = []
        # Pixels in the order the body has the URLs, whichever arrived first.
        for source, got in zip(fetched_sources, fetched, strict=True):
            if got is not None and _spent(pixels, got[1], source, errors):
                admitted.append((source, got[0]))
        if not over():
            await asyncio.gather(
                *(decode(source, normalise, data, None) for source, data in admitted)
            )

    def over() -> bool:
        # Past a budget the request is refused whatever else is found: decode nothing more.
        return budget.spent > budget.limit or pixels.spent > pixels.limit

    # Data URLs are already in memory: count their bytes, then their pixels, in order, before
    # decoding any.
    data_sources = [source for source in sources if source.is_data]
    for source in data_sources:
        _spent(budget, data_url_size(source.url), source, errors)
    for source in data_sources:
        if source.url not in errors:
            try:
                size = _data_url_pixels(source.url, limits)
            except ImageError as exc:
                errors[source.url] = exc
                continue
            _spent(pixels, size, source, errors)
    decodes = [
        decode(source, _from_data_url, source.url)
        for source in data_sources
        if source.url not in errors and not over()
    ]
    fetched_sources = [source for source in sources if not source.is_data]
    if fetched_sources:
        verify = trust_context(getattr(settings, "ca_bundle", None))
        async with new_client(policy, verify) as client:
            await asyncio.gather(*decodes, fetch_and_decode(fetched_sources, client))
    else:
        await asyncio.gather(*decodes)
    return images, errors


def _spent(
    budget: _Budget, amount: int, source: _Source, errors: dict[str, ImageError | FetchError]
) -> bool:
    """Whether `amount` fitted in `budget`; if not, the source's error says so."""
    try:
        budget.spend(amount)
    except ImageError as exc:
        errors[source.url] = exc
        return False
    return True


def _run(coroutine: Coroutine[Any, Any, T]) -> T:
    # Services are sync (FastAPI runs them in its thread pool); a caller already inside an
    # event loop gets a private loop on another thread.
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _field_errors(
    sources: list[_Source], errors: dict[str, ImageError | FetchError]
) -> list[FieldError]:
    """A field error for every use of a refused source, in the order the body has them."""
    found: list[tuple[int, FieldError]] = []
    for source in sources:
        exc = errors.get(source.url)
        if exc is not None:
            for order, path, _ in source.uses:
                found.append((order, field_error(path, exc.message, exc.type)))
    found.sort(key=lambda item: item[0])
    return [error for _, error in found]


@dataclass
class Intake:
    """A submission's images and audio, decoded and checked but not stored yet."""

    sources: list[_Source]
    audio_sources: list[_Source]
    images: dict[str, NormalisedImage]
    clips: dict[str, AudioClip]
    errors: list[FieldError] = field(default_factory=list)

    def again(self, contents: list[tuple[list[str | int], Any]]) -> "Intake":
        """This intake for another copy of the contents it was taken from (one traced call in
        another online rule's case): the copy's parts, the same images, nothing fetched or
        decoded again."""
        sources, audio_sources = _sources(contents)
        return Intake(sources, audio_sources, self.images, self.clips, list(self.errors))

    def store(self, store: BlobStore) -> int:
        """Store what was taken in and point its parts at the blobs; how many blobs are new.

        Only for an intake without errors."""
        if not self.sources and not self.audio_sources:
            return 0
        stored = store.put([*self.images.values(), *self.clips.values()])  # type: ignore[list-item]
        for source in self.sources:
            image = self.images[source.url]
            details = {
                "sha256": image.sha256,
                "source": "data_url" if source.is_data else source.url[:2048],
                "original": image.original.as_dict(),
                "sent": image.sent.as_dict(),
                "changes": list(image.changes),
            }
            for _, _, part in source.uses:
                part["image_url"]["url"] = reference(image.sha256)
                part["blob"] = details
        for source in self.audio_sources:
            clip = self.clips[source.url]
            for _, _, part in source.uses:
                part["input_audio"]["data"] = reference(clip.sha256)
                part["input_audio"]["format"] = clip.format
        return len(stored)


def _sources(contents: list[tuple[list[str | int], Any]]) -> tuple[list[_Source], list[_Source]]:
    """The image and the audio sources of `(location, content)` pairs, each URL once."""
    sources_by_url: dict[str, _Source] = {}
    audio_by_url: dict[str, _Source] = {}
    order = itertools.count()
    for path, content in contents:
        _collect(content, path, sources_by_url, order, audio_by_url)
    return list(sources_by_url.values()), list(audio_by_url.values())


def take_in(
    contents: list[tuple[list[str | int], Any]],
    settings: Any,
    own: OwnMedia | None = None,
    fetched: Mapping[str, Any] | None = None,
) -> Intake:
    """Decode (or fetch) and check every image and audio part of `(location, content)` pairs;
    what is refused is in `errors`, one per use, naming its field. Nothing is stored.

    Args:
        own: this server's media as the submitting tenant may read them; URLs naming them are
            read from the store instead of fetched (without it, every URL is fetched).
        fetched: URLs fetched already (`prefetch.fetch_linked`: each its FetchedImage, whose
            bytes are checked as a fetch's, or FetchError), read from here instead.
    """
    sources, audio_sources = _sources(contents)
    # Read here, on the caller's thread: the session is not to be shared with the loop's.
    linked = [source.url for source in sources + audio_sources if not source.is_data]
    held: dict[str, Any] = own.resolve(linked) if own is not None and linked else {}
    held.update((url, fetched[url]) for url in linked if fetched and url in fetched)
    images, errors = _run(_prepare(sources, settings, held)) if sources else ({}, {})
    clips: dict[str, AudioClip] = {}
    for source in audio_sources:
        try:
            stored = held.get(source.url)
            if isinstance(stored, FetchError):
                raise stored
            clips[source.url] = (
                stored_clip(stored.data)
                if stored is not None
                else decode_audio_url(source.url, settings.max_image_bytes)
            )
        except (ImageError, FetchError) as exc:
            errors[source.url] = exc
    return Intake(
        sources, audio_sources, images, clips, _field_errors(sources + audio_sources, errors)
    )


def ingest_contents(
    contents: list[tuple[list[str | int], Any]],
    store: BlobStore,
    settings: Any,
    own: OwnMedia | None = None,
) -> int:
    """Replace every image and audio part of `(location, content)` pairs by blob references.

    Returns how many new blobs were stored. Raises ProblemError (422) naming each bad field.
    Audio (`input_audio` parts) must be a WAV or MP3 data URL, or this server's media URL.
    """
    intake = take_in(contents, settings, own)
    if intake.errors:
        raise invalid_request(intake.errors)
    return intake.store(store)
