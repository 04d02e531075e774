"""Online rules: what production spans a tenant has judged, and how many it saw (issue 26)."""

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from app.evaluations.schemas import EvaluationResult, JudgeConfig, TestCase
from app.metrics import MetricSpec
from app.problems import FieldError, field_error
from app.schemas import ListPage, http_url, utc_moment

FilterOp = Literal["eq", "contains", "regex"]
Target = Literal["span", "conversation"]
AttributeName = Annotated[str, Field(min_length=1, max_length=256)]
EXPORT_ENDPOINT = (
    "OTLP/HTTP base URL its scores are sent to as OpenTelemetry `gen_ai.evaluation.result` "
    "log records (`/v1/logs` is appended), under the webhook address policy; none: the "
    "server's `LOUPE_OTLP_EXPORT_ENDPOINT`, if set."
)
EXPORT_HEADERS = (
    "Headers sent with every export to its own `export_endpoint` (a hosted collector's key: "
    "`x-honeycomb-team`, `Authorization`, `DD-API-KEY`), at most 16 RFC 9110 names to "
    "printable values, 8 KiB in all; no hop-by-hop or framing header (`Host`, `Content-Type`, "
    "`Content-Length`, `Transfer-Encoding`, `Connection`, ...). Stored encrypted, never "
    "returned: a rule shows `export_header_names`."
)


class _ExportEndpoint(BaseModel):
    @field_validator("export_endpoint", check_fields=False)
    @classmethod
    def _http_url(cls, url: str | None) -> str | None:
        return http_url(url, "; a collector's token cannot be sent").rstrip("/") if url else None


class Condition(BaseModel):
    """One test on a span: its attribute (a span attribute, else a resource attribute such as
    `service.name`; `model` and `operation` name the GenAI call's model and operation in
    whichever convention the span uses) equals, contains or matches (RE2 syntax) `value`."""

    model_config = ConfigDict(extra="forbid")

    attribute: AttributeName
    op: FilterOp = "eq"
    value: str = Field(max_length=1024)


class Sampling(BaseModel):
    """Which matching calls are judged: a share of traces, chosen by their trace id, so every
    API process samples a trace the same way and a trace's calls are judged together."""

    # Strict: "0.5" is no rate (a 422 naming it), as `true` is the only yes.
    model_config = ConfigDict(extra="forbid", strict=True)

    rate: float = Field(ge=0, le=1, description="0 judges none, 1 every matching call.")


