"""A request's calls' images, taken in for the span rules that store them: the images of a
few calls at a time fetched together (an export brings hundreds of calls, and fetched one call
after another they cost the sum of their hosts' answer times, past the exporter's deadline),
and each call's taken in once however many rules store it."""

from collections.abc import Iterator, Sequence
from typing import Any

from app.media import ingest as media
from app.media.own import OwnMedia
from app.media.prefetch import fetch_linked
from app.otlp import JudgedCall

# Calls whose images are fetched together before each is taken in: what one request holds
# at once is bounded by it (each image by LOUPE_MAX_IMAGE_BYTES).
CHUNK_CALLS = 16


class Intakes:
    """The images of one request's calls, as the rules storing them take them in."""

    def __init__(self, settings: Any, own: OwnMedia) -> None:
        self.settings = settings
        # This server's media as the tenant reads them: read from the store, never fetched.
        self.own = own
        self._taken: dict[tuple[str, str], media.Intake] = {}

    def of(self, ready: Sequence[tuple[JudgedCall, dict[str, Any]]]) -> Iterator[media.Intake]:
        """Each (call, stored case)'s intake, in order: the images of a call another rule took
        in already are its, nothing fetched or decoded again."""
        for start in range(0, len(ready), CHUNK_CALLS):
            chunk = ready[start : start + CHUNK_CALLS]
            fresh = [case for call, case in chunk if _key(call) not in self._taken]
            fetched = fetch_linked(fresh, self.settings, self.own)
            for call, case in chunk:
                contents = media.case_contents([{**case, "index": 0}])
                first = self._taken.get(_key(call))
                if first is None:
                    first = media.take_in(contents, self.settings, self.own, fetched)
                    self._taken[_key(call)] = first
                    yield first
                else:
                    yield first.again(contents)


def _key(call: JudgedCall) -> tuple[str, str]:
    return (call.trace_id, call.span_id)
