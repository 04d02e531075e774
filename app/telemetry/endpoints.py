"""GET /metrics: the API process's Prometheus metrics and the queue's backlog."""

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST

from app.api.deps import RuntimeDep
from app.telemetry.exposition import QueueCollector, render

router = APIRouter(tags=["telemetry"])


@router.get("/metrics", include_in_schema=False)
def metrics(runtime: RuntimeDep) -> Response:
    """Prometheus text exposition; no tenant data, so it needs no key (keep it off the internet)."""
    queue = QueueCollector(runtime.settings.queue_name, runtime.dispatcher.backlog)
    return Response(render(queue), media_type=CONTENT_TYPE_LATEST)
