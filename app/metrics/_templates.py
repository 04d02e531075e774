"""OpenAI Evals templates: `{{ item.x }}` / `{{ sample.output_text }}` in strings and messages.

A path is a namespace (`item`, `sample`) then `.key` and `[n]` steps to any depth
(`sample.output_tools[0].function.name`). A string value is inserted raw; numbers, booleans,
objects and arrays as compact JSON; null as "". A path that does not resolve raises
TemplateError, which makes that item's result errored (`template_variable_missing`).

Messages come in OpenAI's EvalItem / EasyInputMessage shapes (content a string, an
`input_text` / `output_text` / `input_image` / `input_audio` part, or a list of those) and leave
as chat-completion messages. Images are never fetched here: a rendered `image_url` is looked up
in the images the run already put through Loupe's media pipeline.
"""

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from app.judges import loads_shallow, text_content

# A grader template is a prompt: a million characters is past any model's context already.
MAX_TEMPLATE_CHARS = 1_000_000
# Each placeholder may insert a whole row field: bounded, so no template multiplies a row
# into gigabytes of prompt.
MAX_TEMPLATE_PLACEHOLDERS = 256
_HEAD = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)")
# `.key` (anything but dots, brackets and whitespace) or `[n]`.
_STEP = re.compile(r"\.([^.\[\]\s]+)|\[(\d+)\]")
NAMESPACES = ("item", "sample")


class RenderError(Exception):
    """A template or message that cannot be rendered for one item; `type` is the error type."""

    type = "render_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TemplateError(RenderError):
    """A `{{ path }}` that does not resolve (or does not parse) for this item."""

    type = "template_variable_missing"

    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"template variable {{{{ {path} }}}} {why}")
        self.path = path


class ImageUnavailable(RenderError):
    """An `input_image` whose rendered URL the run did not ingest (so there are no bytes)."""

    type = "image_unavailable"


class UnsupportedContent(RenderError):
    type = "unsupported_content"


def _steps(path: str) -> tuple[str, list[str | int]]:
    head = _HEAD.match(path)
    if head is None:
        raise TemplateError(path, "is not a path like item.key or sample.output_text")
    steps: list[str | int] = []
    at = head.end()
    rest = path.rstrip()
    while at < len(rest):
        step = _STEP.match(rest, at)
        if step is None:
            raise TemplateError(path, "is not a path like item.key or sample.output_text")
        steps.append(step.group(1) if step.group(1) is not None else int(step.group(2)))
        at = step.end()
    return head.group(1), steps


def resolve(path: str, namespaces: Mapping[str, Any]) -> Any:
    """The value at `path` (`item.meta.lang`, `sample.output_tools[0].id`); raises TemplateError."""
    path = path.strip()
    name, steps = _steps(path)
    if name not in NAMESPACES:
        raise TemplateError(path, f"names no namespace ({' or '.join(NAMESPACES)})")
    if name not in namespaces or namespaces[name] is None:
        raise TemplateError(path, f"cannot resolve: there is no {name} for this row")
    value = namespaces[name]
    for step in steps:
        if isinstance(step, int):
            if not isinstance(value, list) or step >= len(value):
                raise TemplateError(path, f"cannot resolve: no index [{step}]")
            value = value[step]
        else:
            if not isinstance(value, Mapping) or step not in value:
                raise TemplateError(path, f"cannot resolve: no key {step!r}")
            value = value[step]
    return value


def _placeholders(template: str) -> Iterator[tuple[int, int, str]]:
    """Each `{{ ... }}` as (start, end, inside): the first `}}` after each `{{`, left to right.

    The same matches as a lazy `{{(.*?)}}` regex (DOTALL), found in linear time: that regex
    rescans to the end for every unclosed `{{`, quadratic on a run of them, and Python's `re`
    holds the GIL meanwhile (a 60 kB template stalled every request of the process).
    """
    at = 0
    while True:
        start = template.find("{{", at)
        if start == -1:
            return
        end = template.find("}}", start + 2)
        if end == -1:
            return  # no `}}` after this `{{`, so none after any later one either
        yield start, end + 2, template[start + 2 : end]
        at = end + 2


def check_template(template: str) -> str:
    """`template` when it is at most MAX_TEMPLATE_CHARS long with at most
    MAX_TEMPLATE_PLACEHOLDERS placeholders; raises ValueError (for a spec's validator)."""
    check_templates([template])
    return template


