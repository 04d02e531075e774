"""Counts and times each request to a judge or candidate endpoint (app.telemetry.metrics)."""

import threading
from typing import Any
from urllib.parse import urlsplit

import openai

from app.judges._errors import connection_kind
from app.telemetry.metrics import (
    PROVIDER_COMPLETION_TOKENS,
    PROVIDER_DURATION,
    PROVIDER_IN_FLIGHT,
    PROVIDER_IN_FLIGHT_LIMIT,
    PROVIDER_PROMPT_TOKENS,
    PROVIDER_REQUESTS,
)

# Tenants choose their models' hosts and names: past this many distinct hosts in a process, new
# ones are counted as host "other" (and model "other"); past this many model names on one host,
# new ones are model "other". The label sets stay bounded however many models are registered.
MAX_HOST_LABELS = 32
MAX_MODEL_LABELS = 32
OTHER = "other"
# The host and model label of every tenant's registered model: /metrics may be read by anyone
# who reaches it, and which hosts and models a tenant uses is that tenant's business.
TENANT = "tenant"


class LabelBudget:
    """Which (host, model) label values a process has handed out; the first come keep theirs."""

    def __init__(self, max_hosts: int = MAX_HOST_LABELS, max_models: int = MAX_MODEL_LABELS):
        self.max_hosts = max_hosts
        self.max_models = max_models
        self._models: dict[str, set[str]] = {}
        # Meters on several event loops (threads) share the budget.
        self._lock = threading.Lock()

    def labels(self, host: str, model: str) -> tuple[str, str]:
        """The (host, model) label values to count a request to `model` at `host` under (model
        "": the host's alone, spending none of its model names)."""
        with self._lock:
            models = self._models.get(host)
            if models is None:
                if len(self._models) >= self.max_hosts:
                    return OTHER, OTHER
                models = self._models[host] = set()
            if model in models or not model:
                return host, model
            if len(models) >= self.max_models:
                return host, OTHER
            models.add(model)
            return host, model


# One budget per process: every client's meter draws from it.
PROCESS_LABELS = LabelBudget()


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
    """The Prometheus series of one endpoint (role and host), per model; a tenant's model is
    counted as host and model `tenant`, the operator's judge under its own host and, for the
    names in `labelled_models` (its judge model and priced models), its own model name."""

    def __init__(
        self,
        role: str,
        base_url: str | None,
        budget: LabelBudget = PROCESS_LABELS,
        *,
        tenant_owned: bool = False,
        labelled_models: frozenset[str] = frozenset(),
    ) -> None:
        self.role = role
        # The SDK's default endpoint when none is configured.
        self.host = urlsplit(base_url or "https://api.openai.com/v1").hostname or "unknown"
        self.tenant_owned = tenant_owned
        self.labelled_models = labelled_models
        self._budget = budget
        # Each series' child, looked up once: labels() takes a lock and builds a key per call.
        self._series: dict[tuple[Any, ...], Any] = {}

    def _labels(self, model: str) -> tuple[str, str, str]:
        if self.tenant_owned:
            return self.role, TENANT, TENANT
        # A name the operator did not configure is a tenant's choice: not shown, not spent
        # from the budget that the operator's own names need.
        if model not in self.labelled_models:
            return self.role, *self._budget.labels(self.host, OTHER)
        return (self.role, *self._budget.labels(self.host, model))

    def _child(self, family: Any, model: str, *more: str) -> Any:
        # Keyed by the operator's names only: every other name shares one series (and a
        # tenant naming a new model per request must not grow this).
        named = model if not self.tenant_owned and model in self.labelled_models else ""
        key = (family, named, *more)
        child = self._series.get(key)
        if child is None:
            # A model's labels never change once the budget handed them out.
            child = self._series[key] = family.labels(*self._labels(model), *more)
        return child

    def _endpoint_child(self, family: Any) -> Any:
        # By role and host only: every model of the endpoint shares its requests in flight.
        child = self._series.get(family)
        if child is None:
            role, host, _ = (
                (self.role, TENANT, TENANT)
                if self.tenant_owned
                else (self.role, *self._budget.labels(self.host, ""))
            )
            child = self._series[family] = family.labels(role, host)
        return child

    def in_flight(self, change: int) -> None:
        """A request was sent (+1) or got its answer or failed (-1)."""
        self._endpoint_child(PROVIDER_IN_FLIGHT).inc(change)

    def limit_moved(self, change: float) -> None:
        """The endpoint's in-flight limit in this process grew or shrank by `change`."""
        if change:
            self._endpoint_child(PROVIDER_IN_FLIGHT_LIMIT).inc(change)

    def timed(self, model: str, seconds: float) -> None:
        """A request got its answer or failed after `seconds`."""
        self._child(PROVIDER_DURATION, model).observe(seconds)

    def failed(self, model: str, error: Exception) -> None:
        self._child(PROVIDER_REQUESTS, model, outcome_of(error)).inc()

    def answered(
        self, model: str, *, usable: bool, prompt_tokens: int, completion_tokens: int
    ) -> None:
        """A 2xx answer: usable, or malformed (not a chat completion, or unusable JSON)."""
        self._child(PROVIDER_REQUESTS, model, "ok" if usable else "malformed").inc()
        if prompt_tokens:
            self._child(PROVIDER_PROMPT_TOKENS, model).inc(prompt_tokens)
        if completion_tokens:
            self._child(PROVIDER_COMPLETION_TOKENS, model).inc(completion_tokens)
