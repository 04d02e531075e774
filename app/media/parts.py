"""Content parts in OpenAI's shape: a string, a text part or an image_url part."""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator

# Union members are tagged with an "@" name; the problem+json formatter drops those
# segments so error locations read `actual_output[1].image_url.url`.


class TextPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["text"]
    text: str


class ImageUrl(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=1)
    detail: Literal["auto", "low", "high"] | None = None

    @field_validator("url")
    @classmethod
    def _scheme(cls, url: str) -> str:
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":
            if not url[5:].lower().startswith("image/") or ";base64," not in url[:100]:
                raise ValueError("a data URL must be data:image/<type>;base64,<data>")
        elif scheme not in ("http", "https"):
            raise ValueError("must be a data:image/...;base64 URL or an http(s) URL")
        return url


class ImageUrlPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["image_url"]
    image_url: ImageUrl


def _part_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "@string"
    if isinstance(value, dict):
        return {"text": "@text", "image_url": "@image_url"}.get(value.get("type"))  # type: ignore[arg-type]
    if isinstance(value, TextPart):
        return "@text"
    if isinstance(value, ImageUrlPart):
        return "@image_url"
    return None


Part = Annotated[
    Annotated[str, Tag("@string")]
    | Annotated[TextPart, Tag("@text")]
    | Annotated[ImageUrlPart, Tag("@image_url")],
    Discriminator(
        _part_tag,
        custom_error_type="invalid_part",
        custom_error_message=(
            'a part must be a string, {"type":"text","text":...} or '
            '{"type":"image_url","image_url":{"url":...}}'
        ),
    ),
]


def _content_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "@string"
    if isinstance(value, list):
        return "@parts"
    return None


Content = Annotated[
    Annotated[str, Tag("@string")] | Annotated[list[Part], Tag("@parts"), Field(min_length=1)],
    Discriminator(
        _content_tag,
        custom_error_type="invalid_content",
        custom_error_message="must be a string or a non-empty list of parts",
    ),
]

# A context node is a string or a list of parts, exactly like a content field.
ContextNode = Content


def text_of(content: Any) -> str:
    """The text of a content value (string or list of parts), images left out."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    texts: list[str] = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") == "text":
            texts.append(part["text"])
        elif isinstance(part, TextPart):
            texts.append(part.text)
    return "\n".join(texts)
