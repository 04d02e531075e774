"""Schema pieces shared by every domain: the list envelope, URL checks."""

from typing import Any, Generic, Literal, Self, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel

ItemT = TypeVar("ItemT")


class ListPage(BaseModel, Generic[ItemT]):
    """A page of a cursor list (OpenAI's envelope); pass `last_id` as `after` for the next."""

    object: Literal["list"] = "list"
    data: list[ItemT]
    first_id: str | None
    last_id: str | None
    has_more: bool

    @classmethod
    def of(cls, data: list[Any], has_more: bool) -> Self:
        """The envelope for `data`; items need an `id`."""
        return cls(
            data=data,
            first_id=data[0].id if data else None,
            last_id=data[-1].id if data else None,
            has_more=has_more,
        )


def http_url(url: str, credentials_hint: str = "") -> str:
    """`url` if it is an http(s) URL without credentials; raises ValueError otherwise."""
    lowered = url.lower()
    if not (lowered.startswith("https://") or lowered.startswith("http://")):
        raise ValueError("must be an http(s) URL")
    if "@" in url.split("/", 3)[2]:
        raise ValueError("must not carry credentials" + credentials_hint)
    parts = urlsplit(url)
    if not parts.hostname:
        raise ValueError("must name a host")
    try:
        port = parts.port
    except ValueError:
        port = 0  # not a number, or past 65535
    if port == 0:
        raise ValueError("must have a port from 1 to 65535")
    return url
