"""A completions run's request to its candidate model: `input_messages` checked before any row
is stored, an `item_reference`'s messages as they are sent, `sampling_params` turned into the
call's fields (OpenAI's defaults filled in), and both echoed as OpenAI echoes them."""

from typing import Any

from app.evals import criteria, placeholders
from app.metrics import (
    RenderError,
    UnsupportedContent,
    audio_clip,
    check_template,
    check_templates,
)
from app.problems import bad_request


def input_messages(data_source: dict[str, Any]) -> dict[str, Any]:
    """The run's `input_messages` (a template or an item reference), checked; 400 otherwise."""
    spec = data_source.get("input_messages")
    if not isinstance(spec, dict) or spec.get("type") not in ("template", "item_reference"):
        raise bad_request(
            "a completions run needs input_messages: {type: 'template', template: [...]} or "
            "{type: 'item_reference', item_reference: 'item.path'}",
            ["data_source", "input_messages"],
        )
    if spec["type"] == "template" and not isinstance(spec.get("template"), list):
        raise bad_request(
            "template must be an array", ["data_source", "input_messages", "template"]
        )
    if spec["type"] == "item_reference" and not isinstance(spec.get("item_reference"), str):
        raise bad_request(
            "item_reference must be a path such as item.messages",
            ["data_source", "input_messages", "item_reference"],
        )
    if spec["type"] == "template":
        _check_template(spec["template"])
    return spec


# What a template's content parts may be; each stands for a chat-completion part Loupe sends.
_PART_TYPES = ("input_text", "output_text", "input_image", "input_audio")


def _check_template(template: list[Any]) -> None:
    """Refuse, before any row is stored, the parts every row would fail on: `input_file`,
    `input_image` by `file_id` (OpenAI-hosted files) and unknown part types."""
    base: list[str | int] = ["data_source", "input_messages", "template"]
    strings: list[str] = []
    for position, message in enumerate(template):
        if not isinstance(message, dict):
            raise bad_request("each template message must be an object", [*base, position])
        content = message.get("content")
        if isinstance(content, dict):
            parts: list[tuple[list[str | int], Any]] = [([], content)]
        elif isinstance(content, list):
            parts = [([index], part) for index, part in enumerate(content)]
        else:
            # A string is rendered (or refused) per row; its size is bounded now.
            _check_bounds(content, [*base, position, "content"])
            if isinstance(content, str):
                strings.append(content)
            continue
        for where, part in parts:
            path = [*base, position, "content", *where]
            if not isinstance(part, dict):
                continue
            for field in ("text", "image_url"):
                _check_bounds(part.get(field), [*path, field])
                if isinstance(part.get(field), str):
                    strings.append(part[field])
            kind = part.get("type")
            if kind == "input_file":
                raise bad_request(
                    "input_file parts are not supported: Loupe has no OpenAI-hosted files to "
                    "send; put the text in an input_text part",
                    path,
                    "unsupported_content",
                )
            if kind == "input_image" and not isinstance(part.get("image_url"), str):
                raise bad_request(
                    "input_image needs an image_url (an https or data URL, or a template such "
                    "as {{ item.image_url }}); file_id images are not supported",
                    path,
                    "unsupported_content",
                )
            if kind in ("input_text", "output_text") and not isinstance(part.get("text"), str):
                raise bad_request(f"{kind} needs its text (a string)", [*path, "text"])
            if kind == "input_audio" and audio_clip(part) is None:
                raise bad_request(
                    "input_audio needs an input_audio object whose `data` is the clip (a WAV or "
                    "MP3 data URL), or whose `url` is this server's media URL (as a clip reads "
                    "back)",
                    [*path, "input_audio"],
                    "unsupported_content",
                )
            if kind not in _PART_TYPES:
                raise bad_request(
                    f"content parts of type {kind!r} are not supported; use one of "
                    f"{', '.join(_PART_TYPES)}",
                    path,
                    "unsupported_content",
                )
    try:
        check_templates(strings, "a template")
    except ValueError as error:
        raise bad_request(str(error), base) from None
    placeholders.check(placeholders.message_strings(template, base), ("item",), _ASKED_FIRST)


_ASKED_FIRST = (
    "the model is asked before there is any sample, so only the row's item can fill its messages"
)


def _check_bounds(template: Any, path: list[str | int]) -> None:
    """Refuse a template string past the size and placeholder bounds every row would pay."""
    if isinstance(template, str):
        try:
            check_template(template)
        except ValueError as error:
            raise bad_request(str(error), path) from None


# What an item's message keeps besides role and content: a trajectory's tool calls and results.
_MESSAGE_FIELDS = ("name", "tool_calls", "tool_call_id")
_TEXT_PARTS = ("text", "input_text", "output_text")


