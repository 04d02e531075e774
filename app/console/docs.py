"""`/docs` (Swagger UI) and `/redoc` from Loupe's own copies of their assets: no CDN, so they
work offline and under a Content-Security-Policy that allows only Loupe's scripts."""

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

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


def _page(title: str, head: str, body: str) -> HTMLResponse:
    html = (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" href="/static/favicon.svg">'
        f"{head}</head><body>{body}</body></html>"
    )
    return HTMLResponse(html, headers={"Content-Security-Policy": DOCS_POLICY})


@router.get("/docs")
def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI for the OpenAPI document."""
    static = request.url_for("static", path="")
    spec = request.url_for("openapi")
    return _page(
        "Loupe API - Swagger UI",
        f'<link rel="stylesheet" href="{static}vendor/swagger-ui-{SWAGGER_UI}.css">',
        f'<div id="swagger-ui" data-spec-url="{spec}"></div>'
        f'<script src="{static}vendor/swagger-ui-bundle-{SWAGGER_UI}.js"></script>'
        f'<script src="{static}docs/swagger-init.js"></script>',
    )


@router.get("/redoc")
def redoc(request: Request) -> HTMLResponse:
    """ReDoc for the OpenAPI document."""
    static = request.url_for("static", path="")
    spec = request.url_for("openapi")
    return _page(
        "Loupe API - ReDoc",
        "",
        f'<redoc spec-url="{spec}"></redoc>'
        f'<script src="{static}vendor/redoc.standalone-{REDOC}.js"></script>',
    )
