"""EvalScope General-VQA (OpenAI messages) and General-VMCQ (MMMU-style question) rows."""

import json
from typing import Any

from app.api import nesting
from app.datasets._mcq import answer_label, mcq_prompt, option_labels
from app.datasets._media_refs import audio_source, image_url
from app.datasets._placeholders import PLACEHOLDER, RowMedia, has_video
from app.datasets._tabular import is_blank, list_cell
from app.datasets._types import DatasetRow, RowScope
from app.problems import format_loc

# The roles EvalScope's OpenAI message parser takes.
ROLES = ("system", "developer", "user", "assistant", "tool")
_DETAILS = ("auto", "low", "high")


def vqa_row(fields: dict[str, Any], scope: RowScope) -> DatasetRow:
    """A General-VQA row: its messages with media resolved, and the optional reference answer."""
    if "messages" not in fields:
        raise scope.error("messages", "required field 'messages' is missing")
    raw = fields["messages"]
    if is_blank(raw):
        raise scope.error("messages", "the row's messages are empty")
    if isinstance(raw, str):
        try:
            raw = nesting.loads(raw)
        except nesting.TooDeep as exc:
            raise scope.error("messages", str(exc)) from exc
        except nesting.RefusedJson as exc:
            raise scope.error(format_loc(["messages", *exc.path]), str(exc)) from exc
        except json.JSONDecodeError as exc:
            raise scope.error("messages", f"invalid JSON: {exc.msg} (column {exc.colno})") from exc
    if not isinstance(raw, list) or not raw:
        raise scope.error("messages", "expected a non-empty list of chat messages")
    # Only user messages with plain-string content are scanned for placeholders.
    texts = [
        m["content"]
        for m in raw
        if isinstance(m, dict) and m.get("role") == "user" and isinstance(m.get("content"), str)
    ]
    media = RowMedia(fields, scope, texts)
    messages = [_message(message, i, media, scope) for i, message in enumerate(raw)]
    return DatasetRow(
        line=scope.line,
        kind="vqa",
        messages=messages,
        answer=text_answer(fields.get("answer"), scope),
        labels=None,
        options=None,
        extra={},
    )


def text_answer(value: Any, scope: RowScope) -> str | None:
    """The reference answer exactly as written: EvalScope scores against it unnormalised, and
    jieba keeps surrounding spaces as tokens, so stripping them would change BLEU."""
    if is_blank(value):
        return None
    if isinstance(value, dict | list):
        raise scope.error("answer", f"expected text, got {type(value).__name__}")
    return str(value)


def _message(message: Any, index: int, media: RowMedia, scope: RowScope) -> dict[str, Any]:
    here = f"messages[{index}]"
    if not isinstance(message, dict):
        raise scope.error(here, "expected a chat message object")
    role = message.get("role")
    if role not in ROLES:
        raise scope.error(f"{here}.role", f"role {role!r} is not one of {', '.join(ROLES)}")
    kept = {"role": role, **_tool_fields(message, role, here, scope)}
    content = message.get("content")
    field = f"{here}.content"
    if isinstance(content, str):
        if role == "user" and PLACEHOLDER.search(content):
            parts = media.split(content, field)
            return {**kept, "content": parts or ""}
        return {**kept, "content": content}
    if isinstance(content, list) and content:
        parts = [_part(part, f"{field}[{j}]", scope) for j, part in enumerate(content)]
        return {**kept, "content": parts}
    if content is None and "tool_calls" in kept:
        # An assistant turn that only calls tools has no content (OpenAI sends null).
        return {**kept, "content": None}
    raise scope.error(field, "expected a string or a non-empty list of content parts")


