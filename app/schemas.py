"""Schema pieces shared by every domain: the list envelope, URL checks, ISO 8601 moments."""

from datetime import UTC, date, datetime
from typing import Annotated, Any, Generic, Literal, Self, TypeVar
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator
from pydantic_core import PydanticCustomError

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


def utc_moment(value: str) -> datetime:
    """An ISO 8601 date or time as a UTC moment (UTC if it names no offset).

    Raises PydanticCustomError (`invalid_datetime`, `datetime_out_of_range`) in plain words:
    pydantic's own datetime reads a number as seconds since 1970, so `until=20261129` meant a
    day in August 1970.
    """
    # An unencoded `+` of an offset in a query reaches us as a space (`...T09:00:00 01:00`).
    text = value.replace(" ", "+") if "T" in value else value
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise PydanticCustomError(
            "invalid_datetime",
            "{value} is not an ISO 8601 date or time (such as 2026-11-26T09:00:00Z)",
            {"value": repr(value[:40])},
        ) from None
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        # 9999-12-31T23:00:00-14:00 is in the year 10000 in UTC.
        raise PydanticCustomError(
            "datetime_out_of_range",
            "{value} is outside the years 1 to 9999 once in UTC",
            {"value": repr(value[:40])},
        ) from None


def _moment(value: Any) -> Any:
    return utc_moment(value) if isinstance(value, str) else value


def _day(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PydanticCustomError(
            "invalid_date",
            "{value} is not an ISO 8601 date (such as 2026-11-26)",
            {"value": repr(value[:40])},
        ) from None


# Query parameters naming a moment or a day: ISO 8601 only, never a number read as seconds.
Moment = Annotated[datetime, BeforeValidator(_moment)]
Day = Annotated[date, BeforeValidator(_day)]
