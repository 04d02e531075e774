"""Messages and their parts, read from the semantic conventions' parts or OpenAI's content."""

import base64
import json
from dataclasses import dataclass, field
from typing import Any, Literal

from app.otlp._limits import DEFAULT_LIMITS, Limits

# What OpenInference writes in place of an image over its length limit or hidden by settings.
REDACTED = "__REDACTED__"


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Image:
    """An image as it arrived: base64 bytes with a mime type, a data URL, or a URI to fetch."""

    source: Literal["blob", "data_url", "uri"]
    content: str
    mime_type: str | None = None

    @property
    def url(self) -> str:
        """The image as an OpenAI image_url: a data URL for a blob, else as it came."""
        if self.source == "blob":
            return f"data:{self.mime_type or 'application/octet-stream'};base64,{self.content}"
        return self.content


@dataclass(frozen=True)
class ToolCall:
    name: str
    id: str | None = None
    arguments: Any = None


@dataclass(frozen=True)
class ToolResult:
    response: Any
    id: str | None = None


Part = Text | Image | ToolCall | ToolResult


@dataclass(frozen=True)
class Message:
    role: str
    parts: tuple[Part, ...]
    finish_reason: str | None = None

    @property
    def text(self) -> str:
        """The message's text parts joined by newlines."""
        return "\n".join(part.text for part in self.parts if isinstance(part, Text))


@dataclass
class Notes:
    """What a reader noticed while reading one call: withheld images, cut lists, bad JSON."""

    images_withheld: int = 0
    # Texts the instrumentation replaced with its placeholder (OpenInference's
    # OPENINFERENCE_HIDE_INPUT_TEXT / _OUTPUT_TEXT): judging the placeholder would score nothing.
    texts_withheld: int = 0
    # Messages whose content the instrumentation dropped whole (official openai-v2: list content).
    emptied_messages: int = 0
    truncated: bool = False
    malformed: list[str] = field(default_factory=list)


def decode_json(text: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Any, bool]:
    """`text` decoded as JSON, with arrays and objects nested deeper than `limits.max_depth`
    cut to None (as `plain_value` cuts an AnyValue), and whether any was; raises ValueError for
    text that is not JSON, nests past what Python's parser reads, or holds an integer of more
    digits than Python converts (4,300)."""
    try:
        value = json.loads(text)
    except RecursionError as exc:
        raise ValueError("nested deeper than Python's JSON parser reads") from exc
    if not isinstance(value, dict | list):
        return value, False
    # Kept whole, a call's tool arguments nested 900 deep were stored with its conversation
    # and every read of the test case failed (pydantic writes at most 255 levels).
    root: list[Any] = [value]
    cut = False
    pending: list[tuple[Any, Any, int]] = [(root, 0, 0)]
    while pending:
        parent, slot, depth = pending.pop()
        node = parent[slot]
        if not isinstance(node, dict | list):
            continue
        if depth >= limits.max_depth:
            parent[slot], cut = None, True
            continue
        keys = node.keys() if isinstance(node, dict) else range(len(node))
        pending.extend((node, key, depth + 1) for key in keys)
    return root[0], cut


def parse_json(value: Any, what: str, notes: Notes, limits: Limits) -> Any:
    """A JSON string attribute decoded (a structured value passes as is); None if it is bad."""
    if not isinstance(value, str):
        return value
    if len(value) > limits.max_json_chars:
        notes.malformed.append(f"{what} is longer than {limits.max_json_chars} characters")
        return None
    try:
        decoded, cut = decode_json(value, limits)
    except ValueError:
        # ValueError, not only JSONDecodeError: an integer of 5,000 digits failed the whole
        # export with a 500.
        notes.malformed.append(f"{what} is not JSON")
        return None
    notes.truncated = notes.truncated or cut
    return decoded


def latest(items: list[Any], limit: int, notes: Notes) -> list[Any]:
    """The last `limit` items (noting the cut): a conversation's end is what gets judged."""
    if len(items) > limit:
        notes.truncated = True
        return items[-limit:]
    return items


def text_part(value: Any, notes: Notes) -> Text | None:
    """A text as a Text part; None when it is not a string or is the instrumentation's
    placeholder for a hidden text (counted withheld)."""
    if value == REDACTED:
        notes.texts_withheld += 1
        return None
    return Text(value) if isinstance(value, str) else None


def image_from_url(url: Any, notes: Notes) -> Image | None:
    """A data URL or URI as an Image; None (counted withheld) when redacted or not a string."""
    if not isinstance(url, str) or not url or url == REDACTED:
        notes.images_withheld += 1
        return None
    if url[:5].lower() == "data:":
        header = url[5 : url.find(",")] if "," in url else ""
        return Image("data_url", url, header.split(";", 1)[0] or None)
    return Image("uri", url)


