"""The OTLP/HTTP receiver: `POST /v1/traces` and `POST /v1/logs`, as OpenTelemetry exporters
send them (`OTEL_EXPORTER_OTLP_ENDPOINT` set to Loupe's URL, the API key in
`OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer <key>`).

Answers as the OTLP specification says: 200 with an export response in the request's encoding
(`partial_success` counting the spans rejected for their ids, and saying why), 400 for a body
that does not decode, 413 past the size limit, 415 for a Content-Type or Content-Encoding it
does not read, 503 with `Retry-After` when the database is away (exporters retry that), in
the request's encoding too (a `google.rpc.Status`, `app.problems`' `otlp` dialect).
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.routing import APIRoute
from google.protobuf import json_format
from opentelemetry.proto.collector.logs.v1.logs_service_pb2 import ExportLogsServiceResponse
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceResponse
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from app import otlp
from app.api.deps import RuntimeDep, TenantDep, check_before_body
from app.media.own import OwnMedia
from app.models import Tenant
from app.online import ingest
from app.problems import ProblemError, problem_responses
from app.runtime import Runtime

# Seconds an exporter is asked to wait when Loupe's database is away (well under the Python
# exporter's 10 s deadline, past which it gives up instead of waiting).
RETRY_AFTER_SECONDS = 2
# And when this process is reading as many exports as it may at once.
BUSY_RETRY_AFTER_SECONDS = 1


class OTLPRoute(APIRoute):
    """A route of the OTLP receiver: errors as a `google.rpc.Status` in the request's encoding."""

    error_dialect = "otlp"


router = APIRouter(
    tags=["otlp"], route_class=OTLPRoute, responses=problem_responses(400, 401, 413, 415, 429, 503)
)


@dataclass
class Export:
    """An export request as read off the wire: its media type, its Content-Encoding ("" for
    none) and its body as sent, still compressed."""

    kind: str
    encoding: str
    body: bytearray


async def _read(request: Request) -> Export:
    """The export as sent, its body still compressed; the key checked first (in a session
    closed before the body is read), so a caller without one has nothing held for it, and the
    headers before the body. Decompressed only once the export has its place (`_turn`): one
    refused for want of a place never grew to its decompressed size."""
    await check_before_body(request)
    try:
        kind = otlp.media_type(request.headers.get("content-type"))
        encoding = otlp.content_encoding(request.headers.get("content-encoding"))
    except (otlp.UnsupportedContentType, otlp.UnsupportedContentEncoding) as error:
        header = (
            "Content-Type" if isinstance(error, otlp.UnsupportedContentType) else "Content-Encoding"
        )
        raise ProblemError(
            415,
            "Unsupported Media Type",
            str(error),
            slug="unsupported-media-type",
            field=["header", header],
        ) from None
    # Under LOUPE_OTLP_MAX_BYTES as sent: app.limits refuses a longer one as it arrives.
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
    return Export(kind, encoding, body)


def _too_large(detail: str) -> ProblemError:
    return ProblemError(413, "Content Too Large", detail, slug="too-large")


# The export's body, read before the route's session is opened for `TenantDep`: that session's
# pooled connection stayed checked out while the body trickled in, and a few exports sent
# slowly left every other request waiting for one.
ExportBody = Annotated[Export, Depends(_read)]


