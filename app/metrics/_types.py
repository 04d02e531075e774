"""The types every metric shares: the test case it reads and the result it returns."""

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from app.judges import (
    Embeddings,
    JudgeCache,
    JudgeClient,
    JudgeError,
    JudgeReply,
    JudgeUsage,
    SharedAnswers,
    cut_off_calls,
)
from app.metrics import _abandoned, _media_seen

TestCaseField = Literal[
    "input",
    "actual_output",
    "expected_output",
    "context",
    "retrieval_context",
    # A conversation's turns and the fields about it (app/metrics/_conversation.py).
    "turns",
    "scenario",
    "expected_outcome",
    "chatbot_role",
    "user_description",
    # Agent checks: the calls a single-turn case made, and those either shape should make.
    "tools_called",
    "expected_tools",
]
# A single-turn case's content fields (what a G-Eval's evaluation_params may name).
SingleTurnField = Literal[
    "input", "actual_output", "expected_output", "context", "retrieval_context"
]
# Which test cases a metric judges: one input and output, a conversation (`turns`), or either.
Shape = Literal["single", "conversation", "either"]


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
    # A conversation: each turn {"role": "user"|"assistant", "content": str or parts,
    # "tools_called": [{"name", "input_parameters", "output"}] | absent,
    # "retrieval_context": [node, ...] | absent}; None for a single-turn case.
    turns: list[dict[str, Any]] | None = None
    scenario: Any = None
    expected_outcome: Any = None
    chatbot_role: str | None = None
    user_description: str | None = None
    # A single-turn case's tool calls, and the calls either shape is expected to make
    # (each {"name", "input_parameters"?, "output"?}).
    tools_called: list[dict[str, Any]] | None = None
    expected_tools: list[dict[str, Any]] | None = None
    # False when no test case scored by another job has this retrieval context: answers made
    # from it (faithfulness truths) are then shared within the job without a claim across jobs.
    context_shared: bool = True


# Judge usage behind one result (zero for reference metrics).
Usage = JudgeUsage


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
    # Judged more than once (samples, a panel): every judgment and how far they agree.
    stability: dict[str, Any] | None = None
    # A panel's usage by model, each priced by its own model (None: one model, `usage`).
    usage_by_model: list[tuple[str | None, Usage]] | None = None

    @classmethod
    def scored(
        cls, score: float, threshold: float, reason: str | None, logs: dict[str, Any]
    ) -> "MetricResult":
        """A result for a score; `passed = score >= threshold`."""
        return cls(
            score=score, passed=score >= threshold, threshold=threshold, reason=reason, logs=logs
        )

    @classmethod
    def failure(cls, threshold: float | None, error: MetricError, **logs: Any) -> "MetricResult":
        """A result that carries an error instead of a score."""
        return cls(score=None, passed=None, threshold=threshold, error=error, logs=dict(logs))


class MetricSpecBase(BaseModel):
    """Options every metric spec accepts."""

    model_config = ConfigDict(extra="forbid")

    # Test-case fields the metric cannot run without; checked for every case at submit time.
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ()
    # True for metrics that call a judge: refused at submit when no judge can be resolved, and
    # given a `judge` field (a tenant's registered model) by app.metrics._judged.
    uses_judge: ClassVar[bool] = False
    # Which cases the metric judges: a case of the other shape is refused at submit (422
    # naming the case and the field).
    shape: ClassVar[Shape] = "single"
    # The fields of a conversation's turns `test_case_problems` reads: when the schema refused
    # one of them in some turn, the problems it finds at `turns` are left to the schema's error
    # (a turn whose retrieval_context was refused would be said to have none).
    turn_fields_read: ClassVar[frozenset[str]] = frozenset()

    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=128,
        description="Name results are reported under; defaults to the metric type.",
    )
    threshold: float = Field(
        default=0.5, ge=0, le=1, strict=True, description="`passed = score >= threshold`."
    )

    @model_validator(mode="wrap")
    @classmethod
    def _threshold_in_range(cls, data: Any, handler: Any) -> Any:
        """A threshold sent must lie in the metric's score range: psnr's 1000 dB over a
        `max_db` of 100 was taken, and every result failed."""
        spec = handler(data)
        if isinstance(data, dict) and "threshold" in data:
            low, high = spec.score_bounds()
            if not low <= spec.threshold <= high:
                raise ValidationError.from_exception_data(
                    cls.__name__,
                    [
                        InitErrorDetails(
                            type=PydanticCustomError(
                                "threshold_out_of_range",
                                "must lie in the metric's score range, {low} to {high}",
                                {"low": f"{low:g}", "high": f"{high:g}"},
                            ),
                            loc=("threshold",),
                            input=data["threshold"],
                        )
                    ],
                )
        return spec

    @property
    def display_name(self) -> str:
        return self.name or self.type  # type: ignore[attr-defined]

    def score_bounds(self) -> tuple[float, float]:
        """The lowest and highest score this metric gives (its intervals stay inside them)."""
        return (0.0, 1.0)

    def required_test_case_fields(self) -> tuple[TestCaseField, ...]:
        """Test-case fields this spec cannot run without."""
        return self.required_fields

    def test_case_problems(self, case: Any) -> list[tuple[str, str]]:
        """(field, message) for what this metric cannot accept in a submitted test case.

        Checked at submit after the required fields (image counts, a named second output);
        `case` has the test-case fields as attributes, content as strings or parts.
        """
        return []


