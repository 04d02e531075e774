"""What the sync and async clients share: answers checked, models made friendlier, polling maths."""

import itertools
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping
from types import ModuleType
from typing import Any

import attrs
import httpx

from ._errors import (
    ConflictError,
    LoupeError,
    RateLimitError,
    ServerError,
    error_from_response,
    retry_after,
)
from ._generated.types import Response

TERMINAL = frozenset({"completed", "failed", "canceled"})
# Between polls when the server sends no Retry-After (it does on queued/in-progress reads).
DEFAULT_POLL_SECONDS = 1.0
# The shortest wait between polls, whatever the caller or a Retry-After of 0 asks: never a spin.
MIN_POLL_SECONDS = 0.1
# Answers a request is sent again after: the server did nothing with it and asks to be asked
# again later (a tenant limit, the database away), as its Retry-After says.
RESEND_STATUSES = frozenset({429, 503})
# Answers a wait polls through until its deadline: the service or its proxy briefly away.
POLL_THROUGH_STATUSES = frozenset({429, 502, 503, 504})
# Sends again of a request that failed on the way, unless the client is given another number.
DEFAULT_MAX_RETRIES = 2
# The longest Retry-After a request is sent again after: a longer one (a spent daily budget
# asks to wait until midnight UTC) is the caller's to decide on, so its error is raised at once.
MAX_RETRY_WAIT_SECONDS = 60.0


class JsonObject(dict):  # type: ignore[type-arg]
    """A free-form JSON object of an answer (`logs`, `metadata`, `generation`): a plain dict
    that also has the generated models' `to_dict()`, which the model holding it calls."""

    def to_dict(self) -> dict[str, Any]:
        return dict(self)


def _is_free_form(value: Any) -> bool:
    """A generated model for a JSON object with no declared fields (`logs`, `metadata`)."""
    if not attrs.has(type(value)):
        return False
    return [field.name for field in attrs.fields(type(value))] == ["additional_properties"]


def plain(value: Any) -> Any:
    """`value` with every free-form object inside it turned into a dict, in place."""
    if isinstance(value, list):
        return [plain(item) for item in value]
    if _is_free_form(value):
        return JsonObject(value.to_dict())
    if attrs.has(type(value)):
        for field in attrs.fields(type(value)):
            if field.name != "additional_properties":
                object.__setattr__(value, field.name, plain(getattr(value, field.name)))
    return value


def media_digest(sha256_or_url: str) -> str:
    """The digest in a `/v1/media/<sha256>` URL, or the argument when it is not one."""
    _, found, digest = sha256_or_url.rstrip("/").rpartition("/v1/media/")
    return digest if found else sha256_or_url


def checked(endpoint: ModuleType, client: Any, response: httpx.Response) -> Any:
    """The parsed body of a success, or the typed exception for an error answer, raised before
    the generated parser reads it: it parses each documented error status as a problem, and a
    proxy's 503 page or an empty 429 is no JSON."""
    if response.status_code >= 400:
        raise error_from_response(response.status_code, response.content, response.headers)
    return plain(endpoint._build_response(client=client, response=response).parsed)


