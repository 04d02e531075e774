"""Readers of the message conventions instrumentations emit, each to one Reading.

- GenAI semantic conventions 1.37+: gen_ai.input.messages, gen_ai.output.messages and
  gen_ai.system_instructions on the span (JSON strings) or on a
  gen_ai.client.inference.operation.details event or log record (structured values).
- OpenInference: flattened llm.input_messages.N.message.* / llm.output_messages.N.message.*.
- OpenLLMetry before it took up the semantic conventions: gen_ai.prompt.N.* and
  gen_ai.completion.N.*.
- Semantic conventions up to 1.36: one event per message (gen_ai.user.message, ...,
  gen_ai.choice) on the span or as log records, and the older gen_ai.content.prompt and
  gen_ai.content.completion span events holding JSON.

Keys are taken apart with str methods only (no regular expression on untrusted input).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.otlp._content import (
    Message,
    Notes,
    Part,
    Text,
    ToolCall,
    ToolResult,
    image_from_url,
    latest,
    openai_message,
    parse_json,
    semconv_messages,
    semconv_parts,
    text_part,
)
from app.otlp._limits import Limits

INPUT_MESSAGES = "gen_ai.input.messages"
OUTPUT_MESSAGES = "gen_ai.output.messages"
SYSTEM_INSTRUCTIONS = "gen_ai.system_instructions"
DETAILS_EVENT = "gen_ai.client.inference.operation.details"
_MESSAGE_EVENTS = {
    "gen_ai.system.message": "system",
    "gen_ai.user.message": "user",
    "gen_ai.assistant.message": "assistant",
    "gen_ai.tool.message": "tool",
}
CHOICE_EVENT = "gen_ai.choice"
_CONTENT_EVENTS = {"gen_ai.content.prompt": "gen_ai.prompt"}
_COMPLETION_EVENT = ("gen_ai.content.completion", "gen_ai.completion")
_EVENT_NAMES = frozenset(
    {DETAILS_EVENT, CHOICE_EVENT, _COMPLETION_EVENT[0], *_MESSAGE_EVENTS, *_CONTENT_EVENTS}
)
# Indices past this many digits are not message positions (and never become huge ints).
_MAX_INDEX_DIGITS = 6


@dataclass
class Reading:
    """The messages one convention gave for a call."""

    convention: str
    input_messages: list[Message] = field(default_factory=list)
    output_messages: list[Message] = field(default_factory=list)
    system_instructions: list[str] = field(default_factory=list)
    # Attributes that came with the content (a details log record carries model and ids).
    attributes: dict[str, Any] = field(default_factory=dict)


def message_events_named(name: str) -> bool:
    """Whether an event or log record name is one the readers take messages from."""
    return name in _EVENT_NAMES


def semconv(attributes: dict[str, Any], notes: Notes, limits: Limits) -> Reading | None:
    """GenAI semantic conventions 1.37+ message attributes, if the mapping holds any."""
    if not any(key in attributes for key in (INPUT_MESSAGES, OUTPUT_MESSAGES, SYSTEM_INSTRUCTIONS)):
        return None
    reading = Reading("gen_ai.semconv", attributes=attributes)
    reading.input_messages = semconv_messages(
        attributes.get(INPUT_MESSAGES), INPUT_MESSAGES, notes, limits
    )
    # Only an emptied *input* message is the official instrumentation dropping list content.
    outputs_notes = Notes()
    reading.output_messages = semconv_messages(
        attributes.get(OUTPUT_MESSAGES), OUTPUT_MESSAGES, outputs_notes, limits
    )
    notes.images_withheld += outputs_notes.images_withheld
    notes.texts_withheld += outputs_notes.texts_withheld
    notes.truncated = notes.truncated or outputs_notes.truncated
    notes.malformed.extend(outputs_notes.malformed)
    instructions = parse_json(
        attributes.get(SYSTEM_INSTRUCTIONS), SYSTEM_INSTRUCTIONS, notes, limits
    )
    reading.system_instructions = [
        part.text for part in semconv_parts(instructions, notes, limits) if isinstance(part, Text)
    ]
    return reading


def indexed(
    attributes: dict[str, Any], prefix: str, limit: int, notes: Notes
) -> dict[int, dict[str, Any]]:
    """`prefix` + `N.rest` keys grouped by N: {N: {rest: value}}, N below `limit`."""
    groups: dict[int, dict[str, Any]] = {}
    for key, value in attributes.items():
        if not key.startswith(prefix):
            continue
        index, _, rest = key[len(prefix) :].partition(".")
        if not (index.isascii() and index.isdigit()) or len(index) > _MAX_INDEX_DIGITS:
            continue
        position = int(index)
        if position >= limit:
            notes.truncated = True
            continue
        groups.setdefault(position, {})[rest] = value
    return groups


def openinference(attributes: dict[str, Any], notes: Notes, limits: Limits) -> Reading | None:
    """OpenInference's flattened llm.input_messages / llm.output_messages, if present; else its
    completion call's llm.prompts / llm.choices."""
    inputs = indexed(attributes, "llm.input_messages.", 1 << 20, notes)
    outputs = indexed(attributes, "llm.output_messages.", 1 << 20, notes)
    if not inputs and not outputs:
        return _openinference_completion(attributes, notes, limits)
    reading = Reading("openinference")
    for groups, messages in ((inputs, reading.input_messages), (outputs, reading.output_messages)):
        for position in latest(sorted(groups), limits.max_messages, notes):
            messages.append(_openinference_message(groups[position], notes, limits))
    return reading


