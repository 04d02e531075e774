"""The web console and the API's documentation pages, served by the API's own app."""

import logging
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlalchemy.exc
from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.api.nul import refuse_nul
from app.console import auth, views
from app.console._render import compile_templates, page, see_other
from app.console.alignment_pages import router as alignment_pages_router
from app.console.audit_pages import router as audit_pages_router
from app.console.compare_pages import router as compare_pages_router
from app.console.docs import router as docs_router
from app.console.keys_pages import router as keys_pages_router
from app.console.metric_version_pages import router as metric_version_pages_router
from app.console.oidc_pages import router as oidc_pages_router
from app.console.online_admin_pages import router as online_admin_pages_router
from app.console.online_pages import router as online_pages_router
from app.console.operator_pages import router as operator_pages_router
from app.console.pages import router as pages_router
from app.console.rerun_pages import router as rerun_pages_router
from app.console.review_pages import router as review_pages_router
from app.console.run_pages import router as run_pages_router
from app.console.sign_in_pages import root_router
from app.console.sign_in_pages import router as sign_in_pages_router
from app.console.webhook_pages import router as webhook_pages_router
from app.db_outage import database_away, unreachable
from app.problems import ProblemError

logger = logging.getLogger("loupe")
STATIC = Path(__file__).parent / "static"
PREFIX = "/console"

__all__ = ["PREFIX", "compile_templates", "install"]


def install(app: FastAPI) -> None:
    """Mount the static files, add the console and documentation pages, and answer errors on
    console paths with HTML pages instead of problem+json."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(docs_router)
    app.include_router(root_router)
    # U+0000 in an id, a filter or a form field: a 400/422 page, not PostgreSQL's 500.
    refuse = [Depends(refuse_nul)]
    app.include_router(sign_in_pages_router, dependencies=refuse)
    app.include_router(pages_router, dependencies=refuse)
    app.include_router(run_pages_router, dependencies=refuse)
    app.include_router(audit_pages_router, dependencies=refuse)
    app.include_router(online_pages_router, dependencies=refuse)
    app.include_router(online_admin_pages_router, dependencies=refuse)
    app.include_router(compare_pages_router, dependencies=refuse)
    app.include_router(rerun_pages_router, dependencies=refuse)
    app.include_router(oidc_pages_router, dependencies=refuse)
    app.include_router(keys_pages_router, dependencies=refuse)
    app.include_router(operator_pages_router, dependencies=refuse)
    app.include_router(review_pages_router, dependencies=refuse)
    app.include_router(metric_version_pages_router, dependencies=refuse)
    app.include_router(alignment_pages_router, dependencies=refuse)
    app.include_router(webhook_pages_router, dependencies=refuse)

    async def sign_in_required(request: Request, exc: Exception) -> Response:
        if request.headers.get("hx-request"):
            # A live fragment whose session ended: the whole page goes to the sign-in form.
            page_url = request.headers.get("hx-current-url", "")
            path = "/" + page_url.split("/", 3)[3] if page_url.count("/") >= 3 else PREFIX
            return Response(headers={"HX-Redirect": f"{PREFIX}/sign-in?next={quote(path)}"})
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return see_other(f"{PREFIX}/sign-in?next={quote(target)}")

    app.add_exception_handler(auth.SignInRequired, sign_in_required)

    async def go_elsewhere(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, auth.GoElsewhere)
        return see_other(exc.target)

    app.add_exception_handler(auth.GoElsewhere, go_elsewhere)
    # Exception: anything unhandled, answered by Starlette's outermost middleware (a 500).
    for error_type in (
        ProblemError,
        StarletteHTTPException,
        RequestValidationError,
        sqlalchemy.exc.SQLAlchemyError,
        Exception,
    ):
        api_handler = app.exception_handlers[error_type]
        app.add_exception_handler(error_type, _on_console_paths(api_handler))


def _on_console_paths(api_handler: Any) -> Any:
    async def handler(request: Request, exc: Exception) -> Response:
        if request.url.path != PREFIX and not request.url.path.startswith(PREFIX + "/"):
            return await api_handler(request, exc)
        if isinstance(exc, ProblemError):
            status, message = exc.status, exc.detail or exc.title
        elif isinstance(exc, StarletteHTTPException):
            status = exc.status_code
            message = exc.detail if isinstance(exc.detail, str) else "Error"
        elif isinstance(exc, RequestValidationError):
            status, message = 400, views.invalid_request(exc.errors())
        elif isinstance(exc, sqlalchemy.exc.SQLAlchemyError) and unreachable(exc):
            database_away("request", exc)
            status, message = 503, "The database is unavailable; try again shortly."
        else:
            logger.exception("unhandled error on %s %s", request.method, request.url.path)
            status, message = 500, "Something went wrong on Loupe's side; it has been logged."
        if status == 404:
            # The same page whether the object is missing or another tenant's.
            message = "There is nothing here, or it belongs to another account."
        return page(request, "error.html", None, status_code=status, status=status, message=message)

    return handler
