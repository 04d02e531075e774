"""Counts and times each request to a judge or candidate endpoint (app.telemetry.metrics)."""

from urllib.parse import urlsplit

import openai

from app.judges._errors import connection_kind
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
    """The request outcome label for a failed request, from the error kinds of `_errors`
    (dns and tls failures count as unreachable: one label for "never got an answer")."""
    if isinstance(error, openai.RateLimitError):
        return "rate_limited"
    if isinstance(error, openai.InternalServerError):
        return "server_error"
    if isinstance(error, openai.APIConnectionError):
        return "timeout" if connection_kind(error) == "timeout" else "unreachable"
    return "refused"  # any other 4xx: bad request, auth, not found, quota


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
