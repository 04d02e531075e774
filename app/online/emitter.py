"""Scores as OpenTelemetry: one `gen_ai.evaluation.result` log record per result, made by the
OpenTelemetry SDK's logger in the judged span's context and sent by its OTLP/HTTP log exporter.

The records of one batch are collected, not handed to a batching processor, so the exporter's
answer for exactly these records decides whether the export cursor moves (at least once).
"""

import contextvars
import functools
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import requests
from opentelemetry import trace
from opentelemetry._logs import SeverityNumber
from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
from opentelemetry.sdk._logs import (
    Logger,
    LoggerProvider,
    LogRecordProcessor,
    ReadableLogRecord,
    ReadWriteLogRecord,
)
from opentelemetry.sdk._logs.export import LogRecordExportResult
from opentelemetry.sdk.resources import Resource
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags
from opentelemetry.util.re import parse_env_headers

EVENT_NAME = "gen_ai.evaluation.result"
LOGS_PATH = "/v1/logs"
SCOPE = "loupe.online"
# Headers the SDK adds from the environment (the process's own telemetry settings): a rule's
# own endpoint belongs to a tenant and must not receive them.
_ENVIRONMENT_HEADERS = ("OTEL_EXPORTER_OTLP_LOGS_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS")

_batch: contextvars.ContextVar[list[ReadableLogRecord] | None] = contextvars.ContextVar(
    "loupe_evaluation_batch", default=None
)


@dataclass(frozen=True)
class Evaluated:
    """One stored result, as its event says it."""

    result_id: str
    rule_id: str
    metric: str
    score: float | None
    passed: bool | None
    reason: str | None
    error_type: str | None
    error_message: str | None
    trace_id: str | None
    span_id: str | None
    time_unix_nano: int | None

    def attributes(self) -> dict[str, str | float]:
        """The event's attributes (semantic conventions 1.38+), and Loupe's ids, which let a
        receiver drop the copy of an event sent twice (export is at least once)."""
        attributes: dict[str, str | float] = {"gen_ai.evaluation.name": self.metric}
        if self.score is not None:
            attributes["gen_ai.evaluation.score.value"] = float(self.score)
        if self.passed is not None:
            attributes["gen_ai.evaluation.score.label"] = "pass" if self.passed else "fail"
        explanation = self.reason or self.error_message
        if explanation:
            attributes["gen_ai.evaluation.explanation"] = explanation
        if self.error_type:
            attributes["error.type"] = self.error_type
        attributes["loupe.result.id"] = self.result_id
        attributes["loupe.online_rule.id"] = self.rule_id
        return attributes


class _Collector(LogRecordProcessor):
    """Keeps each emitted record in the batch being built on this thread."""

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        batch = _batch.get()
        if batch is not None:
            batch.append(
                ReadableLogRecord(
                    log_record=log_record.log_record,
                    resource=log_record.resource or Resource.create({}),
                    instrumentation_scope=log_record.instrumentation_scope,
                    limits=log_record.limits,
                )
            )

    def shutdown(self) -> None:
        pass

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True


@functools.cache
def _logger() -> Logger:
    # One provider per process: each registers a fork hook, so one per batch would pile up.
    resource = Resource.create({"service.name": "loupe"})
    provider = LoggerProvider(resource=resource, shutdown_on_exit=False)
    provider.add_log_record_processor(_Collector())
    return provider.get_logger(SCOPE)  # type: ignore[return-value]


@contextmanager
def _collecting() -> Iterator[list[ReadableLogRecord]]:
    records: list[ReadableLogRecord] = []
    token = _batch.set(records)
    try:
        yield records
    finally:
        _batch.reset(token)


def records(events: Sequence[Evaluated]) -> list[ReadableLogRecord]:
    """The log records of `events`, each in its judged span's context where it has one."""
    logger = _logger()
    with _collecting() as batch:
        for event in events:
            logger.emit(
                event_name=EVENT_NAME,
                context=_span_context(event.trace_id, event.span_id),
                timestamp=event.time_unix_nano,
                severity_number=SeverityNumber.INFO,
                attributes=event.attributes(),
            )
    return batch


def send(
    base_url: str,
    events: Sequence[Evaluated],
    headers: Mapping[str, str],
    timeout: float,
    own_endpoint: bool,
) -> bool:
    """Export `events` to the OTLP/HTTP collector at `base_url` (`/v1/logs` appended); True
    once it accepted them, False if it refused or could not be reached within `timeout`.

    Args:
        own_endpoint: the endpoint is a rule's (a tenant's): no proxy or netrc credentials of
            Loupe's environment, and none of its OTEL_EXPORTER_OTLP_*HEADERS.
    """
    sent: dict[str, str | None] = dict(headers)
    session = requests.Session()
    if own_endpoint:
        session.trust_env = False
        # requests leaves out a header whose value is None: the SDK merges the environment's in.
        for name in _environment_header_names():
            sent.setdefault(name, None)
    exporter = OTLPLogExporter(
        endpoint=base_url.rstrip("/") + LOGS_PATH,
        headers=sent,  # type: ignore[arg-type]
        timeout=timeout,
        session=session,
    )
    try:
        return exporter.export(records(events)) is LogRecordExportResult.SUCCESS
    finally:
        exporter.shutdown()


def _environment_header_names() -> list[str]:
    names: list[str] = []
    for variable in _ENVIRONMENT_HEADERS:
        names.extend(parse_env_headers(os.environ.get(variable, ""), liberal=True))
    return [name.lower() for name in names]


def _span_context(trace_id: str | None, span_id: str | None) -> object | None:
    """The judged span as the record's parent (a NonRecordingSpan: Loupe did not record it)."""
    try:
        trace_value, span_value = int(trace_id or "", 16), int(span_id or "", 16)
    except ValueError:
        return None
    context = SpanContext(
        trace_id=trace_value,
        span_id=span_value,
        is_remote=True,
        trace_flags=TraceFlags(TraceFlags.SAMPLED),
    )
    if not context.is_valid:
        return None
    return trace.set_span_in_context(NonRecordingSpan(context))
