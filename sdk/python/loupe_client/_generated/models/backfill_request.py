from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="BackfillRequest")



@_attrs_define
class BackfillRequest:
    """ Which kept calls a backfill takes up: received from `since` to `until`.

        Attributes:
            after (None | str | Unset): A truncated backfill's `next_after`: go on after the calls it considered.
            since (None | str | Unset): ISO 8601 start (UTC if no offset), at most LOUPE_RETENTION_DAYS or 31 days back;
                default 24 hours before `until`.
            until (None | str | Unset): ISO 8601 end, excluded; default now.
     """

    after: None | str | Unset = UNSET
    since: None | str | Unset = UNSET
    until: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        after: None | str | Unset
        if isinstance(self.after, Unset):
            after = UNSET
        else:
            after = self.after

        since: None | str | Unset
        if isinstance(self.since, Unset):
            since = UNSET
        else:
            since = self.since

        until: None | str | Unset
        if isinstance(self.until, Unset):
            until = UNSET
        else:
            until = self.until


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if after is not UNSET:
            field_dict["after"] = after
        if since is not UNSET:
            field_dict["since"] = since
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_after(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        after = _parse_after(d.pop("after", UNSET))


        def _parse_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        since = _parse_since(d.pop("since", UNSET))


        def _parse_until(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        until = _parse_until(d.pop("until", UNSET))


        backfill_request = cls(
            after=after,
            since=since,
            until=until,
        )

        return backfill_request

