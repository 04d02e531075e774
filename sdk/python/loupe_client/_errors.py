"""Exceptions raised for problem+json answers (RFC 9457), one class per kind of failure."""

import email.utils
from datetime import UTC, datetime
from typing import Any

import httpx


class LoupeError(Exception):
    """Any error answer from Loupe; `status`, `title` and `detail` come from its problem body,
    `required_scope` too on a 403 (the scope the key lacks), and `problem` is that whole body."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str | None = None,
        *,
        type: str = "about:blank",
        instance: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        headers: httpx.Headers | None = None,
        required_scope: str | None = None,
        problem: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {title}" + (f": {detail}" if detail else ""))
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.instance = instance
        self.errors = errors or []
        self.headers = headers or httpx.Headers()
        self.required_scope = required_scope
        self.problem = problem or {}


class RequestError(LoupeError):
    """A 4xx for the request itself (400, 413, 415, 422, and any 4xx without its own class):
    sending it again unchanged fails again."""


class ValidationError(RequestError):
    """400 or 422: the request was malformed; `errors` lists each bad field (`loc`, `msg`).

    Also raised, with status 422, before sending a body JSON cannot carry (a NaN or infinite
    number): its `errors` name the field."""


class PayloadTooLargeError(RequestError):
    """413: the body is over the server's limit (LOUPE_MAX_BODY_BYTES); send fewer test cases
    per evaluation or smaller images."""


class UnsupportedMediaTypeError(RequestError):
    """415: the body's Content-Type (or an upload's kind) is not one the endpoint takes."""


class AuthenticationError(LoupeError):
    """401 or 403: the API key is missing, wrong or revoked."""


class NotFoundError(LoupeError):
    """404: no such object for this tenant."""


class ConflictError(LoupeError):
    """409: the object's state forbids this (e.g. canceling a finished evaluation)."""


class RateLimitError(LoupeError):
    """429: too many requests; `retry_after` is the server's wait in seconds, if it gave one."""

    @property
    def retry_after(self) -> float | None:
        return retry_after(self.headers)


class ServerError(LoupeError):
    """5xx: Loupe failed; retrying later may succeed."""


def retry_after(headers: httpx.Headers) -> float | None:
    """The Retry-After header in seconds, or None. Loupe sends delta-seconds; a proxy or an
    ingress in front of it may send an HTTP-date (RFC 9110), read as the seconds until then."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:  # an obsolete form without a zone: HTTP-dates are GMT
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (moment - datetime.now(UTC)).total_seconds())


def _error_class(status: int) -> type[LoupeError]:
    if status in (400, 422):
        return ValidationError
    if status in (401, 403):
        return AuthenticationError
    if status == 404:
        return NotFoundError
    if status == 409:
        return ConflictError
    if status == 413:
        return PayloadTooLargeError
    if status == 415:
        return UnsupportedMediaTypeError
    if status == 429:
        return RateLimitError
    if 400 <= status < 500:
        return RequestError
    if status >= 500:
        return ServerError
    return LoupeError


def error_from_response(status: int, content: bytes, headers: httpx.Headers) -> LoupeError:
    """The exception for an error answer, read from its problem+json body when it has one."""
    try:
        problem = httpx.Response(status, content=content).json()
    except ValueError:
        problem = None
    body = problem if isinstance(problem, dict) else {}
    if not isinstance(problem, dict):
        problem = {"title": httpx.codes.get_reason_phrase(status) or "Error", "detail": None}
    return _error_class(status)(
        status,
        str(problem.get("title") or httpx.codes.get_reason_phrase(status) or "Error"),
        problem.get("detail"),
        type=problem.get("type") or "about:blank",
        instance=problem.get("instance"),
        errors=problem.get("errors") or [],
        headers=headers,
        required_scope=problem.get("required_scope"),
        problem=body,
    )
