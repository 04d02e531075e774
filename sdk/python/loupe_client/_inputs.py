"""What callers write instead of generated models: discriminators filled in, dicts accepted.

Each metric spec is re-exported without its `Spec` suffix and with `type` already set
(`GEval(name=..., criteria=...)`), content parts likewise (`TextPart(text=...)`,
`ImageUrlPart(image_url="https://...")`), and `TestCase` takes `input=` rather than `input_=`.
Anything a method takes may also be a plain dict in the API's own JSON shape.
"""

import io
import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._generated import models
from ._generated.types import UNSET, File


def _tag(model: type) -> str:
    """The value a generated model's `type_` field must hold (its `Literal[...]`)."""
    annotation = model.__annotations__["type_"]
    if isinstance(annotation, str):  # postponed annotations: "Literal['g_eval']"
        (tag,) = re.findall(r"Literal\[['\"]([^'\"]+)['\"]\]", annotation)
        return tag
    (tag,) = typing.get_args(annotation)
    return tag


def _tagged(model: type, name: str) -> type:
    tag = _tag(model)

    def __init__(self: Any, **fields: Any) -> None:
        fields.setdefault("type_", tag)
        model.__init__(self, **fields)  # type: ignore[misc]

    return type(
        name,
        (model,),
        {"__slots__": (), "__init__": __init__, "__doc__": model.__doc__, "__module__": __name__},
    )


# Every metric spec, e.g. GEvalSpec -> GEval: the generated class with `type` filled in.
METRICS: dict[str, type] = {
    name.removesuffix("Spec"): _tagged(getattr(models, name), name.removesuffix("Spec"))
    for name in models.__all__
    if name.endswith("Spec")
}
globals().update(METRICS)

TextPart = _tagged(models.TextPart, "TextPart")
_ImageUrlPartTagged = _tagged(models.ImageUrlPart, "ImageUrlPart")


class ImageUrlPart(_ImageUrlPartTagged):  # type: ignore[misc, valid-type]
    """An image content part; `image_url` may be a URL or data: URI string."""

    __slots__ = ()

    def __init__(self, image_url: "str | Mapping[str, Any] | models.ImageUrl", **fields: Any):
        if isinstance(image_url, str):
            image_url = models.ImageUrl(url=image_url)
        elif isinstance(image_url, Mapping):
            image_url = models.ImageUrl.from_dict(image_url)
        super().__init__(image_url=image_url, **fields)


class TestCase(models.TestCaseCreate):
    """A test case to submit; `input` is spelled as in the API."""

    __slots__ = ()
    __test__ = False  # not a pytest class

    def __init__(self, input: Any = UNSET, **fields: Any) -> None:
        if input is not UNSET:
            fields["input_"] = input
        super().__init__(**fields)


# A conversation's turn and a tool call, as generated (`Turn(role="user", content=...)`;
# `TestCase(turns=[...], expected_tools=[ToolCall(name=...)])`).
Turn = models.Turn
ToolCall = models.ToolCall


def to_json(value: Any, *, in_list: bool = False) -> Any:
    """`value` as the API's JSON: models serialised, content parts given their `type`."""
    if hasattr(value, "to_dict") and not isinstance(value, Mapping):
        value = value.to_dict()
    if isinstance(value, Mapping):
        body = {str(key): to_json(item) for key, item in value.items() if item is not UNSET}
        if in_list and "type" not in body:
            # Content parts are the only list items whose `type` a caller may leave out.
            if set(body) == {"text"}:
                body = {"type": "text", **body}
            elif "image_url" in body and set(body) <= {"image_url"}:
                url = body["image_url"]
                body = {
                    "type": "image_url",
                    "image_url": {"url": url} if isinstance(url, str) else url,
                }
        return body
    if isinstance(value, list | tuple):
        return [to_json(item, in_list=True) for item in value]
    return value


class Payload:
    """A JSON body for a generated endpoint function, sent exactly as given.

    Round-tripping through the generated model's `from_dict` would silently drop fields it does
    not know (a typo the API should answer with 422), so the body goes out untouched.
    """

    def __init__(self, body: Any) -> None:
        self.body = body

    def to_dict(self) -> Any:
        return self.body


def upload(file: "str | Path | tuple[str, bytes]") -> File:
    """A file to upload from a path or a (filename, bytes) pair."""
    if isinstance(file, tuple):
        filename, content = file
    else:
        path = Path(file)
        filename, content = path.name, path.read_bytes()
    return File(payload=io.BytesIO(content), file_name=filename)
