"""Extra embedded-mode apps with their own media settings, for module-scoped fixtures."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from app import migrate
from app import runtime as runtime_module
from tests.fixtures.api import Api, ServedApp, sqlite_settings


@contextmanager
def served_app(directory: Path, **overrides: Any) -> Iterator[Api]:
    """An embedded app (SQLite in `directory`) with `overrides` on the test settings."""
    settings = sqlite_settings(directory, **overrides)
    migrate.upgrade(settings)
    # Serving makes this app's runtime the process's current one, which embedded and RQ jobs
    # use; put the previous one back afterwards unless another app has taken over since.
    previous = runtime_module._current
    with ServedApp(settings) as served:
        own = runtime_module._current
        try:
            yield Api(mode="embedded", served=served)
        finally:
            if runtime_module._current is own:
                runtime_module._current = previous