def _openinference_completion(
    attributes: dict[str, Any], notes: Notes, limits: Limits
) -> Reading | None:
    """A text completion (`client.completions.create`): each prompt
    (`llm.prompts.N.prompt.text`, or older instrumentations' `llm.prompts` list of strings) a
    user message, each choice (`llm.choices.N.completion.text`) an assistant message."""
    prompts = [
        group.get("prompt.text")
        for _, group in sorted(indexed(attributes, "llm.prompts.", 1 << 20, notes).items())
    ]
    listed = attributes.get("llm.prompts")
    if not prompts and isinstance(listed, list | tuple):
        prompts = list(listed)
    choices = [
        group.get("completion.text")
        for _, group in sorted(indexed(attributes, "llm.choices.", 1 << 20, notes).items())
    ]
    if not prompts and not choices:
        return None
    reading = Reading("openinference")
    for texts, role, messages in (
        (prompts, "user", reading.input_messages),
        (choices, "assistant", reading.output_messages),
    ):
        strings = [text for text in texts if isinstance(text, str)]
        for text in strings[-limits.max_messages :]:
            part = text_part(text, notes)
            messages.append(Message(role, (part,) if part is not None else ()))
        if len(strings) > limits.max_messages:
            notes.truncated = True
    return reading


def _openinference_message(fields: dict[str, Any], notes: Notes, limits: Limits) -> Message:
    role = str(fields.get("message.role") or "")
    content = fields.get("message.content")
    parts: list[Part] = []
    if role == "tool":
        call_id = fields.get("message.tool_call_id")
        parts.append(ToolResult(content, call_id if isinstance(call_id, str) else None))
    elif (text := text_part(content, notes)) is not None:
        parts.append(text)
    contents = indexed(fields, "message.contents.", limits.max_parts, notes)
    for position in sorted(contents):
        item = contents[position]
        kind = item.get("message_content.type")
        if kind == "text":
            if (text := text_part(item.get("message_content.text"), notes)) is not None:
                parts.append(text)
        elif kind == "image":
            # OPENINFERENCE_HIDE_INPUT_IMAGES leaves the type without its url: withheld.
            image = image_from_url(item.get("message_content.image.image.url"), notes)
            if image is not None:
                parts.append(image)
    tool_calls = indexed(fields, "message.tool_calls.", limits.max_tool_calls, notes)
    for position in sorted(tool_calls):
        call = tool_calls[position]
        name, call_id = call.get("tool_call.function.name"), call.get("tool_call.id")
        parts.append(
            ToolCall(
                name=name if isinstance(name, str) else "",
                id=call_id if isinstance(call_id, str) else None,
                arguments=call.get("tool_call.function.arguments"),
            )
        )
    return Message(role, tuple(parts))