def check_templates(templates: Iterable[str], what: str = "a template") -> None:
    """Raise ValueError when the strings together pass MAX_TEMPLATE_CHARS or hold more than
    MAX_TEMPLATE_PLACEHOLDERS placeholders: every row renders them all, so the bound is on
    the whole (a message list of many strings multiplies a row as one long string would)."""
    chars = placeholders = 0
    for template in templates:
        chars += len(template)
        if chars > MAX_TEMPLATE_CHARS:
            raise ValueError(f"{what} may be at most {MAX_TEMPLATE_CHARS:,} characters in all")
        for _ in _placeholders(template):
            placeholders += 1
            if placeholders > MAX_TEMPLATE_PLACEHOLDERS:
                raise ValueError(
                    f"{what} may hold at most {MAX_TEMPLATE_PLACEHOLDERS} "
                    "{{ path }} placeholders in all"
                )


def path_steps(path: str) -> list[str | int]:
    """A path's namespace then its steps: `item.meta.tags[1]` -> ["item", "meta", "tags", 1]."""
    name, steps = _steps(path.strip())
    return [name, *steps]


def template_paths(template: str) -> list[str]:
    """The paths a template uses, in order; raises TemplateError for one that is not a path
    into `item` or `sample` (for checking templates before any row is rendered)."""
    paths = []
    for _, _, inside in _placeholders(template):
        path = inside.strip()
        name, _ = _steps(path)
        if name not in NAMESPACES:
            raise TemplateError(path, f"names no namespace ({' or '.join(NAMESPACES)})")
        paths.append(path)
    return paths


