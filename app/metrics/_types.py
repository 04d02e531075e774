"""The types every metric shares: the test case it reads and the result it returns."""

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

TestCaseField = Literal["input", "actual_output", "expected_output", "context", "retrieval_context"]


@dataclass(frozen=True)
class MetricTestCase:
    """A test case as metrics see it; content fields hold validated JSON (str or parts)."""

    index: int
    id: str
    input: Any = None
    actual_output: Any = None
    expected_output: Any = None
    context: list[Any] | None = None
    retrieval_context: list[Any] | None = None
    metadata: dict[str, Any] | None = None


@dataclass
class Usage:
    """Judge usage behind one result (zero for reference metrics)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def as_dict(self) -> dict[str, int]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass
class MetricError:
    """Why a metric could not score a test case; stored with the result, never raised."""

    type: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"type": self.type, "message": self.message}


@dataclass
class MetricResult:
    score: float | None
    passed: bool | None
    threshold: float | None
    reason: str | None = None
    error: MetricError | None = None
    usage: Usage = field(default_factory=Usage)
    logs: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def failure(cls, threshold: float | None, error: MetricError, **logs: Any) -> "MetricResult":
        """A result that carries an error instead of a score."""
        return cls(score=None, passed=None, threshold=threshold, error=error, logs=dict(logs))


class MetricSpecBase(BaseModel):
    """Options every metric spec accepts."""

    model_config = ConfigDict(extra="forbid")

    # Test-case fields the metric cannot run without; checked for every case at submit time.
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ()

    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="Name results are reported under; defaults to the metric type.",
    )
    threshold: float = Field(default=0.5, ge=0, le=1, description="`passed = score >= threshold`.")

    @property
    def display_name(self) -> str:
        return self.name or self.type  # type: ignore[attr-defined]


@dataclass
class MetricContext:
    """What a metric may use besides its test case; judge clients join in a later issue."""

    evaluation_id: str
    judge_model: str | None = None
    shared: dict[str, Any] = field(default_factory=dict)
