"""What a judge or candidate call returns, and how it fails."""

from dataclasses import dataclass, field
from typing import Any, Literal

from app.media.netguard import AddressPolicy

ResponseFormatMode = Literal["json_schema", "json_object", "text"]
# The most bytes of one response body read from an endpoint (LOUPE_MAX_MODEL_RESPONSE_BYTES).
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class JudgeEndpoint:
    """An OpenAI-compatible endpoint and how to call it."""

    base_url: str | None
    # Kept out of repr so it never lands in a log line or traceback.
    api_key: str = field(repr=False)
    default_model: str = "gpt-4.1"
    timeout_seconds: float = 60.0
    max_attempts: int = 5
    concurrency: int = 64
    # The in-flight limit may grow past `concurrency` up to this while the endpoint states no
    # rate limit and never answers 429 (None: it never grows past `concurrency`).
    max_concurrency: int | None = None
    response_format: ResponseFormatMode = "json_schema"
    temperature: float = 0.0
    backoff_base_seconds: float = 0.5
    backoff_cap_seconds: float = 30.0
    # What the endpoint is to Loupe ("judge", "candidate"): prefixes error types and messages.
    role: str = "judge"
    # A PEM file of extra CAs trusted besides the public ones (an on-premises server).
    ca_bundle: str | None = None
    # Redis URL where the endpoint's pace is shared by every worker; None: this process only.
    pace_url: str | None = field(default=None, repr=False)
    # A tenant's registered model: the operator's model policy, applied to the address of every
    # connection (DNS may answer differently after the check at registration). None for the
    # operator's own judge, which may be on any address.
    address_policy: AddressPolicy | None = None
    # Model names of the operator's that /metrics may show besides `default_model` (the priced
    # ones); any other name a tenant asks this endpoint for counts as model `other`.
    labelled_models: frozenset[str] = frozenset()
    # A response body past this many bytes (decoded) is not read on: `<role>_malformed`.
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES

    @property
    def tenant_owned(self) -> bool:
        """True for a tenant's registered model (its host and name are the tenant's data)."""
        return self.address_policy is not None


@dataclass
class JudgeUsage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Of prompt_tokens, those the provider reports it served from its prompt cache
    # (`usage.prompt_tokens_details.cached_tokens`); priced apart when a price says so.
    cached_prompt_tokens: int = 0
    # Requests sent that got no answer to read (an error status, a timeout, no connection),
    # each retry counted: not in `calls`, which counts answers (and their billed tokens).
    failed_calls: int = 0

    def add(self, other: "JudgeUsage") -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cached_prompt_tokens += other.cached_prompt_tokens
        self.failed_calls += other.failed_calls


@dataclass
class JudgeReply:
    """A parsed judge answer; `data` is the validated JSON object."""

    data: dict[str, Any]
    content: str
    logprobs: list[dict[str, Any]] | None
    usage: JudgeUsage
    cached: bool = False
    repaired: bool = False
    response_format: ResponseFormatMode = "json_schema"
    # The top_logprobs the request asked for (None: no logprobs, or unknown for a cached
    # answer), and the endpoint's refusal when it takes no logprobs for this model.
    top_logprobs: int | None = None
    logprobs_refusal: str | None = None


@dataclass
class Generation:
    """A model's plain chat completion: the model under test answering."""

    content: str
    usage: JudgeUsage
    finish_reason: str | None
    # The reply's first choice as sent (tool calls, audio) and the model that answered: what
    # an OpenAI Evals `sample` namespace is built from.
    choice: dict[str, Any] | None = None
    model: str | None = None


@dataclass
class Embeddings:
    """Embedding vectors, one per input text, and the usage of the call that made them."""

    vectors: list[list[float]]
    usage: JudgeUsage


class MismatchedAnswer(ValueError):
    """Raised by a reply schema's validator: the answer is well-formed but does not fit the
    question (a verdict count other than the nodes asked about, a score outside the asked
    range). The judge client asks once for a repair saying what did not fit; a second misfit
    is `invalid_answer`, never a clamped or partial score."""


class JudgeError(Exception):
    """A call that failed for good; `type` becomes the result's error type.

    Endpoint failures are typed `<role>_<kind>` (`judge_timeout`, `candidate_unreachable`);
    `kind` alone is one of app.judges._errors.FailureKind, or `auth`, `quota`, `bad_request`,
    `error` (another HTTP status), `blocked` (the model policy refused the address a tenant's
    model host resolved to); None for failures that are not the endpoint's.
    """

    def __init__(
        self,
        type_: str,
        message: str,
        usage: JudgeUsage | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(message)
        self.type = type_
        self.message = message
        self.usage = usage or JudgeUsage()
        self.kind = kind
