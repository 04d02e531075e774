"""Content parts in OpenAI's shape: a string, a text part or an image_url part."""

import re
from typing import Annotated, Any, Literal

import httpx
from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator

# Union members are tagged with an "@" name; the problem+json formatter drops those
# segments so error locations read `actual_output[1].image_url.url`.

_DATA_URL = re.compile(r"data:image/(png|jpeg|webp|gif);base64,", re.IGNORECASE)
# A stored image as Loupe references it (a dataset row read before rows gave media URLs).
_REFERENCE = re.compile(r"blob:sha256:[0-9a-fA-F]{64}")


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
        # Syntax only; the bytes are checked (and URLs fetched) at submit by app.media.ingest.
        scheme = url.split(":", 1)[0].lower() if ":" in url else ""
        if scheme == "data":
            if _DATA_URL.match(url) is None:
                raise ValueError("a data URL must be data:image/{png,jpeg,webp,gif};base64,<data>")
        elif scheme == "blob":
            # Read from the store, the tenant's own blobs only (app.media.own), never fetched.
            if _REFERENCE.fullmatch(url) is None:
                raise ValueError("a stored image's reference is blob:sha256:<64 hex digits>")
        elif scheme in ("http", "https"):
            if len(url) > 2048:
                raise ValueError("an image URL may be at most 2048 characters")
            try:
                parsed = httpx.URL(url)
            except (httpx.InvalidURL, ValueError) as exc:
                raise ValueError(f"not a valid URL: {exc}") from exc
            if not parsed.raw_host:
                raise ValueError("the URL has no host")
            if parsed.userinfo:
                raise ValueError("the URL must not carry credentials")
        else:
            # Never file:, bare paths or other schemes: the server's disk and network are not
            # the client's to read.
            raise ValueError(
                "must be a data:image/...;base64 URL, an http(s) URL or a blob:sha256: reference"
            )
        return url


class ImageUrlPart(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["image_url"]
    image_url: ImageUrl
    # Read back with every stored image; taken so a case read back can be sent again as it
    # reads, and never kept: Loupe writes its own when it stores the image.
    blob: dict[str, Any] | None = Field(
        default=None,
        exclude=True,
        description="What Loupe did to a stored image, as read back; ignored when submitted.",
    )


def _part_tag(value: Any) -> str | None:
    if isinstance(value, str):
        return "@string"
    if isinstance(value, dict):
        kind = value.get("type")
        # A type that is an object or a list names no member (and cannot be looked up).
        if not isinstance(kind, str):
            return None
        return {"text": "@text", "image_url": "@image_url"}.get(kind)
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