def item_messages(messages: Any) -> list[dict[str, Any]]:
    """An `item_reference`'s messages as the model gets them: sent as written (OpenAI: "a
    prebuilt trajectory"), so no `{{ }}` in them is rendered; EvalItem parts become Chat
    Completions' (`input_text` -> `text`, `input_image` -> `image_url`), whose own parts,
    tool calls and tool results are kept. As for templates, `developer` is sent as `system`
    and a message whose parts are all text as one string.

    Raises RenderError (the row is errored) for a value that is not such a message list.
    """
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        raise RenderError("the item_reference is not an array of messages")
    sent = []
    for message in messages:
        role = message.get("role", "user")
        kept = {key: message[key] for key in _MESSAGE_FIELDS if key in message}
        sent.append(
            {
                "role": "system" if role == "developer" else role,
                "content": _item_content(message.get("content")),
                **kept,
            }
        )
    return sent


def _item_content(content: Any) -> Any:
    if content is None or isinstance(content, str):
        return content  # None: an assistant turn that only calls tools
    parts = [_item_part(part) for part in (content if isinstance(content, list) else [content])]
    if all(part["type"] == "text" for part in parts):
        return "\n".join(part["text"] for part in parts)
    return parts


def _item_part(part: Any) -> dict[str, Any]:
    if isinstance(part, str):
        return {"type": "text", "text": part}
    kind = part.get("type") if isinstance(part, dict) else None
    if kind in _TEXT_PARTS and isinstance(part.get("text"), str):
        return {"type": "text", "text": part["text"]}
    image = part.get("image_url") if isinstance(part, dict) else None
    if kind == "image_url" and isinstance(image, dict) and isinstance(image.get("url"), str):
        return {"type": "image_url", "image_url": dict(image)}
    if kind == "input_image" and isinstance(image, str):
        detail = part.get("detail")
        # The Responses API's "no downscaling"; chat completions' nearest is "high".
        detail = "high" if detail == "original" else detail
        return {
            "type": "image_url",
            "image_url": {"url": image, **({"detail": detail} if detail else {})},
        }
    audio = audio_clip(part) if kind == "input_audio" else None
    if audio is not None:
        return {"type": "input_audio", "input_audio": audio}
    raise UnsupportedContent(
        f"a content part of type {kind!r} cannot be sent; use text or input_text, image_url "
        "or input_image (with a URL), or input_audio (with its data or url)"
    )


_PARAMS = {
    "max_completion_tokens": "max_tokens",
    "max_completions_tokens": "max_tokens",
    "reasoning_effort": "reasoning_effort",
    "response_format": "response_format",
}
# OpenAI's defaults for a run's sampling (API reference), used when the run leaves them out.
SAMPLING_DEFAULTS = {"temperature": 1, "top_p": 1, "seed": 42}


def _sampling(data_source: dict[str, Any]) -> dict[str, Any]:
    sampling = data_source.get("sampling_params") or {}
    if not isinstance(sampling, dict):
        raise bad_request("sampling_params must be an object", ["data_source", "sampling_params"])
    return sampling


def sampling_used(data_source: dict[str, Any]) -> dict[str, Any]:
    """The sampling values a completions run's candidate calls use (defaults filled in), as
    an output item's `sample` shows them."""
    sampling = _sampling(data_source)
    used = {
        name: default if sampling.get(name) is None else sampling[name]
        for name, default in SAMPLING_DEFAULTS.items()
    }
    tokens = sampling.get("max_completion_tokens")
    used["max_completion_tokens"] = (
        sampling.get("max_completions_tokens") if tokens is None else tokens
    )
    return used


def generation_params(data_source: dict[str, Any]) -> dict[str, Any]:
    """The candidate call's body fields from `sampling_params` (both token spellings), with
    OpenAI's defaults for temperature, top_p and seed rather than the endpoint's."""
    sampling = _sampling(data_source)
    if sampling.get("tools"):
        raise bad_request(
            "tools in sampling_params are not supported yet",
            ["data_source", "sampling_params", "tools"],
            "unsupported_parameter",
        )
    used = sampling_used(data_source)
    params = {name: used[name] for name in SAMPLING_DEFAULTS}
    for key, value in sampling.items():
        if key in _PARAMS and value is not None:
            params[_PARAMS[key]] = value
    return params


def echo(data_source: dict[str, Any]) -> dict[str, Any]:
    """The data source as OpenAI echoes it: template messages typed (string content as an
    `input_text` part), the max-tokens field spelt as the SDK's run types spell it."""
    echoed = dict(data_source)
    spec = data_source.get("input_messages")
    if isinstance(spec, dict) and spec.get("type") == "template":
        echoed["input_messages"] = {
            **spec,
            "template": [criteria.echo_message(message) for message in spec["template"]],
        }
    if "sampling_params" in data_source:
        echoed["sampling_params"] = criteria.echo_tokens(
            data_source["sampling_params"], "max_completion_tokens"
        )
    return echoed
