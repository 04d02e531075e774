"""`<image N>` / `<audio N>` placeholders: split text at them and put each row medium in place."""

import re
from typing import Any

from app.datasets._media_refs import audio_source, image_url
from app.datasets._tabular import is_blank, list_cell
from app.datasets._types import RowScope

# `<image 1>` and `<image_1>` alike, as EvalScope matches them; N past 100 has no column.
PLACEHOLDER = re.compile(r"<(image|video|audio)[ _](\d+)>")
MAX_INDEXED = 100


def has_video(text: str) -> bool:
    return any(match.group(1) == "video" for match in PLACEHOLDER.finditer(text))


class RowMedia:
    """The media columns of one row: `image_N` / `audio_N`, or the `images` / `audios` lists.

    A kind falls back to its list column when none of the indexed columns its placeholders
    reference is set. Only referenced media are resolved, each once.
    """

    def __init__(self, fields: dict[str, Any], scope: RowScope, texts: list[str]) -> None:
        self._fields = fields
        self._scope = scope
        referenced: dict[str, set[int]] = {"image": set(), "audio": set()}
        for text in texts:
            for match in PLACEHOLDER.finditer(text):
                if match.group(1) in referenced:
                    referenced[match.group(1)].add(int(match.group(2)))
        self._use_list = {
            kind: bool(numbers) and all(is_blank(self._indexed(kind, n)) for n in numbers)
            for kind, numbers in referenced.items()
        }
        self._lists: dict[str, list[Any]] = {}
        self._parts: dict[tuple[str, int], dict[str, Any] | None] = {}

    def _indexed(self, kind: str, number: int) -> Any:
        return self._fields.get(f"{kind}_{number}") if 1 <= number <= MAX_INDEXED else None

    def _list(self, kind: str) -> list[Any]:
        if kind not in self._lists:
            column = f"{kind}s"
            value = self._fields.get(column)
            if is_blank(value):
                value = []
            elif isinstance(value, str):
                try:
                    value = list_cell(value)
                except ValueError as exc:
                    raise self._scope.error(column, str(exc)) from exc
            if not isinstance(value, list):
                raise self._scope.error(column, f"expected a list, got {type(value).__name__}")
            self._lists[kind] = value
        return self._lists[kind]

    def _source(self, kind: str, number: int) -> tuple[Any, str]:
        """The raw value for a placeholder and the field it comes from."""
        if self._use_list[kind]:
            items = self._list(kind)
            value = items[number - 1] if 1 <= number <= len(items) else None
            return value, f"{kind}s[{number - 1}]"
        return self._indexed(kind, number), f"{kind}_{number}"

    def _missing(self, kind: str, number: int) -> str:
        """Why a placeholder has no medium, naming where it was looked for."""
        column = f"{kind}s"
        if self._use_list[kind] and not is_blank(self._fields.get(column)):
            return (
                f"has no {column}[{number - 1}] value (the {column} list has length "
                f"{len(self._list(kind))}); placeholder dropped"
            )
        if number <= MAX_INDEXED:
            return f"has no {kind}_{number} value; placeholder dropped"
        past = f"is past {kind}_{MAX_INDEXED}, the last {kind} column"
        if self._use_list[kind]:
            return f"{past}, and the row has no {column} list; placeholder dropped"
        return (
            f"{past} (an {column} list is only read when none of the row's {kind}_N "
            "placeholders has a value); placeholder dropped"
        )

    def part(self, kind: str, number: int) -> dict[str, Any] | None:
        """The content part for `<kind number>`, or None (with a warning) when it has no value."""
        key = (kind, number)
        if key not in self._parts:
            value, field = self._source(kind, number)
            if isinstance(value, dict):
                # Hugging Face exports write media as {"path": ...} / {"url": ...} objects.
                value = value.get("url") or value.get("path") or value.get("data") or value
            if is_blank(value):
                self._scope.warn(f"<{kind} {number}> {self._missing(kind, number)}")
                self._parts[key] = None
            elif kind == "image":
                url = image_url(value, self._scope, field)
                self._parts[key] = {"type": "image_url", "image_url": {"url": url}}
            else:
                format_field = f"{kind}_{number}_format"
                declared = None if self._use_list[kind] else self._fields.get(format_field)
                data, audio_format = audio_source(value, declared, self._scope, field, format_field)
                audio = {"data": data, "format": audio_format}
                self._parts[key] = {"type": "input_audio", "input_audio": audio}
        return self._parts[key]

    def split(self, text: str, field: str) -> list[dict[str, Any]]:
        """Text parts and media parts in text order; whitespace-only text between them dropped."""
        parts: list[dict[str, Any]] = []
        last = 0
        for match in PLACEHOLDER.finditer(text):
            _append_text(parts, text[last : match.start()])
            kind, number = match.group(1), int(match.group(2))
            if kind == "video":
                raise self._scope.error(field, f"{match.group(0)}: video is not supported yet")
            media = self.part(kind, number)
            if media is not None:
                parts.append(media)
            last = match.end()
        _append_text(parts, text[last:])
        return parts


def _append_text(parts: list[dict[str, Any]], segment: str) -> None:
    if segment.strip():
        parts.append({"type": "text", "text": segment})
