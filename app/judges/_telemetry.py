"""Counts and times each request to a judge or candidate endpoint (app.telemetry.metrics)."""

import socket
import ssl
from urllib.parse import urlsplit

import openai

from app.telemetry.metrics import (
    PROVIDER_COMPLETION_TOKENS,
    PROVIDER_DURATION,
    PROVIDER_PROMPT_TOKENS,
    PROVIDER_REQUESTS,
)

# A tenant may name any judge model: past this many distinct names per endpoint, new ones are
# counted as "other" so the label set stays bounded.
MAX_MODEL_LABELS = 32
OTHER_MODEL = "other"


def outcome_of(error: Exception) -> str:
    """The request outcome label for a failed request: what kind of failure it was."""
    if isinstance(error, openai.RateLimitError):
        return "rate_limited"
    if isinstance(error, openai.InternalServerError):
        return "server_error"
    if isinstance(error, openai.APIConnectionError):
        # The SDK on aiohttp reports a refused connection as a timeout: the cause tells.
        if any(isinstance(cause, _UNREACHABLE) for cause in _causes(error)):
            return "unreachable"  # refused connections, DNS and TLS failures alike
        return "timeout" if isinstance(error, openai.APITimeoutError) else "unreachable"
    return "refused"  # any other 4xx: bad request, auth, not found, quota


_UNREACHABLE = (ConnectionError, socket.gaierror, ssl.SSLError)


def _causes(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = error.__cause__ or error.__context__
    while current is not None and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


class EndpointMeter:
    """The Prometheus series of one endpoint (role and host), per model."""

    def __init__(self, role: str, base_url: str | None) -> None:
        self.role = role
        # The SDK's default endpoint when none is configured.
        self.host = urlsplit(base_url or "https://api.openai.com/v1").hostname or "unknown"
        self._models: set[str] = set()

    def _model(self, model: str) -> str:
        if model in self._models:
            return model
        if len(self._models) >= MAX_MODEL_LABELS:
            return OTHER_MODEL
        self._models.add(model)
        return model

    def timed(self, model: str, seconds: float) -> None:
        """A request got its answer or failed after `seconds`."""
        PROVIDER_DURATION.labels(self.role, self.host, self._model(model)).observe(seconds)

    def failed(self, model: str, error: Exception) -> None:
        PROVIDER_REQUESTS.labels(self.role, self.host, self._model(model), outcome_of(error)).inc()

    def answered(
        self, model: str, *, usable: bool, prompt_tokens: int, completion_tokens: int
    ) -> None:
        """A 2xx answer: usable, or malformed (not a chat completion, or unusable JSON)."""
        labels = (self.role, self.host, self._model(model))
        PROVIDER_REQUESTS.labels(*labels, "ok" if usable else "malformed").inc()
        if prompt_tokens:
            PROVIDER_PROMPT_TOKENS.labels(*labels).inc(prompt_tokens)
        if completion_tokens:
            PROVIDER_COMPLETION_TOKENS.labels(*labels).inc(completion_tokens)