def next_poll(
    response: Response[Any] | httpx.Response | None, deadline: float, poll_interval: float | None
) -> float:
    """Seconds to sleep before the next poll (after `response`, None when none came): the
    caller's interval, else Retry-After, at least MIN_POLL_SECONDS, capped by the deadline.
    Raises TimeoutError when the deadline has passed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("still not finished when the wait's timeout ran out")
    if poll_interval is not None:
        delay = poll_interval
    else:
        asked = retry_after(response.headers) if response is not None else None
        delay = asked or DEFAULT_POLL_SECONDS
    return min(max(delay, MIN_POLL_SECONDS), remaining)


def may_resend(request: Mapping[str, Any]) -> bool:
    """Whether a request (a generated `_get_kwargs`) may be sent again when it failed: a read,
    or a write under an Idempotency-Key (replayed by the server, never stored twice)."""
    if str(request["method"]).upper() in ("GET", "HEAD"):
        return True
    return any(name.lower() == "idempotency-key" for name in request.get("headers") or {})


def key_in_progress(response: httpx.Response) -> bool:
    """Whether `response` is Loupe's 409 saying the key's first request still runs (a send that
    timed out may still be storing): sending again under the key gets its answer once done."""
    if response.status_code != 409:
        return False
    try:
        problem = response.json()
    except ValueError:
        return False
    return isinstance(problem, dict) and str(problem.get("type", "")).endswith(KEY_IN_PROGRESS)


def resend_after(response: httpx.Response | None, attempt: int) -> float | None:
    """Seconds before sending a request again after `response` (None: no answer came), or None
    when it is not sent again: a 429 or 503's Retry-After up to MAX_RETRY_WAIT_SECONDS, a 409
    while the key's first request runs after its Retry-After (at most
    MAX_IN_PROGRESS_WAIT_SECONDS), else 0.5 s doubling; any other answer stands."""
    if response is not None and key_in_progress(response):
        return min(retry_after(response.headers) or 0.5 * 2**attempt, MAX_IN_PROGRESS_WAIT_SECONDS)
    if response is not None:
        if response.status_code not in RESEND_STATUSES:
            return None
        asked = retry_after(response.headers)
        if asked is not None:
            return asked if asked <= MAX_RETRY_WAIT_SECONDS else None
    return 0.5 * 2**attempt


# A batch's send that failed on the way (no answer, a 5xx, a 429, or a 409 while an earlier
# send under its key still runs) is sent again with the same Idempotency-Key this many times in
# all: appended once, whichever attempt got through.
APPEND_ATTEMPTS = 4
# What a failed send may raise; `sent_again` says which of these are worth another send.
SEND_FAILURES = (httpx.TransportError, LoupeError)
# How the problem type of Loupe's 409 ends while the key's first request still runs (a send
# that timed out may still be appending): sending again under the key is what the key is for.
KEY_IN_PROGRESS = "idempotency-key-in-progress"
# The longest wait a 409's Retry-After gets (Loupe asks 1 s): the attempts stay a few seconds.
MAX_IN_PROGRESS_WAIT_SECONDS = 10.0


def in_batches(test_cases: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """`test_cases` in lists of at most `size`, read lazily (a generator is never held whole)."""
    if size < 1:
        raise ValueError("batch_size must be at least 1")
    cases = iter(test_cases)
    while batch := list(itertools.islice(cases, size)):
        yield batch


def key_prefix(given: str | None) -> str:
    """The prefix of an upload's batch keys (`<prefix>-<batch number>`): the caller's, which
    makes a rerun of the same upload replay the batches already appended, else a new one."""
    return given or uuid.uuid4().hex


def sent_again(error: Exception) -> bool:
    """Whether a batch's failed send is sent again under its key: no answer, a 5xx, a 429 (not
    one asking to wait past MAX_RETRY_WAIT_SECONDS), or a 409 saying the key's first request is
    still in progress (any other 409 stands)."""
    if isinstance(error, ConflictError):
        return error.type.endswith(KEY_IN_PROGRESS)
    if isinstance(error, ServerError | RateLimitError):
        # A spent daily budget asks to wait until midnight UTC: not a wait to sleep through.
        asked = retry_after(error.headers)
        return asked is None or asked <= MAX_RETRY_WAIT_SECONDS
    return isinstance(error, httpx.TransportError)


def retry_delay(attempt: int, error: Exception) -> float:
    """Seconds before sending a batch again: the server's Retry-After on a 429 or 5xx (at most
    MAX_RETRY_WAIT_SECONDS, which `sent_again` checks), or on a 409 while the key is in
    progress (at most MAX_IN_PROGRESS_WAIT_SECONDS), else 0.5 s doubling."""
    asked = retry_after(error.headers) if isinstance(error, RateLimitError | ServerError) else None
    if asked:
        return min(asked, MAX_RETRY_WAIT_SECONDS)
    asked = retry_after(error.headers) if isinstance(error, ConflictError) else None
    if asked:
        return min(asked, MAX_IN_PROGRESS_WAIT_SECONDS)
    return 0.5 * 2**attempt
