"""Scores as OpenTelemetry: one `gen_ai.evaluation.result` log record per result, made by the
OpenTelemetry SDK's logger in the judged span's context and sent by its OTLP/HTTP log exporter.

The records of one batch are collected, not handed to a batching processor, so the exporter's
answer for exactly these records decides whether the export cursor moves (at least once).

A rule's own endpoint (a tenant's URL) is sent through a pinned session: it connects to the
address the webhook policy checked, never looking the name up again (DNS rebinding), keeps the
name for the Host header, TLS SNI and the certificate check, and follows no redirect.
"""

import contextvars
import functools
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

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
from requests.adapters import HTTPAdapter
from urllib3.util import parse_url

from app.media.netguard import IPAddress, parse_ip_host

EVENT_NAME = "gen_ai.evaluation.result"
LOGS_PATH = "/v1/logs"
SCOPE = "loupe.online"
# Headers the SDK adds from the environment (the process's own telemetry settings): a rule's
# own endpoint belongs to a tenant and must not receive them.
_ENVIRONMENT_HEADERS = ("OTEL_EXPORTER_OTLP_LOGS_HEADERS", "OTEL_EXPORTER_OTLP_HEADERS")

# The records being built on this thread, and the resource they go out with.
_batch: contextvars.ContextVar[tuple[list[ReadableLogRecord], Resource] | None] = (
    contextvars.ContextVar("loupe_evaluation_batch", default=None)
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
    # The judged call's response (gen_ai.response.id), when its span said it.
    response_id: str | None = None

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
        if self.response_id:
            attributes["gen_ai.response.id"] = self.response_id
        attributes["loupe.result.id"] = self.result_id
        attributes["loupe.online_rule.id"] = self.rule_id
        return attributes


class _Collector(LogRecordProcessor):
    """Keeps each emitted record in the batch being built on this thread."""

    def on_emit(self, log_record: ReadWriteLogRecord) -> None:
        batch = _batch.get()
        if batch is not None:
            kept, resource = batch
            kept.append(
                ReadableLogRecord(
                    log_record=log_record.log_record,
                    resource=resource,
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
    # Its resource is not sent: each batch goes out with the one its collector gets.
    provider = LoggerProvider(resource=Resource({}), shutdown_on_exit=False)
    provider.add_log_record_processor(_Collector())
    return provider.get_logger(SCOPE)  # type: ignore[return-value]


def resource_for(tenants: bool) -> Resource:
    """Loupe as the records' resource. The operator's collector gets it as the process's own
    telemetry describes it (OTEL_RESOURCE_ATTRIBUTES: its deployment, hosts, cluster); a
    tenant's collector (a rule's own endpoint) gets Loupe's name alone."""
    if tenants:
        return Resource({"service.name": "loupe"})
    return Resource.create({"service.name": "loupe"})


@contextmanager
def _collecting(resource: Resource) -> Iterator[list[ReadableLogRecord]]:
    records: list[ReadableLogRecord] = []
    token = _batch.set((records, resource))
    try:
        yield records
    finally:
        _batch.reset(token)


def records(events: Sequence[Evaluated], resource: Resource) -> list[ReadableLogRecord]:
    """The log records of `events`, each in its judged span's context where it has one."""
    logger = _logger()
    with _collecting(resource) as batch:
        for event in events:
            logger.emit(
                event_name=EVENT_NAME,
                context=_span_context(event.trace_id, event.span_id),
                timestamp=event.time_unix_nano,
                severity_number=SeverityNumber.INFO,
                attributes=event.attributes(),
            )
    return batch


class NotSent(requests.RequestException):
    """A pinned session refused a request: another origin than the checked one, or a redirect."""


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(url: str) -> tuple[str, str, int]:
    parsed = parse_url(url)
    scheme = (parsed.scheme or "").lower()
    host = (parsed.host or "").lower().strip("[]")
    return scheme, host, parsed.port or _DEFAULT_PORTS.get(scheme, 0)


class PinnedAdapter(HTTPAdapter):
    """Sends requests for one origin (scheme, host, port) to one address, checked beforehand,
    and refuses every other origin and every 3xx answer (a redirect is neither followed nor
    taken for success: the exporter counts any answer under 400 as accepted).

    The request keeps the host name: in the Host header and, over https, as the TLS server
    name and the name the certificate must be valid for (`server_hostname`, `assert_hostname`).
    """

    def __init__(self, url: str, address: IPAddress) -> None:
        super().__init__(max_retries=0)
        self.origin = _origin(requests.Request("POST", url).prepare().url or "")
        self.address = address

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        scheme, host, _ = self.origin
        host_params["host"] = str(self.address)
        if scheme == "https":
            # A host spelled as an address is verified as the address it spells.
            name = host if parse_ip_host(host) is None else str(self.address)
            pool_kwargs["server_hostname"] = name
            pool_kwargs["assert_hostname"] = name
        return host_params, pool_kwargs

    def send(
        self, request: requests.PreparedRequest, *args: Any, **kwargs: Any
    ) -> requests.Response:
        if _origin(request.url or "") != self.origin:
            raise NotSent(f"{self.origin[1]}: only the checked origin is sent to", request=request)
        if "Host" not in request.headers:
            # urllib3 would name the connection's host, the address.
            netloc = parse_url(request.url or "").netloc or ""
            request.headers["Host"] = netloc.rsplit("@", 1)[-1]
        response = super().send(request, *args, **kwargs)
        if 300 <= response.status_code < 400:
            response.close()
            raise NotSent(
                f"{self.origin[1]} answered {response.status_code}: redirects are not followed",
                request=request,
                response=response,
            )
        return response


def pinned_session(url: str, address: IPAddress) -> requests.Session:
    """A session that sends requests for `url`'s origin to `address` (the address the policy
    checked) and nothing else, ignoring the environment's proxies and netrc."""
    session = requests.Session()
    session.trust_env = False
    session.max_redirects = 0
    adapter = PinnedAdapter(url, address)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def send(
    base_url: str,
    events: Sequence[Evaluated],
    headers: Mapping[str, str],
    timeout: float,
    pinned_to: IPAddress | None = None,
) -> bool:
    """Export `events` to the OTLP/HTTP collector at `base_url` (`/v1/logs` appended); True
    once it accepted them, False if it refused or could not be reached within `timeout`.

    Args:
        pinned_to: a rule's own endpoint (a tenant's), as the address its host was checked
            as: connected to at that address only, no redirect followed, no proxy or netrc
            credentials of Loupe's environment, and none of its OTEL_EXPORTER_OTLP_*HEADERS
            or client certificate.
            None: the operator's endpoint, sent to as the operator configured it.
    """
    endpoint = base_url.rstrip("/") + LOGS_PATH
    sent: dict[str, str | None] = dict(headers)
    if pinned_to is not None:
        session = pinned_session(endpoint, pinned_to)
        # requests leaves out a header whose value is None: the SDK merges the environment's in.
        # The SDK lower-cases names, the later winning: a None for a name the rule gives in
        # another case would drop the rule's value.
        given = {name.lower() for name in headers}
        for name in _environment_header_names():
            if name not in given:
                sent.setdefault(name, None)
    else:
        session = requests.Session()
    exporter = OTLPLogExporter(
        endpoint=endpoint,
        headers=sent,  # type: ignore[arg-type]
        timeout=timeout,
        session=session,
    )
    if pinned_to is not None:
        # The SDK gave the session the process's OTEL_EXPORTER_OTLP_*CLIENT_CERTIFICATE:
        # Loupe's identity for its own collector is not presented to a tenant's.
        session.cert = None
    try:
        batch = records(events, resource_for(tenants=pinned_to is not None))
        return exporter.export(batch) is LogRecordExportResult.SUCCESS
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