class AlertSettings(BaseModel):
    """A Standard Webhooks `online_rule.alert` to `webhook_url` when the metric's pass rate over
    the last `window_hours` UTC hours is below `threshold` with 95% confidence (the upper bound
    of its Wilson interval is below it: one bad call does not do), once per episode; an
    `online_rule.alert_resolved` once the upper bound is back at or above it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    metric: str = Field(min_length=1, max_length=256, description="One of the rule's metrics.")
    threshold: float = Field(ge=0, le=1, description="The lowest acceptable pass rate.")
    window_hours: int = Field(
        ge=1, le=168, description="The hourly buckets counted, the current one included."
    )
    webhook_url: str = Field(
        min_length=1,
        max_length=2048,
        description="A webhook endpoint registered with POST /v1/webhook_endpoints.",
    )


class Alert(AlertSettings):
    firing_since: datetime | None = Field(
        description="When its current episode began (`online_rule.alert` was sent); null: the "
        "pass rate is not known to be below the threshold."
    )


class OnlineRuleCreate(_ExportEndpoint):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=256)
    filter: list[Condition] = Field(
        default_factory=list,
        max_length=16,
        description="Conditions a span must all meet; none: every GenAI call.",
    )
    sampling: Sampling
    metrics: list[MetricSpec] = Field(  # type: ignore[valid-type]
        min_length=1,
        description="As in an evaluation (at most LOUPE_MAX_METRICS); a call gives `input`, "
        "`actual_output` and, from the trace's retrieval spans, `retrieval_context`; a "
        "conversation (`target: conversation`) gives `turns` and, from its calls' system "
        "instructions, `chatbot_role`. A `span` rule takes single-turn metrics, a "
        "`conversation` rule conversational ones (a misfit is a 422 naming `metrics[i]`).",
    )
    judge: JudgeConfig | None = None
    target: Target = Field(
        default="span",
        description="`span`: each call is judged on its own. `conversation`: the calls of a "
        "`gen_ai.conversation.id` (else `session.id`) held until it has been idle "
        "LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS, then judged as one conversational test case "
        "(sampled by a hash of the conversation id; a call naming none is skipped "
        "`no_conversation_id`, or `conversation_id_dropped` when its span dropped attributes).",
    )
    daily_usd: float | None = Field(
        default=None,
        ge=0,
        strict=True,
        # The console's form reads `1e400` as an infinity, which was stored and read back as
        # null: no cap at all.
        allow_inf_nan=False,
        description="What its judge calls may cost per UTC day, counted at LOUPE_MODEL_PRICES; "
        "none: no cap. Not enforced for a judge model without a price there (the rule's "
        "`warnings` say so).",
    )
    enabled: bool = Field(default=True, strict=True)
    export_endpoint: str | None = Field(default=None, max_length=2048, description=EXPORT_ENDPOINT)
    # Checked by app/online/export_headers.py (every fault at its header, no value repeated).
    export_headers: dict[str, str] | None = Field(default=None, description=EXPORT_HEADERS)
    alert: AlertSettings | None = Field(default=None, description="None: no alert.")


def _no_default(schema: dict[str, Any]) -> None:
    """A field left out keeps its value: no default to show (and null is not one it takes)."""
    schema.pop("default", None)


# Fields every rule has: null is refused (a 422 naming each); left out, they keep their value.
_KEEP: dict[str, Any] = {"default": None, "json_schema_extra": _no_default}
NOT_NULLABLE = ("name", "filter", "sampling", "metrics", "target", "enabled")


class OnlineRuleUpdate(_ExportEndpoint):
    """The fields to change; those left out keep their values. `null` clears a field a rule
    may go without (`judge`, `daily_usd`, `export_endpoint`, `export_headers`, `alert`); the
    others cannot be null."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=256, **_KEEP)
    filter: list[Condition] = Field(
        max_length=16, description="[]: every GenAI call (null is refused).", **_KEEP
    )
    sampling: Sampling = Field(**_KEEP)
    metrics: list[MetricSpec] = Field(min_length=1, **_KEEP)  # type: ignore[valid-type]
    judge: JudgeConfig | None = Field(
        default=None, description="null: the tenant's or the server's default judge."
    )
    target: Target = Field(**_KEEP)
    daily_usd: float | None = Field(
        default=None, ge=0, strict=True, allow_inf_nan=False, description="null: no cap."
    )
    enabled: bool = Field(strict=True, **_KEEP)
    export_endpoint: str | None = Field(
        default=None,
        max_length=2048,
        description="null: back to the server's endpoint (the `export_headers` go too). "
        "Another endpoint while the rule keeps headers needs `export_headers` given again: "
        "a collector's key is never sent to one it was not given for.",
    )
    export_headers: dict[str, str] | None = Field(
        default=None,
        description="Replace every header (values are never shown, so never merged); null or "
        "{}: none. " + EXPORT_HEADERS,
    )
    alert: AlertSettings | None = Field(
        default=None, description="null: no alert; a changed alert starts with no episode."
    )

    @field_validator(*NOT_NULLABLE, mode="before")
    @classmethod
    def _not_null(cls, value: Any, info: ValidationInfo) -> Any:
        if value is None:
            hint = "; [] takes every GenAI call" if info.field_name == "filter" else ""
            raise PydanticCustomError(
                "null_not_allowed",
                f"{info.field_name} cannot be null: leave it out to keep it{hint}",
            )
        return value


class RuleCounts(BaseModel):
    """What the rule did with the spans it received, since it was created."""

    received: int = Field(
        description="The tenant's GenAI calls received while it was enabled, whatever their "
        "service: every call the rule's filter was applied to, so `received` is the same for "
        "rules enabled alike; the calls that reached the rule are `matched`."
    )
    matched: int = Field(description="Received calls its filter took: the calls it judges from.")
    sampled: int = Field(description="Matched calls its sampling chose.")
    sent: int = Field(
        description="Sampled calls stored as test cases and sent to its judge; for a "
        "conversation rule, conversations (each one test case of all its calls)."
    )
    judged: int = Field(
        description="Results its metrics stored with a score or verdict (a call sent gives one "
        "result per metric of the rule once its judge answered)."
    )
    errored: int = Field(
        description="Results stored with an error instead (the judge failed after its retries, "
        "or its answer could not be read): `sent` times the metrics is `judged` plus `errored` "
        "plus the results still being judged."
    )
    backfilled: int = Field(
        default=0,
        description="Kept calls its backfills took up, each once however often a window is "
        "backfilled, but those it had judged already (counted here, not in `received`; "
        "`matched`, `sampled`, `sent` and `skipped` count them too).",
    )
    skipped: dict[str, int] = Field(
        description="Sampled calls not judged and matched calls not sampled, by reason: "
        "`not_sampled`, `no_content` (capture is off, or the texts hidden), `image_withheld` "
        "(the instrumentation left the image out), `unknown_convention`, `malformed_content`, "
        "`invalid_ids`, `call_failed` (the call ended in an error: no answer), "
        "`over_budget` (the rule's or the tenant's daily budget is spent), `image_refused` "
        "(the operator's image policy refused it), `day_closed`, `duplicate` (a span the rule "
        "already stored, sent again), `missing_fields` (one of its metrics needs a field the "
        "call does not give, e.g. retrieval_context); for a conversation rule also "
        "`no_conversation_id` (the call names no `gen_ai.conversation.id` or `session.id`), "
        "`conversation_id_dropped` (it names none and its span dropped attributes: the SDK's "
        "attribute limit evicted the oldest), "
        "`unfit_for_metric` (no reply to a user message to judge), `rule_disabled` (disabled "
        "while it held the conversation) and `target_changed` (changed to judge single calls "
        "while it held it), counting each of the conversation's calls."
    )
    dropped: dict[str, int] = Field(
        default_factory=dict, description="Images left out of judged turns, by reason."
    )