@router.post(
    "/v1/traces",
    summary="Receive OpenTelemetry spans (OTLP/HTTP)",
    response_class=Response,
    responses={200: {"content": {otlp.PROTOBUF: {}, otlp.JSON: {}}}},
)
async def export_traces(
    request: Request, export: ExportBody, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """An `ExportTraceServiceRequest`, protobuf or OTLP/JSON, optionally gzip or deflate: its
    GenAI calls go through the tenant's online rules (counted, filtered, sampled, judged)."""
    with _turn(request, runtime):
        # Decompressing and decoding a large body takes a while: off the event loop, as the
        # database work is.
        rejected = await run_in_threadpool(
            _decode_and_take, runtime, tenant.id, export, str(request.base_url)
        )
    response = ExportTraceServiceResponse()
    if rejected:
        response.partial_success.rejected_spans = len(rejected)
        response.partial_success.error_message = _rejections(rejected)
    return _answer(export.kind, response)


@router.post(
    "/v1/logs",
    summary="Receive OpenTelemetry log records (OTLP/HTTP)",
    response_class=Response,
    responses={200: {"content": {otlp.PROTOBUF: {}, otlp.JSON: {}}}},
)
async def export_logs(
    request: Request, export: ExportBody, tenant: TenantDep, runtime: RuntimeDep
) -> Response:
    """An `ExportLogsServiceRequest`: the records carrying a call's messages (the official
    instrumentation's details event, the earlier per-message events) are joined to their span,
    whichever of the two arrives first."""
    with _turn(request, runtime):
        await run_in_threadpool(
            _decode_and_take_records, runtime, tenant.id, export, str(request.base_url)
        )
    return _answer(export.kind, ExportLogsServiceResponse())


@contextmanager
def _turn(request: Request, runtime: Runtime) -> Iterator[None]:
    """A place among the exports this process decompresses, decodes and takes in at once
    (LOUPE_OTLP_MAX_CONCURRENT); none free: 429 with Retry-After, which exporters honour.
    Taken once the body is read (a slow sender holds no place while it sends) and before it
    is decompressed (a refused export never grows to its decompressed size). Counted on the
    app's state: requests take and give places on its one event loop, between awaits."""
    state = request.app.state
    if getattr(state, "otlp_in_flight", 0) >= runtime.settings.otlp_max_concurrent:
        raise ProblemError(
            429,
            "Too Many Requests",
            f"{runtime.settings.otlp_max_concurrent} exports are being read already "
            "(LOUPE_OTLP_MAX_CONCURRENT); send this one again shortly",
            slug="busy",
            headers={"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)},
        )
    state.otlp_in_flight = getattr(state, "otlp_in_flight", 0) + 1
    try:
        yield
    finally:
        state.otlp_in_flight -= 1


def _decode_and_take(runtime: Runtime, tenant_id: str, export: Export, base_url: str) -> list[str]:
    """Take the spans with valid ids; why each other one was rejected.

    Args:
        base_url: the request's base URL, on which a call's images naming this server's media
            are read from its store (app.media.own), as a submission's are.
    """
    limit = runtime.settings.otlp_max_bytes
    body = _decompressed(export, limit)
    try:
        traces = otlp.read_traces(body, export.kind, max_body=limit)
    except otlp.OtlpDecodeError as error:
        raise _bad(error) from None
    body.clear()  # held no longer than its decoding: a body near the limit is not kept twice
    _take(runtime, tenant_id, traces.spans, base_url)
    return traces.rejected


def _decompressed(export: Export, limit: int) -> bytearray:
    """The export's body decompressed under the limit, the compressed one let go."""
    if not export.encoding or export.encoding == "identity":
        return export.body
    try:
        body = otlp.decompress(export.body, export.encoding, limit)
    except otlp.BodyTooLarge as error:
        raise _too_large(str(error)) from None
    except otlp.OtlpDecodeError as error:
        raise _bad(error) from None
    finally:
        export.body.clear()
    return bytearray(body) if isinstance(body, bytes) else body


def _rejections(rejected: list[str]) -> str:
    """The export answer's error_message: how many spans were rejected, the first few whys."""
    shown = "; ".join(rejected[:3])
    more = f"; and {len(rejected) - 3} more" if len(rejected) > 3 else ""
    return (
        f"{len(rejected)} span(s) rejected for invalid trace or span ids "
        f"(16 and 8 bytes, not all zeros): {shown}{more}"
    )


def _decode_and_take_records(
    runtime: Runtime, tenant_id: str, export: Export, base_url: str
) -> None:
    limit = runtime.settings.otlp_max_bytes
    body = _decompressed(export, limit)
    try:
        records = otlp.decode_logs(body, export.kind, max_body=limit)
    except otlp.OtlpDecodeError as error:
        raise _bad(error) from None
    body.clear()
    _take_records(runtime, tenant_id, records, base_url)


def _bad(error: Exception) -> ProblemError:
    return ProblemError(
        400,
        "Bad Request",
        f"the body does not decode: {error}",
        slug="otlp-decode",
        field=["body"],
    )


def _take(runtime: Runtime, tenant_id: str, spans: list[otlp.Span], base_url: str) -> None:
    """Run the spans through the tenant's rules and commit."""
    _ingest(
        runtime,
        tenant_id,
        lambda session, tenant: ingest.take_spans(
            session, runtime, tenant, spans, OwnMedia(base_url, session, tenant.id)
        ),
    )


def _take_records(
    runtime: Runtime, tenant_id: str, records: list[otlp.LogRecord], base_url: str
) -> None:
    _ingest(
        runtime,
        tenant_id,
        lambda session, tenant: ingest.take_records(
            session, runtime, tenant, records, OwnMedia(base_url, session, tenant.id)
        ),
    )


def _ingest(runtime: Runtime, tenant_id: str, work: Callable[[Session, Tenant], object]) -> None:
    """Run `work` in a transaction of its own and commit it; 503 when the database is away."""
    # Two requests making a rule's first evaluation of the day at once: the second one's
    # insert conflicts, and it runs again on the row the first one made.
    for attempt in (1, 2):
        try:
            with runtime.session() as session:
                tenant = session.get(Tenant, tenant_id)
                if tenant is not None:
                    work(session, tenant)
                    session.commit()
            return
        except IntegrityError:
            if attempt == 2:
                raise
        except OperationalError:
            raise ProblemError(
                503,
                "Service Unavailable",
                "the database is away; send the batch again",
                slug="unavailable",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            ) from None


def _answer(kind: str, message: object) -> Response:
    if kind == otlp.PROTOBUF:
        return Response(message.SerializeToString(), media_type=otlp.PROTOBUF)  # type: ignore[attr-defined]
    return Response(json_format.MessageToJson(message, indent=None), media_type=otlp.JSON)  # type: ignore[arg-type]