def message_templates(messages: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every templated string of the messages: string content, part texts, image URLs."""
    templates = []
    for message in messages:
        content = message.get("content")
        if content is None:
            continue
        for part in _parts(content):
            if isinstance(part, str):
                templates.append(part)
            elif part.get("type") in ("input_text", "output_text"):
                templates.append(part.get("text") or "")
            elif part.get("type") == "input_image" and isinstance(part.get("image_url"), str):
                templates.append(part["image_url"])
    return templates


def as_text(value: Any) -> str:
    """A value as template text: strings raw, null empty, everything else compact JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def render_template(template: str, namespaces: Mapping[str, Any]) -> str:
    """`template` with every `{{ path }}` replaced; text outside the braces is left alone."""
    pieces = []
    at = 0
    for start, end, inside in _placeholders(template):
        pieces += (template[at:start], as_text(resolve(inside, namespaces)))
        at = end
    pieces.append(template[at:])
    return "".join(pieces)


def _parts(content: Any) -> list[Any]:
    if isinstance(content, str | Mapping):
        return [content]
    if isinstance(content, list):
        return content
    raise UnsupportedContent(f"message content must be a string, a part or a list, not {content!r}")


def _image_part(
    part: Mapping[str, Any], namespaces: Mapping[str, Any], images: Mapping[str, Any]
) -> dict[str, Any]:
    template = part.get("image_url")
    if not isinstance(template, str):
        raise UnsupportedContent("an input_image needs an image_url (file_id is not supported)")
    url = render_template(template, namespaces)
    ingested = images.get(url)
    if ingested is None:
        raise ImageUnavailable(f"the image {_short(url)} was not ingested for this run")
    rendered = dict(ingested)
    detail = part.get("detail")
    if detail == "original":
        # The Responses API's "no downscaling"; chat completions' nearest is "high".
        detail = "high"
    if detail is not None:
        rendered["image_url"] = {**rendered["image_url"], "detail": detail}
    return rendered


def _short(url: str) -> str:
    return url if len(url) <= 80 else url[:77] + "..."


def render_content(
    content: Any, namespaces: Mapping[str, Any], images: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Content in any EvalItem shape as chat-completion parts (`text`, `image_url`,
    `input_audio`), templates rendered.

    Args:
        images: rendered image URL -> the ingested `image_url` part to send in its place.
    """
    parts: list[dict[str, Any]] = []
    for part in _parts(content):
        if isinstance(part, str):
            parts.append({"type": "text", "text": render_template(part, namespaces)})
            continue
        kind = part.get("type")
        if kind in ("input_text", "output_text"):
            parts.append({"type": "text", "text": render_template(part["text"], namespaces)})
        elif kind == "input_image":
            parts.append(_image_part(part, namespaces, images or {}))
        elif kind == "input_audio" and (clip := audio_clip(part)) is not None:
            parts.append({"type": "input_audio", "input_audio": clip})
        else:
            raise UnsupportedContent(f"content parts of type {kind!r} are not supported")
    return parts


def audio_clip(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """An `input_audio` part's clip as sent (its `data`), or None when it names none. A clip
    as Loupe reads it back (a dataset row, a run's messages) names this server's media `url`."""
    clip = part.get("input_audio")
    audio = dict(clip) if isinstance(clip, Mapping) else {}
    if "data" not in audio and isinstance(audio.get("url"), str):
        audio["data"] = audio.pop("url")
    return audio if isinstance(audio.get("data"), str) else None


def render_messages(
    messages: Iterable[Mapping[str, Any]],
    namespaces: Mapping[str, Any],
    images: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """EvalItem / EasyInputMessage messages as chat-completion messages.

    A message whose parts are all text gets one string (system and assistant messages take
    no parts on many compatible servers); `developer` becomes `system` for the same reason.
    Raises RenderError (TemplateError, ImageUnavailable, UnsupportedContent).
    """
    rendered = []
    for message in messages:
        role = message.get("role", "user")
        role = "system" if role == "developer" else role
        content = message.get("content")
        if isinstance(content, str):
            rendered.append({"role": role, "content": render_template(content, namespaces)})
            continue
        parts = render_content(content, namespaces, images)
        if all(part["type"] == "text" for part in parts):
            rendered.append({"role": role, "content": "\n".join(p["text"] for p in parts)})
        else:
            rendered.append({"role": role, "content": parts})
    return rendered


def image_url_templates(messages: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every `input_image.image_url` of the messages, unrendered, in order (duplicates kept)."""
    templates = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, str) or content is None:
            continue
        for part in _parts(content):
            if isinstance(part, Mapping) and part.get("type") == "input_image":
                url = part.get("image_url")
                if isinstance(url, str):
                    templates.append(url)
    return templates


def image_urls(messages: Iterable[Mapping[str, Any]], namespaces: Mapping[str, Any]) -> list[str]:
    """The image URLs the messages show for one row: rendered, in order, each once.

    Raises TemplateError when an image URL template does not resolve for the row.
    """
    return list(
        dict.fromkeys(render_template(url, namespaces) for url in image_url_templates(messages))
    )


def flatten(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Rendered messages with content as one string each (images as `<image_url>`; none, as
    an assistant turn that only calls tools has, as ""), for logs."""
    flat = []
    for message in messages:
        content = message["content"]
        if not isinstance(content, str):
            content = "\n".join(
                part["text"] if part["type"] == "text" else f"<{part['type']}>"
                for part in content or []
            )
        flat.append({"role": message["role"], "content": content})
    return flat


def _parsed_json(text: Any) -> tuple[bool, Any]:
    if not isinstance(text, str):
        return False, None
    try:
        # Nested past Loupe's JSON depth limit it is not JSON to a template (no output_json).
        return True, loads_shallow(text)
    except ValueError:
        return False, None


def build_sample(
    *,
    completion: Mapping[str, Any] | None = None,
    row_sample: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The `sample` namespace, from a chat completion body or from a jsonl row's `sample`.

    From a completion: `output_text` (the first choice's text), `output_tools` (its
    `tool_calls`), `output_audio` when present, `choices` and `model`. From a row: the row's
    object as it is. Either way `output_json` is added when `output_text` parses as JSON and
    the row does not set it.
    """
    if (completion is None) == (row_sample is None):
        raise ValueError("build_sample takes exactly one of completion and row_sample")
    if row_sample is not None:
        sample = dict(row_sample)
    else:
        choices = list(completion.get("choices") or [])  # type: ignore[union-attr]
        message = (choices[0].get("message") or {}) if choices else {}
        sample = {
            "output_text": text_content(message.get("content")),
            "output_tools": list(message.get("tool_calls") or []),
            "choices": choices,
            "model": completion.get("model"),  # type: ignore[union-attr]
        }
        if message.get("audio"):
            audio = message["audio"]
            sample["output_audio"] = {
                "data": audio.get("data"),
                "transcript": audio.get("transcript"),
            }
    if "output_json" not in sample:
        parsed, value = _parsed_json(sample.get("output_text"))
        if parsed:
            sample["output_json"] = value
    return sample