def _tool_fields(message: dict[str, Any], role: str, here: str, scope: RowScope) -> dict:
    """The fields that tie tool results to the calls they answer, kept for the candidate."""
    kept: dict[str, Any] = {}
    if role == "tool" and "tool_call_id" in message:
        if not isinstance(message["tool_call_id"], str) or not message["tool_call_id"]:
            raise scope.error(f"{here}.tool_call_id", "expected the id of a tool call")
        kept["tool_call_id"] = message["tool_call_id"]
    if role == "assistant" and message.get("tool_calls") is not None:
        calls = message["tool_calls"]
        if not isinstance(calls, list) or not calls:
            raise scope.error(f"{here}.tool_calls", "expected a non-empty list of tool calls")
        for j, call in enumerate(calls):
            function = call.get("function") if isinstance(call, dict) else None
            if not (
                isinstance(function, dict)
                and isinstance(call.get("id"), str)
                and isinstance(function.get("name"), str)
                and isinstance(function.get("arguments", ""), str)
            ):
                raise scope.error(
                    f"{here}.tool_calls[{j}]",
                    'expected {"id", "type": "function", "function": {"name", "arguments"}}',
                )
        kept["tool_calls"] = calls
    return kept


def _part(part: Any, field: str, scope: RowScope) -> dict[str, Any]:
    if not isinstance(part, dict):
        raise scope.error(field, "expected a content part object")
    kind = part.get("type")
    if kind == "text":
        if not isinstance(part.get("text"), str):
            raise scope.error(f"{field}.text", "expected a string")
        return {"type": "text", "text": part["text"]}
    if kind == "image_url":
        spec = part.get("image_url")
        if not isinstance(spec, dict) or "url" not in spec:
            raise scope.error(f"{field}.image_url", 'expected an object with a "url"')
        image = {"url": image_url(spec["url"], scope, f"{field}.image_url.url")}
        detail = spec.get("detail")
        if detail is not None:
            if detail not in _DETAILS:
                raise scope.error(f"{field}.image_url.detail", f"{detail!r} is not auto|low|high")
            image["detail"] = detail
        return {"type": "image_url", "image_url": image}
    if kind == "input_audio":
        spec = part.get("input_audio")
        # A row read back names its clip by `url` (this server's media URL), as test cases do.
        key = "url" if isinstance(spec, dict) and "data" not in spec else "data"
        if not isinstance(spec, dict) or key not in spec:
            raise scope.error(f"{field}.input_audio", 'expected an object with "data"')
        here = f"{field}.input_audio"
        data, audio_format = audio_source(
            spec[key], spec.get("format"), scope, f"{here}.{key}", f"{here}.format"
        )
        return {"type": "input_audio", "input_audio": {"data": data, "format": audio_format}}
    if kind in ("video_url", "video"):
        raise scope.error(field, "video is not supported yet")
    raise scope.error(f"{field}.type", f"unknown content part type {kind!r}")


def vmcq_row(fields: dict[str, Any], scope: RowScope) -> DatasetRow:
    """A General-VMCQ row: one user message, the prompt with media at its placeholders."""
    if "question" not in fields:
        raise scope.error("question", "required field 'question' is missing")
    question = fields["question"]
    if is_blank(question):
        raise scope.error("question", "the row's question is empty")
    if not isinstance(question, str):
        raise scope.error("question", f"expected a string, got {type(question).__name__}")
    options = _options(fields.get("options"), scope)
    for field, text in [
        ("question", question),
        *((f"options[{i}]", o) for i, o in enumerate(options)),
    ]:
        if has_video(text):
            raise scope.error(field, "video is not supported yet")
    labels = option_labels(len(options))
    answer = answer_label(fields.get("answer"), labels, scope)
    prompt = mcq_prompt(question, options, labels)
    content = RowMedia(fields, scope, [prompt]).split(prompt, "question")
    return DatasetRow(
        line=scope.line,
        kind="mcq",
        messages=[{"role": "user", "content": content}],
        answer=answer,
        labels=labels,
        options=options,
        extra={},
    )


def _options(value: Any, scope: RowScope) -> list[str]:
    if is_blank(value):
        raise scope.error("options", "required field 'options' is missing or empty")
    if isinstance(value, str):
        try:
            value = list_cell(value)
        except ValueError as exc:
            raise scope.error("options", f"{exc} of option texts") from exc
    if not isinstance(value, list) or not value:
        raise scope.error("options", "expected a non-empty list of option texts")
    return [str(option) for option in value]
