"""Model output as PostgreSQL can store it."""

from typing import Any

from app.jsonio import NUL_STANDIN, without_nul

__all__ = ["NUL_STANDIN", "row_without_nul", "without_nul"]


def row_without_nul(row: dict[str, Any]) -> dict[str, Any]:
    """A row to insert with U+0000 replaced in its text columns (NUL_STANDIN). Its JSON
    columns need nothing here: the engine's JSON serializer replaces it as it writes them
    (app/jsonio.dumps_stored), where looking for it costs next to nothing."""
    if any(isinstance(value, str) and "\x00" in value for value in row.values()):
        return {
            key: without_nul(value) if isinstance(value, str) else value
            for key, value in row.items()
        }
    return row
