"""create_app(): routers, problem+json handlers, lifespan; warm_up() of a serving process."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import Depends, FastAPI
from fastapi.routing import APIRoute
from starlette.routing import NoMatchFound

from app import kinds
from app import runtime as runtime_module
from app.api import openapi as openapi_document
from app.api.nul import refuse_nul
from app.api.problem_handlers import install_problem_handlers
from app.api.query import reject_unknown_query
from app.audit.endpoints import router as audit_router
from app.candidates.endpoints import router as models_router
from app.comparisons.endpoints import router as comparisons_router
from app.config import Settings, get_settings
from app.console import compile_templates
from app.console import install as install_console
from app.datasets.endpoints import router as datasets_router
from app.files.endpoints import router as files_router
from app.health import router as health_router
from app.labels.endpoints import router as labels_router
from app.limits import BodySizeLimitMiddleware
from app.media.endpoints import router as media_router
from app.metric_versions.endpoints import router as metric_versions_router
from app.review.endpoints import router as review_router
from app.telemetry.endpoints import router as telemetry_router
from app.telemetry.http import RequestTelemetryMiddleware
from app.usage.endpoints import router as usage_router
from app.webhooks.endpoints import router as webhooks_router


def _operation_id(route: APIRoute) -> str:
    # Route function names are the SDK's method names: renaming a path must not rename them.
    return route.name


def create_app(settings: Settings | None = None) -> FastAPI:
    """The Loupe API for `settings` (the environment's by default)."""
    settings = settings or get_settings()
    kinds.install()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        runtime = runtime_module.configure(settings)
        app.state.runtime = runtime
        ticker = None
        if settings.embedded:
            from workers.ticker import Ticker

            # The embedded worker's queue lives in memory: pick up what a restart dropped.
            ticker = Ticker(runtime, resume=True)
            ticker.start()
        try:
            yield
        finally:
            if ticker is not None:
                ticker.stop()
            runtime.close()

    app = FastAPI(
        title="Loupe",
        version="0.1.0",
        summary="Judges multimodal LLM output and stores every score with its reason.",
        lifespan=lifespan,
        generate_unique_id_function=_operation_id,
        # Served from Loupe's own copies of Swagger UI and ReDoc (app/console/docs.py).
        docs_url=None,
        redoc_url=None,
    )
    app.add_middleware(
        BodySizeLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        # Benchmark files are larger than any JSON request.
        path_limits={
            "/v1/datasets": (settings.max_dataset_bytes, "LOUPE_MAX_DATASET_BYTES"),
            # An OTLP export is refused past its limit before it is decompressed too.
            "/v1/traces": (settings.otlp_max_bytes, "LOUPE_OTLP_MAX_BYTES"),
            "/v1/logs": (settings.otlp_max_bytes, "LOUPE_OTLP_MAX_BYTES"),
        },
        otlp_paths=frozenset({"/v1/traces", "/v1/logs"}),
    )
    # Outermost: a refused body (413) is counted and carries its request id too.
    app.add_middleware(RequestTelemetryMiddleware)
    install_problem_handlers(app)
    app.include_router(health_router)
    app.include_router(telemetry_router)
    # Unknown query parameters, and U+0000 in a path, query or form field, are refused.
    strict_query = [Depends(reject_unknown_query), Depends(refuse_nul)]
    for router in (
        *kinds.routers(),
        webhooks_router,
        datasets_router,
        models_router,
        media_router,
        comparisons_router,
        files_router,
        usage_router,
        audit_router,
        labels_router,
        metric_versions_router,
        review_router,
    ):
        app.include_router(router, dependencies=strict_query)
    install_console(app)
    openapi_document.install(app, kinds.openapi())
    return app


def warm_up(app: FastAPI) -> None:
    """What a serving process does before it answers its first request, so that no visitor
    waits for it: every console template compiled (Jinja compiles one on its first use), and
    every route resolved (FastAPI builds an included router's routes, their dependencies and
    response fields, on the first request it routes). Some 0.4 s each here."""
    compile_templates()
    # Looking up a name no route has walks every included router, which resolves them all.
    with suppress(NoMatchFound):
        app.url_path_for("loupe warm-up: no route has this name")
