"""What a failed request says: how long to wait, why it was refused, in a few words."""

import email.utils
import errno
import math
import re
import socket
import ssl
import time
from collections.abc import Iterator
from datetime import UTC
from typing import Literal
from urllib.parse import urlsplit

import aiohttp
import httpx
import openai
from pydantic import ValidationError

from app.judges._types import MismatchedAnswer
from app.telemetry.logs import redact

# Providers' Retry-After beyond this is capped: a job should not sleep for an hour.
MAX_RETRY_AFTER_SECONDS = 60.0
_LIMIT = re.compile(
    r"(?:<=|≤|at most|maximum(?: value)?(?: of| is)?|max:?|up to|less than or equal to)"
    r"\s*(\d+)"
)


def retry_after(error: openai.APIStatusError) -> float | None:
    """Seconds the endpoint asked us to wait; None when it did not say (or said nonsense)."""
    value = error.response.headers.get("retry-after") if error.response is not None else None
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(value)
        except (ValueError, TypeError, IndexError):
            return None  # e.g. "soon": the normal backoff applies
        if parsed.tzinfo is None:
            # RFC 9110 dates are GMT; "-0000" parses as naive, which would mean local time.
            parsed = parsed.replace(tzinfo=UTC)
        return max(0.0, parsed.timestamp() - time.time())
    return max(0.0, seconds) if math.isfinite(seconds) else None


def error_code(error: openai.APIStatusError) -> str | None:
    code = getattr(error, "code", None)
    if code:
        return str(code)
    body = error.body if isinstance(error.body, dict) else {}
    inner = body.get("error", body) if isinstance(body, dict) else {}
    return inner.get("code") if isinstance(inner, dict) else None


def stated_limit(refusal: str) -> int | None:
    """The largest top_logprobs a refusal says the model takes, if it says."""
    match = _LIMIT.search(refusal)
    return int(match.group(1)) if match else None


def endpoint_message(error: openai.APIStatusError, key: str | None = None) -> str:
    """The endpoint's own words for an error (its `error.message`), else the status line,
    with the request's API key and every known secret replaced.

    Providers echo the Authorization header they refused ("Incorrect API key provided:
    Bearer sk-..."); these words are stored on results, exported and logged.
    """
    body = error.body if isinstance(error.body, dict) else {}
    inner = body.get("error", body) if isinstance(body, dict) else {}
    message = inner.get("message") if isinstance(inner, dict) else None
    # Redacted before it is shortened: a cut through the key would leave half of it.
    return _shortened(redact(str(message or error), key))


def describe(error: Exception) -> str:
    """What was wrong with a reply, in the words the judge is shown and results store: a
    validator's own message without pydantic's `Value error, ` prefix."""
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        raised = (first.get("ctx") or {}).get("error")
        message = str(raised) if isinstance(raised, ValueError) else first.get("msg")
        return f"field {where or '(root)'}: {message}"
    return str(error)


def misfit(error: Exception) -> str | None:
    """What did not fit the question when a reply failed its schema with MismatchedAnswer
    (field and message), else None."""
    if not isinstance(error, ValidationError):
        return None
    for item in error.errors():
        if isinstance((item.get("ctx") or {}).get("error"), MismatchedAnswer):
            where = ".".join(str(part) for part in item.get("loc", ()))
            return f"field {where or '(root)'}: {item['ctx']['error']}"
    return None


# Why a call to a judge or candidate endpoint failed for good. These names are a contract: the
# error type stored on a result is `<role>_<kind>` (`judge_timeout`, `candidate_unreachable`),
# and metrics label request outcomes with them. `auth`, `quota`, `bad_request` and `error`
# (any other HTTP status) complete the set.
FailureKind = Literal[
    "unreachable", "dns", "tls", "timeout", "rate_limited", "server_error", "malformed"
]
# The host the OpenAI SDK calls when no base URL is configured.
DEFAULT_HOST = "api.openai.com"


def endpoint_host(base_url: str | None) -> str:
    """The endpoint's host[:port] for messages: never its path, user info or key."""
    if not base_url:
        return DEFAULT_HOST
    parts = urlsplit(base_url)
    host = parts.hostname or base_url
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port else host


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def connection_kind(error: Exception) -> FailureKind:
    """What a transport failure was: dns, tls, timeout or unreachable (refused, reset, ...).

    Read from the whole exception chain: httpx-aiohttp maps a refused connection to
    httpx.ConnectTimeout, so the SDK's own class (APITimeoutError) cannot be trusted.
    """
    chain = list(_chain(error))
    for exc in chain:
        if isinstance(exc, aiohttp.ClientConnectorDNSError | socket.gaierror):
            return "dns"
    for exc in chain:
        if isinstance(
            exc,
            aiohttp.ClientConnectorCertificateError
            | aiohttp.ClientSSLError
            | ssl.SSLError
            | ssl.CertificateError,
        ):
            return "tls"
    for exc in chain:
        # Checked before OSError: TimeoutError is one.
        if isinstance(exc, TimeoutError | aiohttp.ServerTimeoutError):
            return "timeout"
    for exc in chain:
        if isinstance(exc, ConnectionError | aiohttp.ClientConnectionError | OSError):
            return "unreachable"
    if any(isinstance(exc, openai.APITimeoutError | httpx.TimeoutException) for exc in chain):
        return "timeout"
    return "unreachable"


def connection_message(
    kind: FailureKind, role: str, host: str, error: Exception, timeout: float, key: str | None
) -> str:
    """A failed connection in a few words, naming the endpoint's host (never `key`)."""
    cause = _innermost(error, key)
    if kind == "dns":
        return f"the {role} endpoint's host {host} does not resolve (DNS lookup failed)"
    if kind == "tls":
        return f"TLS with the {role} endpoint {host} failed: {cause}"
    if kind == "timeout":
        return f"the {role} endpoint {host} did not answer within {timeout:g} s"
    if any(
        isinstance(exc, ConnectionRefusedError)
        or (isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED)
        for exc in _chain(error)
    ):
        return f"the {role} endpoint {host} refused the connection (is the server running?)"
    return f"the {role} endpoint {host} is unreachable: {cause}"


def _innermost(error: Exception, key: str | None) -> str:
    *_, last = _chain(error)
    return _shortened(redact(str(last) or type(last).__name__, key))


def _shortened(text: str) -> str:
    return text if len(text) <= 200 else text[:197] + "..."
