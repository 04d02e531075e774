"""Stored content as clients read it: `blob:sha256:` references turned into fetchable URLs."""

from collections.abc import Callable
from typing import Any

from app.media.store import digest_of

MediaUrl = Callable[[str], str]


def with_media_urls(content: Any, media_url: MediaUrl) -> Any:
    """A copy of stored content (a string, parts, or messages) with media references as URLs.

    Image parts get `image_url.url`; audio parts keep their `format` and get `input_audio.url`
    (their `data` would otherwise have to be base64).
    """
    if isinstance(content, list):
        return [with_media_urls(item, media_url) for item in content]
    if not isinstance(content, dict):
        return content
    kind = content.get("type")
    if kind == "image_url":
        digest = digest_of(content["image_url"]["url"])
        if digest is not None:
            return {**content, "image_url": {**content["image_url"], "url": media_url(digest)}}
        return content
    if kind == "input_audio":
        audio = content["input_audio"]
        digest = digest_of(audio.get("data") or "")
        if digest is not None:
            rest = {k: v for k, v in audio.items() if k != "data"}
            return {**content, "input_audio": {**rest, "url": media_url(digest)}}
        return content
    if "content" in content:  # a chat message
        return {**content, "content": with_media_urls(content["content"], media_url)}
    return content
