"""GET /metrics: the API process's Prometheus metrics and the queue's backlog."""

from typing import Annotated

from fastapi import APIRouter, Header, Response
from prometheus_client import CONTENT_TYPE_LATEST

from app.api.deps import RuntimeDep
from app.problems import ProblemError
from app.telemetry.exposition import CHALLENGE, QueueCollector, render, scrape_refusal

router = APIRouter(tags=["telemetry"])


@router.get("/metrics", include_in_schema=False)
def metrics(runtime: RuntimeDep, authorization: Annotated[str | None, Header()] = None) -> Response:
    """Prometheus text exposition. No tenant's hosts or model names (their endpoints count as
    `tenant`); with LOUPE_METRICS_TOKEN set, only for a scraper sending it."""
    refusal = scrape_refusal(runtime.settings.metrics_token, authorization)
    if refusal is not None:
        raise ProblemError(
            401,
            "Unauthorized",
            refusal,
            slug="unauthorized",
            headers={"WWW-Authenticate": CHALLENGE},
            field=["header", "Authorization"],
        )
    queue = QueueCollector(runtime.settings.queue_name, runtime.dispatcher.backlog)
    return Response(render(queue), media_type=CONTENT_TYPE_LATEST)
