"""Schema pieces shared by every domain: the list envelope."""

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel

ItemT = TypeVar("ItemT")


class ListPage(BaseModel, Generic[ItemT]):
    """A page of a cursor list (OpenAI's envelope); pass `last_id` as `after` for the next."""

    object: Literal["list"] = "list"
    data: list[ItemT]
    first_id: str | None
    last_id: str | None
    has_more: bool
