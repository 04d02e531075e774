"""`/docs` (Swagger UI) and `/redoc` from Loupe's own copies of their assets: no CDN, so they
work offline and under a Content-Security-Policy that allows only Loupe's scripts."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.console._render import security_headers, templates

router = APIRouter(include_in_schema=False)

SWAGGER_UI = "5.35.0"
REDOC = "2.5.4"
# Swagger UI and ReDoc set styles from script (ReDoc injects <style> elements): styles may be
# inline here, scripts may not. ReDoc's search runs in a worker made from a blob: URL.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
# Root-relative, as the console's: right behind any proxy, whatever Host and scheme reach Loupe.
VENDOR = "/static/vendor"


def _page(
    request: Request,
    title: str,
    viewer: str,
    scripts: list[str],
    stylesheets: tuple[str, ...] = (),
) -> HTMLResponse:
    # A template, so every value in the page is escaped; none comes from the request.
    return templates.TemplateResponse(
        request,
        "docs.html",
        {
            "title": title,
            "viewer": viewer,
            "spec_url": request.app.openapi_url,
            "stylesheets": stylesheets,
            "scripts": scripts,
        },
        headers=security_headers(DOCS_POLICY),
    )


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI for the OpenAPI document."""
    return _page(
        request,
        "Loupe API - Swagger UI",
        "swagger-ui",
        [f"{VENDOR}/swagger-ui-bundle-{SWAGGER_UI}.js", "/static/docs/swagger-init.js"],
        stylesheets=(f"{VENDOR}/swagger-ui-{SWAGGER_UI}.css",),
    )


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    """ReDoc for the OpenAPI document."""
    return _page(request, "Loupe API - ReDoc", "redoc", [f"{VENDOR}/redoc.standalone-{REDOC}.js"])
