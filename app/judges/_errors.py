"""What a failed request says: how long to wait, why it was refused, in a few words."""

import email.utils
import math
import re
import time
from datetime import UTC

import openai
from pydantic import ValidationError

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


def endpoint_message(error: openai.APIStatusError) -> str:
    """The endpoint's own words for an error (its `error.message`), else the status line."""
    body = error.body if isinstance(error.body, dict) else {}
    inner = body.get("error", body) if isinstance(body, dict) else {}
    message = inner.get("message") if isinstance(inner, dict) else None
    text = str(message or error)
    return text if len(text) <= 200 else text[:197] + "..."


def short(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 300 else text[:297] + "..."


def describe(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        return f"field {where or '(root)'}: {first.get('msg')}"
    return str(error)