def openllmetry_indexed(attributes: dict[str, Any], notes: Notes, limits: Limits) -> Reading | None:
    """OpenLLMetry's older gen_ai.prompt.N.* / gen_ai.completion.N.* attributes, if present."""
    prompts = indexed(attributes, "gen_ai.prompt.", 1 << 20, notes)
    completions = indexed(attributes, "gen_ai.completion.", 1 << 20, notes)
    if not prompts and not completions:
        return None
    reading = Reading("openllmetry.indexed")
    for groups, messages in (
        (prompts, reading.input_messages),
        (completions, reading.output_messages),
    ):
        for position in latest(sorted(groups), limits.max_messages, notes):
            fields = groups[position]
            raw = {
                "role": fields.get("role"),
                "content": _maybe_parts(fields.get("content"), notes, limits),
                "tool_call_id": fields.get("tool_call_id"),
                "tool_calls": [
                    {
                        "id": call.get("id"),
                        "name": call.get("name"),
                        "arguments": call.get("arguments"),
                    }
                    for _, call in sorted(
                        indexed(fields, "tool_calls.", limits.max_tool_calls, notes).items()
                    )
                ],
            }
            message = openai_message(raw, None, notes, limits, fields.get("finish_reason"))
            if message is not None:
                messages.append(message)
    return reading


def _maybe_parts(content: Any, notes: Notes, limits: Limits) -> Any:
    """OpenLLMetry writes list content as a JSON string of OpenAI parts: read it back."""
    if isinstance(content, str) and content[:1] == "[":
        decoded = parse_json(content, "gen_ai.prompt content", Notes(), limits)
        if isinstance(decoded, list) and all(
            isinstance(item, dict) and "type" in item for item in decoded
        ):
            return decoded
    return content


def message_events(
    events: Iterable[tuple[str, Any]], notes: Notes, limits: Limits
) -> Reading | None:
    """Per-message events (semantic conventions up to 1.36) as one Reading, if any.

    Args:
        events: (event name, body) in the order sent; a span event's attributes are its body.
    """
    reading = Reading("gen_ai.events")
    found = False
    for name, body in events:
        if name in _MESSAGE_EVENTS:
            found = True
            message = openai_message(body, _MESSAGE_EVENTS[name], notes, limits)
            if message is not None:
                reading.input_messages.append(message)
        elif name == CHOICE_EVENT:
            found = True
            body = body if isinstance(body, dict) else {}
            raw = body.get("message") or {}
            if isinstance(raw, dict) and "tool_calls" not in raw and "tool_calls" in body:
                # OpenLLMetry's events put a choice's tool calls beside its message, not in it.
                raw = {**raw, "tool_calls": body["tool_calls"]}
            message = openai_message(raw, "assistant", notes, limits, body.get("finish_reason"))
            if message is not None:
                reading.output_messages.append(message)
        elif name in _CONTENT_EVENTS or name == _COMPLETION_EVENT[0]:
            found = True
            key = _CONTENT_EVENTS.get(name, _COMPLETION_EVENT[1])
            decoded = parse_json(
                body.get(key) if isinstance(body, dict) else None, key, notes, limits
            )
            target = reading.input_messages if name in _CONTENT_EVENTS else reading.output_messages
            role = "user" if name in _CONTENT_EVENTS else "assistant"
            for raw in decoded if isinstance(decoded, list) else []:
                message = openai_message(raw, role, notes, limits)
                if message is not None:
                    target.append(message)
    if not found:
        return None
    reading.input_messages = latest(reading.input_messages, limits.max_messages, notes)
    reading.output_messages = latest(reading.output_messages, limits.max_messages, notes)
    return reading


def span_event_body(attributes: dict[str, Any], notes: Notes, limits: Limits) -> Any:
    """A span event's message body: its gen_ai.event.content JSON, else its attributes."""
    if "gen_ai.event.content" in attributes:
        return parse_json(attributes["gen_ai.event.content"], "gen_ai.event.content", notes, limits)
    return attributes
