"""The web console and the API's documentation pages, served by the API's own app."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.console.docs import router as docs_router

STATIC = Path(__file__).parent / "static"


def install(app: FastAPI) -> None:
    """Mount the static files and add the documentation pages."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(docs_router)
