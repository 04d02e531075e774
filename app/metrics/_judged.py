"""What the judged metrics share: options, and running judge calls into one result."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from pydantic_core import InitErrorDetails, PydanticCustomError

from app.judges import JudgeError, JudgeReply, cut_off_calls
from app.metrics import _abandoned, _verdicts
from app.metrics._guidance import Guidance, with_guidance
from app.metrics._types import MetricContext, MetricError, MetricResult, MetricSpecBase, Usage

# At most this many judge calls answer one (test case, metric) per panel member.
MAX_SAMPLES = 20
# A panel has two to this many members.
MAX_PANEL = 8

Aggregate = Literal["median", "mean", "majority"]

_BOTH_NAMED = "name either `model_id` or a `panel`, not both"


class PanelMember(BaseModel):
    """One judge of a panel: a model the tenant registered, or the server's judge."""

    model_config = ConfigDict(extra="forbid")

    model_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="A model from /v1/models; omitted: the server's judge (LOUPE_JUDGE_*).",
    )
    model: str | None = Field(
        default=None,
        min_length=1,
        max_length=256,
        description="The model name to ask at that endpoint; defaults to the registered "
        "model's, or LOUPE_JUDGE_MODEL for the server's judge.",
    )
    weight: float = Field(
        default=1.0, gt=0, le=100, description="Its share in the panel's aggregate."
    )


class JudgeRef(BaseModel):
    """Which judge scores the metric, how many times, and with whom: a model the tenant
    registered (POST /v1/models), K independent samples, a panel of judges."""

    model_config = ConfigDict(extra="forbid")

    model_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=40,
        description="A model from /v1/models; omitted: the evaluation's judge, then the "
        "server's (LOUPE_JUDGE_*).",
    )
    samples: int = Field(
        default=1,
        ge=1,
        le=MAX_SAMPLES,
        description="Independent judge calls on the same output (per panel member), none "
        "answered from the judge cache; the score is their `aggregate` and each result "
        "carries `stability`. The judge calls and cost are multiplied by it.",
    )
    aggregate: Aggregate = Field(
        default="median",
        description="How the samples' (and members') scores make the score: `median`, `mean` "
        "(weighted by members' `weight`), or `majority` (the verdict most weight gave; the "
        "score is the median of the scores that gave it; a tie fails).",
    )
    temperature: float | None = Field(
        default=None,
        ge=0,
        le=2,
        description="The sampling temperature of the calls that judge the output, whether it "
        "is judged once or more (samples or a panel); calls whose answer items share keep the "
        "judge's own. Default: the judge's own (usually 0, where samples differ only as much "
        "as the provider does).",
    )
    panel: list[PanelMember] | None = Field(
        default=None,
        min_length=2,
        max_length=MAX_PANEL,
        description="Judges that each score the output (`samples` times each); the result "
        "keeps every member's score and reason, and the evaluation reports their agreement "
        "(Krippendorff's alpha). Not with `model_id`.",
    )

    @model_validator(mode="wrap")
    @classmethod
    def _one_choice(cls, data: Any, handler: Any) -> "JudgeRef":
        """Either `model_id` or a `panel`, said beside the choice's other faults (a check after
        validation was not made until they were fixed), and each judge of a panel once."""
        both = isinstance(data, dict) and None not in (data.get("model_id"), data.get("panel"))
        try:
            ref = handler(data)
        except ValidationError as error:
            if not both:
                raise
            found = [
                InitErrorDetails(
                    type=PydanticCustomError(each["type"], each["msg"]),
                    loc=each["loc"],
                    input=each["input"],
                )
                for each in error.errors()
            ]
            both_named = PydanticCustomError("value_error", _BOTH_NAMED)
            found.append(InitErrorDetails(type=both_named, loc=(), input=data))
            raise ValidationError.from_exception_data(cls.__name__, found) from None
        if both:
            raise ValueError(_BOTH_NAMED)
        if ref.panel is not None:
            seen = [(member.model_id, member.model) for member in ref.panel]
            if len(set(seen)) != len(seen):
                raise ValueError("a panel names each judge (model_id and model) once")
        return ref

    @property
    def multiplier(self) -> int:
        """Judge calls per (test case, metric) against one: samples times members."""
        return self.samples * (len(self.panel) if self.panel else 1)

    @property
    def repeated(self) -> bool:
        """True when the metric is judged more than once per test case."""
        return self.multiplier > 1


# A judged spec's `model` and `judge` fields (every JudgedSpecBase's, and llm_accuracy's, which
# takes neither guidance nor strict mode).
JudgeModel = Annotated[
    str | None, Field(description="Judge model; defaults to the evaluation's `judge.model`.")
]
JudgeChoice = Annotated[
    JudgeRef | None,
    Field(
        description="This metric's own judge, a model registered with POST /v1/models "
        "(defaults to the evaluation's `judge`, then the server's, LOUPE_JUDGE_*); `samples` "
        "to judge each output K times, a `panel` of judges."
    ),
]


