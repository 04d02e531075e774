"""What callers write instead of generated models: discriminators filled in, dicts accepted.

Each metric spec is re-exported without its `Spec` suffix and with `type` already set
(`GEval(name=..., criteria=...)`), content parts likewise (`TextPart(text=...)`,
`ImageUrlPart(image_url="https://...")`), and `TestCase` takes `input=` rather than `input_=`.
Anything a method takes may also be a plain dict in the API's own JSON shape.
"""

import io
import math
import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._errors import ValidationError
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


# What a number JSON cannot carry is called in messages.
NOT_JSON_NUMBER = (
    "is not a JSON number: JSON has no NaN or Infinity (a literal past ±1.8e308, such as 1e400, "
    "reads as Infinity)"
)


def non_finite(value: Any, loc: tuple[str | int, ...] = ()) -> tuple[list[str | int], float] | None:
    """Where the first NaN or infinite number inside `value` is (its path of keys and indices),
    and the number; None when every number is finite."""
    if isinstance(value, float) and not math.isfinite(value):
        return list(loc), value
    if isinstance(value, Mapping):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = non_finite(item, (*loc, key))
        if found is not None:
            return found
    return None


def spelled(loc: list[str | int]) -> str:
    """A path as messages spell it: `test_cases[3].metadata.n`."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def number_name(number: float) -> str:
    """NaN, Infinity or -Infinity, as JavaScript and Python's json module write them."""
    return "NaN" if math.isnan(number) else ("Infinity" if number > 0 else "-Infinity")


class Payload:
    """A JSON body for a generated endpoint function, sent exactly as given.

    Round-tripping through the generated model's `from_dict` would silently drop fields it does
    not know (a typo the API should answer with 422), so the body goes out untouched. A body
    JSON cannot carry (NaN, ±Infinity) is refused here, before anything is sent, with the
    `ValidationError` the server's 422 would raise, naming the field.
    """

    def __init__(self, body: Any) -> None:
        found = non_finite(body)
        if found is not None:
            loc, number = found
            where, message = spelled(loc) or "body", f"{number_name(number)} {NOT_JSON_NUMBER}"
            raise ValidationError(
                422,
                "Invalid request",
                f"{where}: {message}; nothing was sent",
                # Spelled as the server spells a field (`test_cases[0].metadata.n`).
                errors=[{"loc": where, "msg": message, "type": "non_finite_number"}],
            )
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