class OnlineRule(BaseModel):
    object: Literal["online_rule"] = "online_rule"
    id: str
    name: str
    filter: list[Condition]
    sampling: Sampling
    metrics: list[dict[str, Any]]
    judge: JudgeConfig | None
    target: Target
    daily_usd: float | None
    enabled: bool
    export_endpoint: str | None = Field(description=EXPORT_ENDPOINT)
    export_header_names: list[str] = Field(
        description="The names of the `export_headers` sent to `export_endpoint`; their values "
        "are stored encrypted and never returned."
    )
    alert: Alert | None
    counts: RuleCounts
    warnings: list[str] = Field(
        description="What the rule asks that is not done as asked, in words: `daily_usd` is "
        "not enforced while a judge model of its metrics has no price in LOUPE_MODEL_PRICES; "
        "scores are not exported while its `export_headers` cannot be decrypted (the server's "
        "LOUPE_SECRET_KEY changed since they were stored: set them again)."
    )
    created_at: datetime
    updated_at: datetime


OnlineRuleList = ListPage[OnlineRule]


class OnlineResult(EvaluationResult):
    """A result of a judged production call, with where the call was traced."""

    trace_id: str | None = Field(
        description="The judged span's trace id (32 hex digits); a conversation's last call's."
    )
    span_id: str | None = Field(
        description="The judged span's id (16 hex digits); a conversation's last call's."
    )
    day: str | None = Field(description="The UTC day it was judged on (`YYYY-MM-DD`).")
    evaluation_id: str = Field(
        description="The rule's evaluation of that day, readable as any evaluation "
        "(`GET /v1/evaluations/{evaluation_id}`, its `test_cases` and `results`)."
    )
    test_case: TestCase | None = Field(
        default=None,
        description="The judged call as its test case (`test_case_id` is the span id): the "
        "last user message as `input` (images as `GET /v1/media/{sha256}` URLs), the answer "
        "as `actual_output`, the tools it called as `tools_called`, the trace's retrieved "
        "documents as `retrieval_context`; `metadata` names the trace, span, service, model, "
        "convention, `response_id` and `warnings` of content lost on the way.",
    )


OnlineResultList = ListPage[OnlineResult]


class BackfillRequest(BaseModel):
    """Which kept calls a backfill takes up: received from `since` to `until`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    since: str | None = Field(
        default=None,
        max_length=64,
        description="ISO 8601 start (UTC if no offset), at most LOUPE_RETENTION_DAYS or 31 "
        "days back; default 24 hours before `until`.",
    )
    until: str | None = Field(
        default=None, max_length=64, description="ISO 8601 end, excluded; default now."
    )
    after: str | None = Field(
        default=None,
        max_length=32,
        description="A truncated backfill's `next_after`: go on after the calls it considered.",
    )

    @field_validator("since", "until")
    @classmethod
    def _iso(cls, value: str | None) -> str | None:
        # Checked with the schema, so one 422 names it beside any other field at fault.
        if value is not None:
            utc_moment(value)
        return value

    @field_validator("after")
    @classmethod
    def _cursor(cls, value: str | None) -> str | None:
        if value is not None and not value.isdigit():
            raise PydanticCustomError("invalid_cursor", "not a backfill's `next_after`")
        return value


def moment_at(
    path: list[str | int], value: str | None
) -> tuple[datetime | None, FieldError | None]:
    """`value` as a UTC moment, or the error naming `path` (None and None for no value)."""
    if value is None:
        return None, None
    try:
        return utc_moment(value), None
    except PydanticCustomError as error:
        return None, field_error(path, str(error), error.type)


class Backfill(BaseModel):
    """What a backfill did: the kept calls it considered, through the rule's filter and
    sampling; those not already judged by the rule are appended to its day and sent to its
    judge. The rule's `counts` take up each kept call once, however often it is backfilled."""

    object: Literal["online_rule_backfill"] = "online_rule_backfill"
    rule_id: str
    since: datetime
    until: datetime
    considered: int = Field(description="Kept calls received in the window (each span once).")
    matched: int = Field(description="Considered calls the rule's filter takes.")
    sampled: int = Field(description="Matched calls its sampling chooses.")
    already_judged: int = Field(description="Sampled calls the rule has judged already.")
    sent: int = Field(description="Sampled calls appended to the rule's day and sent to its judge.")
    skipped: dict[str, int] = Field(
        description="Considered calls not sent, by reason: `not_sampled`, `over_budget`, "
        "`day_closed`."
    )
    evaluation_id: str | None = Field(
        description="The rule's evaluation of today, which the calls judged were appended to."
    )
    truncated: bool = Field(
        description="More kept calls are in the window than one backfill considers "
        "(LOUPE_BACKFILL_MAX_CALLS, 10,000 by default): send `next_after` as `after` to go on."
    )
    next_after: str | None