class JudgedSpecBase(MetricSpecBase):
    uses_judge: ClassVar[bool] = True

    model: JudgeModel = None
    judge: JudgeChoice = None
    guidance: Guidance | None = Field(
        default=None,
        description="People's worked examples (`examples`: input, actual_output, their "
        "verdict and rationale) and rubric `notes`, added to every verdict prompt of the "
        "metric; usually proposed by an alignment (`POST /v1/alignments`). Part of the "
        "metric's version: a spec with guidance is a new version.",
    )
    include_reason: bool = Field(default=True, strict=True)
    strict_mode: bool = Field(
        default=False,
        strict=True,
        description="Binary scoring: threshold becomes 1 and lower scores become 0.",
    )

    @model_validator(mode="after")
    def _strict_threshold(self) -> "JudgedSpecBase":
        if self.strict_mode:
            self.threshold = 1.0
        return self


class JudgeSession:
    """Counts the usage and keeps the raw JSON of one metric's judge calls."""

    def __init__(
        self, ctx: MetricContext, model: str | None, guidance: Guidance | None = None
    ) -> None:
        self.ctx = ctx
        self.model = model
        # Added to every verdict call (`ask`); shared calls are not verdicts and go without.
        self.guidance = guidance
        self.usage = Usage()
        self.raw: dict[str, Any] = {}
        self.cached_calls = 0
        # The calls whose first answer did not fit and was asked again (once).
        self.repaired: list[str] = []

    def _record(self, name: str, reply: JudgeReply, counted: bool = True) -> dict[str, Any]:
        if counted:
            self.usage.add(reply.usage)
            if reply.repaired:
                self.repaired.append(name)
        self.cached_calls += reply.cached
        self.raw[name] = reply.data
        return reply.data

    async def ask(
        self, name: str, messages: list[dict[str, Any]], schema: Any, **kw: Any
    ) -> JudgeReply:
        try:
            reply = await self.ctx.ask(
                with_guidance(messages, self.guidance), schema, model=self.model, **kw
            )
        except JudgeError as error:
            self.usage.add(error.usage)
            raise
        self._record(name, reply)
        return reply

    async def ask_shared(
        self,
        name: str,
        key: Any,
        messages: list[dict[str, Any]],
        schema: Any,
        across_jobs: bool = True,
    ) -> tuple[JudgeReply, bool]:
        try:
            reply, first = await self.ctx.ask_shared(
                key, messages, schema, model=self.model, across_jobs=across_jobs
            )
        except JudgeError as error:
            self.usage.add(error.usage)
            raise
        self._record(name, reply, counted=first)
        return reply, first


async def run_judged(
    spec: JudgedSpecBase,
    ctx: MetricContext,
    body: Callable[[JudgeSession], Awaitable[MetricResult]],
) -> MetricResult:
    """Run a metric body; a judge failure becomes the result's error, keeping its usage."""
    session = JudgeSession(ctx, spec.model, getattr(spec, "guidance", None))
    with cut_off_calls() as cut:
        try:
            result = await body(session)
        except JudgeError as error:
            result = MetricResult.failure(spec.threshold, MetricError(error.type, error.message))
        except asyncio.CancelledError:
            # Its evaluation was canceled: the calls answered so far are billed all the same,
            # and those the cancel cut off were sent (failed calls: their tokens never came).
            for usage in cut:
                session.usage.add(usage)
            _abandoned.record(spec.model or ctx.judge_model, session.usage)
            raise
    result.usage = session.usage
    result.logs.setdefault("judge_json", session.raw)
    result.logs["model"] = spec.model or ctx.judge_model
    # Which judge answered: its model, the tenant's registered model id (None: the server's
    # judge) and its host, so usage is attributed to the model that was called.
    result.logs["judge"] = {
        "model": result.logs["model"],
        "model_id": ctx.judge_model_id,
        "host": ctx.judge_host,
    }
    result.logs["cached_calls"] = session.cached_calls
    if session.usage.failed_calls:
        # Requests the judge never answered (errors, timeouts; retries included).
        result.logs["failed_calls"] = session.usage.failed_calls
    if session.repaired:
        # Each repair request is a judge call of its own, counted in `usage.calls`.
        result.logs["repaired_calls"] = session.repaired
    return result


def passed(score: float, threshold: float) -> bool:
    return score >= threshold


def strict_result(
    spec: JudgedSpecBase, score: float, reason: str | None, logs: dict[str, Any]
) -> MetricResult:
    """The result of the metric's own score: in strict mode a score under the threshold is
    stored as 0 and its reason says so (`_verdicts.strict_scored`); passed at the threshold."""
    score, reason = _verdicts.strict_scored(score, spec.threshold, spec.strict_mode, reason, logs)
    return MetricResult(score, passed(score, spec.threshold), spec.threshold, reason, logs=logs)
