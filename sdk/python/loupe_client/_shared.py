"""What the sync and async clients share: answers checked, models made friendlier, polling maths."""

import time
from typing import Any

import attrs

from ._errors import error_from_response, retry_after
from ._generated.types import Response

TERMINAL = frozenset({"completed", "failed", "canceled"})
# Between polls when the server sends no Retry-After (it does on queued/in-progress reads).
DEFAULT_POLL_SECONDS = 1.0


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


def checked(response: Response[Any]) -> Any:
    """The parsed body of a success, or the typed exception for an error answer."""
    if response.status_code >= 400:
        raise error_from_response(int(response.status_code), response.content, response.headers)
    return plain(response.parsed)


def next_poll(response: Response[Any], deadline: float, poll_interval: float | None) -> float:
    """Seconds to sleep before the next poll: the caller's interval, else Retry-After, capped
    by the deadline. Raises TimeoutError when the deadline has passed."""
    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise TimeoutError("still not finished when the wait's timeout ran out")
    if poll_interval is not None:
        delay = poll_interval
    else:
        delay = retry_after(response.headers) or DEFAULT_POLL_SECONDS
    return min(delay, remaining)