# The most characters of earlier turns' text a judged turn's prompt shows (LOUPE_MAX_WINDOW_CHARS's
# default, which the service passes in; app/metrics/_turn_rag.py).
WINDOW_CHARS = 60_000


@dataclass
class MetricContext:
    """What a metric may use besides its test case: the judge, its cache, shared answers."""

    evaluation_id: str
    judge_model: str | None = None
    judge: JudgeClient | None = None
    # The tenant's registered judge model (None: the server's judge) and the judge's host.
    judge_model_id: str | None = None
    judge_host: str | None = None
    # Why there is no judge to call (deleted model, none configured): each call's error.
    judge_missing: str | None = None
    cache: JudgeCache | None = None
    # Answers shared by every metric and test case of a job: key -> a task (steps, truths)
    # or a value (text scores).
    shared: dict[Any, Any] = field(default_factory=dict)
    # Where the evaluation's other jobs (threads, processes) find those answers: each is made
    # once per evaluation. Without it they are made once per context.
    shared_answers: SharedAnswers | None = None
    # The model `text_similarity` with `cosine` embeds with (None: the grader's default).
    embedding_model: str | None = None
    # Sampling fields set on every call that is not shared (a sample's `temperature`).
    sampling: dict[str, Any] | None = None
    # The most characters of earlier turns' text one judged turn's prompt shows.
    window_chars: int = WINDOW_CHARS

    async def ask(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        *,
        model: str | None = None,
        top_logprobs: int | None = None,
        shared: bool = False,
        params: dict[str, Any] | None = None,
    ) -> JudgeReply:
        """One judge call (cached; with `shared`, made once across jobs); raises JudgeError.

        Args:
            params: sampling fields for this call (temperature, top_p, seed, ...).
        """
        if self.judge is None:
            raise JudgeError(
                "judge_not_configured", self.judge_missing or "no judge endpoint is configured"
            )
        _media_seen.record(messages)
        if self.sampling and not shared:
            params = {**(params or {}), **self.sampling}
        return await self.judge.call(
            messages,
            schema,
            model=model or self.judge_model,
            top_logprobs=top_logprobs,
            cache=self.cache,
            shared=self.shared_answers if shared else None,
            params=params,
        )

    async def drop_pending(self) -> None:
        """Cancel the shared calls still running (their job ended, a cancel having dropped the
        items waiting for them), and wait until they have let go of their claims."""
        await cancel_running(
            task for task in self.shared.values() if isinstance(task, asyncio.Future)
        )

    async def embed(self, texts: list[str], *, model: str) -> Embeddings:
        """The judge endpoint's embeddings of `texts` (not cached); raises JudgeError."""
        if self.judge is None:
            raise JudgeError("judge_not_configured", "no judge endpoint is configured")
        return await self.judge.embed(texts, model=model)

    async def _shared_call(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str | None,
        across_jobs: bool,
    ) -> JudgeReply:
        """A shared call, run as a task in its maker's context: cut off when the job ended
        (`drop_pending`), it is counted with its maker's canceled calls (a failed call)."""
        with cut_off_calls() as cut:
            try:
                return await self.ask(messages, schema, model=model, shared=across_jobs)
            except asyncio.CancelledError:
                usage = JudgeUsage()
                for spent in cut:
                    usage.add(spent)
                _abandoned.record(model or self.judge_model, usage)
                raise

    async def ask_shared(
        self,
        key: Any,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        *,
        model: str | None = None,
        across_jobs: bool = True,
    ) -> tuple[JudgeReply, bool]:
        """A judge call made once per key and shared; True for the caller that made it.

        With `across_jobs`, once per evaluation (other jobs wait for it); else once per job.
        """
        # The answer may be another metric's call: this metric is shown the same images.
        _media_seen.record(messages)
        task = self.shared.get(key)
        first = task is None
        if task is None:
            task = asyncio.ensure_future(self._shared_call(messages, schema, model, across_jobs))
            self.shared[key] = task
        try:
            return await asyncio.shield(task), first
        except JudgeError as error:
            if not first:
                # The maker of the call already counts its usage.
                raise JudgeError(error.type, error.message) from error
            raise


async def cancel_running(tasks: Iterable[asyncio.Future[Any]]) -> None:
    """Cancel those of `tasks` not done yet and wait until each has ended."""
    running = [task for task in tasks if not task.done()]
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
