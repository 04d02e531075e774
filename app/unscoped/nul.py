"""Model output as PostgreSQL can store it."""

from typing import Any

from app import jsonio

# What a model's U+0000 (NUL) is stored as: PostgreSQL's text and jsonb cannot hold it (a job
# storing a judge's reason with one failed, in distributed mode only). Requests are refused
# for it at parsing; model output cannot be, so it is replaced, alike on both databases.
NUL_STANDIN = "\ufffd"


def without_nul(value: Any) -> Any:
    """`value` with U+0000 replaced in every string (keys and nested JSON too)."""
    if isinstance(value, dict) and not _holds_nul(value):
        # Nearly every row: its strings looked at and its JSON values written out (in C),
        # instead of a walk rebuilding every level.
        return value
    if isinstance(value, str):
        return value.replace("\x00", NUL_STANDIN) if "\x00" in value else value
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [without_nul(item) for item in value]
    return value


def _holds_nul(value: dict[str, Any]) -> bool:
    """Whether a U+0000 may be anywhere in `value`: its strings looked at, its JSON values
    written out (JSON escapes it); anything JSON cannot write is walked to be sure."""
    for key, item in value.items():
        if isinstance(key, str) and "\x00" in key:
            return True
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict | list | tuple):
            try:
                if b"\\u0000" in jsonio.dumps(item):
                    return True
            except (TypeError, ValueError):
                return True
    return False
