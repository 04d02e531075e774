from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class OnlineRule(Base):
    """What production traffic a tenant has judged (app/online): the spans it takes, how many
    of them, with which metrics and judge, and within what daily budget."""

    __tablename__ = "online_rule"
    __table_args__ = (Index("ix_online_rule_tenant_id", "tenant_id"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(256))
    # [{attribute, op, value}], all of which a span must match.
    filter: Mapped[list[dict[str, Any]]] = mapped_column(JSONType, default=list)
    sampling_rate: Mapped[float] = mapped_column(Float)
    # Validated metric specs as JSON, as an evaluation keeps them.
    metrics: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    # The judge as the client chose it (`{model, model_id}`), None: the server's judge.
    judge: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    target: Mapped[str] = mapped_column(String(16), default="span")
    daily_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Where its scores go as OpenTelemetry log records (an OTLP/HTTP base URL); None: the
    # operator's LOUPE_OTLP_EXPORT_ENDPOINT, if any (app/online/export.py).
    export_endpoint: Mapped[str | None] = mapped_column(String(2048), nullable=True)
    # The headers sent with each export to its own endpoint (a hosted collector's key): their
    # names in clear, the {name: value} object as one Fernet token (app/online/export_headers.py);
    # None: none. Gone with the endpoint.
    export_header_names: Mapped[list[str] | None] = mapped_column(JSONType, nullable=True)
    export_headers_encrypted: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    # The last result exported (result ids sort by time); moved only once the collector has
    # accepted everything up to it, so a collector that is away delays events, never drops them.
    export_cursor: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # When an export job may next take the rule: a lease while one runs, a backoff after a
    # failed one (`export_failures` in a row); None: whenever it has new results.
    export_due_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    export_failures: Mapped[int] = mapped_column(Integer, default=0)
    # `{metric, threshold, window_hours, webhook_url}`: an `online_rule.alert` webhook when the
    # metric's pass rate over the window is below the threshold with confidence (app/online/
    # alerts.py); None: no alert.
    alert: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # When the alert's current episode began; None: none is open. Set and cleared by
    # conditional updates, so each episode's start and end are sent once by whichever ticker.
    alert_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class OnlineRuleCount(Base):
    """How many spans a rule received, matched, sampled, sent to its judge or skipped (by
    reason) on one UTC day, added to per request, never per span; and how many of its results
    were stored judged or errored that day, added to by the job storing them."""

    __tablename__ = "online_rule_count"

    rule_id: Mapped[str] = mapped_column(
        ForeignKey("online_rule.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    # `received`, `matched`, `sampled`, `sent`, `judged`, `errored`, `backfilled`, or
    # `skipped:<reason>`.
    counter: Mapped[str] = mapped_column(String(64), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class OnlineRuleBackfilled(Base):
    """A kept call's span a rule's backfill took up and counted (`backfilled`), so a later
    backfill over the same window counts it no more (app/online/backfill.py); gone with the
    rule."""

    __tablename__ = "online_rule_backfilled"

    rule_id: Mapped[str] = mapped_column(
        ForeignKey("online_rule.id", ondelete="CASCADE"), primary_key=True
    )
    trace_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    span_id: Mapped[str] = mapped_column(String(16), primary_key=True)


class OnlineRuleSpan(Base):
    """A span a rule stored as a test case, once: an exporter's or collector's retry of the
    same span (even past midnight UTC) is counted `skipped:duplicate`, not judged again
    (app/online/ingest.py); gone with the rule."""

    __tablename__ = "online_rule_span"

    rule_id: Mapped[str] = mapped_column(
        ForeignKey("online_rule.id", ondelete="CASCADE"), primary_key=True
    )
    trace_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    span_id: Mapped[str] = mapped_column(String(16), primary_key=True)


class OnlineRuleDay(Base):
    """The evaluation holding a rule's judged calls of one UTC day (kind `online`) under one
    configuration: a change of its metrics, judge or target opens another (app/online/days.py),
    so every call is judged as the rule stood when it was taken."""

    __tablename__ = "online_rule_day"

    rule_id: Mapped[str] = mapped_column(
        ForeignKey("online_rule.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    # A digest of the rule's metrics, judge and target; "" for the days opened before it was
    # kept (migration `rule_day_config`).
    config: Mapped[str] = mapped_column(String(16), primary_key=True, server_default="")
    evaluation_id: Mapped[str] = mapped_column(
        ForeignKey("evaluation.id", ondelete="CASCADE"), unique=True
    )


class OnlineRollup(Base):
    """One metric's results of a rule in one UTC hour: counts and sums, added to in the
    transaction that stores the results they count, so a trend reads a row per metric and hour
    however many calls were judged (app/online/trend.py)."""

    __tablename__ = "online_rollup"

    rule_id: Mapped[str] = mapped_column(
        ForeignKey("online_rule.id", ondelete="CASCADE"), primary_key=True
    )
    # The metric's display name, as results carry it.
    metric: Mapped[str] = mapped_column(String(256), primary_key=True)
    # The UTC hour the results were stored in (minutes and seconds zero).
    bucket_start: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    # Results stored; `scored` of them have a score (its sums below), `errored` an error.
    count: Mapped[int] = mapped_column(Integer, default=0)
    scored: Mapped[int] = mapped_column(Integer, default=0)
    passed: Mapped[int] = mapped_column(Integer, default=0)
    failed: Mapped[int] = mapped_column(Integer, default=0)
    errored: Mapped[int] = mapped_column(Integer, default=0)
    score_sum: Mapped[float] = mapped_column(Float, default=0.0)
    # With score_sum and scored, the variance: the mean's interval without reading results.
    score_sq_sum: Mapped[float] = mapped_column(Float, default=0.0)


class OnlineCall(Base):
    """A call some rule of the tenant stored (a test case of a rule's day), with the span's and
    its resource's scalar attributes, so a rule made later can filter the kept calls as it
    would have filtered them when they came (a backfill, app/online/backfill.py). Message
    content stays in the test case only; long values are cut and the attributes bounded."""

    __tablename__ = "online_call"
    __table_args__ = (
        Index("ix_online_call_tenant_id_received_at", "tenant_id", "received_at"),
        Index("ix_online_call_evaluation_id", "evaluation_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    # The rule's day holding it, and its test case's index there; gone with the day.
    evaluation_id: Mapped[str] = mapped_column(ForeignKey("evaluation.id", ondelete="CASCADE"))
    test_case_index: Mapped[int] = mapped_column(Integer)
    trace_id: Mapped[str] = mapped_column(String(32))
    span_id: Mapped[str] = mapped_column(String(16))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # {name: str | int | float | bool}, as app/online/calls.py bounds them.
    attributes: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    resource: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