def semconv_messages(value: Any, what: str, notes: Notes, limits: Limits) -> list[Message]:
    """gen_ai.input.messages / gen_ai.output.messages (JSON string or structured) as Messages."""
    decoded = parse_json(value, what, notes, limits)
    if decoded is None:
        return []
    if not isinstance(decoded, list):
        notes.malformed.append(f"{what} is not a list of messages")
        return []
    messages = []
    for entry in latest(decoded, limits.max_messages, notes):
        if not isinstance(entry, dict):
            continue
        raw_parts = entry.get("parts")
        if raw_parts == []:
            notes.emptied_messages += 1
        parts = semconv_parts(raw_parts, notes, limits)
        finish = entry.get("finish_reason")
        messages.append(
            Message(
                role=str(entry.get("role") or ""),
                parts=tuple(parts),
                finish_reason=finish if isinstance(finish, str) else None,
            )
        )
    return messages


def semconv_parts(raw_parts: Any, notes: Notes, limits: Limits) -> list[Part]:
    """A semantic-convention parts list (text, blob, uri, file, tool_call, ...) as Parts."""
    if not isinstance(raw_parts, list):
        return []
    if len(raw_parts) > limits.max_parts:
        notes.truncated = True
    parts: list[Part] = []
    for raw in raw_parts[: limits.max_parts]:
        if not isinstance(raw, dict):
            continue
        part = _semconv_part(raw, notes)
        if part is not None:
            parts.append(part)
    return parts


def _semconv_part(raw: dict[str, Any], notes: Notes) -> Part | None:
    kind = raw.get("type")
    if kind == "text":
        return text_part(raw.get("content"), notes)
    if kind in ("blob", "uri", "file"):
        if raw.get("modality") not in ("image", None):
            return None  # audio, video and documents are not judged
        mime = raw.get("mime_type") if isinstance(raw.get("mime_type"), str) else None
        if kind == "blob":
            content = raw.get("content")
            if isinstance(content, bytes):
                content = base64.b64encode(content).decode("ascii")
            if not isinstance(content, str) or not content or content == REDACTED:
                notes.images_withheld += 1
                return None
            return Image("blob", content, mime)
        if kind == "uri":
            image = image_from_url(raw.get("uri"), notes)
            if image is not None and image.mime_type is None and mime:
                return Image(image.source, image.content, mime)
            return image
        # A provider-side file id: Loupe cannot read the provider's storage.
        notes.images_withheld += 1
        return None
    if kind == "tool_call":
        name = raw.get("name")
        call_id = raw.get("id")
        return ToolCall(
            name=name if isinstance(name, str) else "",
            id=call_id if isinstance(call_id, str) else None,
            arguments=raw.get("arguments"),
        )
    if kind == "tool_call_response":
        call_id = raw.get("id")
        # The schema says `response`; the conventions' own examples say `result`.
        response = raw.get("response", raw.get("result"))
        return ToolResult(response=response, id=call_id if isinstance(call_id, str) else None)
    return None  # reasoning, server tools and unknown parts are not judged


def openai_content(content: Any, notes: Notes, limits: Limits) -> list[Part]:
    """OpenAI Chat Completions `content` (a string or a list of text/image_url parts) as Parts."""
    if isinstance(content, str):
        text = text_part(content, notes)
        return [text] if text is not None else []
    if not isinstance(content, list):
        return []
    if len(content) > limits.max_parts:
        notes.truncated = True
    parts: list[Part] = []
    for raw in content[: limits.max_parts]:
        part: Part | None = None
        if isinstance(raw, str):
            part = text_part(raw, notes)
        elif not isinstance(raw, dict):
            continue
        elif raw.get("type") in ("text", "input_text", "output_text"):
            part = text_part(raw.get("text"), notes)
        elif raw.get("type") in ("image_url", "input_image"):
            image_url = raw.get("image_url")
            part = image_from_url(
                image_url.get("url") if isinstance(image_url, dict) else image_url, notes
            )
        if part is not None:
            parts.append(part)
    return parts


def openai_tool_calls(tool_calls: Any, limits: Limits) -> list[ToolCall]:
    """OpenAI `tool_calls` ([{id, function: {name, arguments}}]) as ToolCalls."""
    if not isinstance(tool_calls, list):
        return []
    calls = []
    for raw in tool_calls[: limits.max_tool_calls]:
        if not isinstance(raw, dict):
            continue
        function = raw.get("function") if isinstance(raw.get("function"), dict) else raw
        name = function.get("name")
        call_id = raw.get("id")
        calls.append(
            ToolCall(
                name=name if isinstance(name, str) else "",
                id=call_id if isinstance(call_id, str) else None,
                arguments=function.get("arguments"),
            )
        )
    return calls


def openai_message(
    raw: Any, role: str | None, notes: Notes, limits: Limits, finish_reason: Any = None
) -> Message | None:
    """An OpenAI-shaped message ({role, content, tool_calls, tool_call_id}) as a Message."""
    if not isinstance(raw, dict):
        return None
    role = str(raw.get("role") or role or "")
    if role == "tool":
        call_id = raw.get("tool_call_id", raw.get("id"))
        parts: list[Part] = [
            ToolResult(raw.get("content"), call_id if isinstance(call_id, str) else None)
        ]
    else:
        parts = openai_content(raw.get("content"), notes, limits)
        parts.extend(openai_tool_calls(raw.get("tool_calls"), limits))
    finish = finish_reason if finish_reason is not None else raw.get("finish_reason")
    return Message(role, tuple(parts), finish if isinstance(finish, str) else None)
