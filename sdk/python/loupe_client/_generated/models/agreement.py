from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Agreement")



@_attrs_define
class Agreement:
    """ How far a panel's members agree over the test cases they all scored.

        Attributes:
            alpha (float | None): Krippendorff's alpha (interval level) of the members' scores; null below two items rated
                by two members, or when every score is the same.
            items (int): Test cases scored by at least two members.
            low (bool | None): alpha below 0.667 (Krippendorff's bar).
            raters (int):
     """

    alpha: float | None
    items: int
    low: bool | None
    raters: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        alpha: float | None
        alpha = self.alpha

        items = self.items

        low: bool | None
        low = self.low

        raters = self.raters


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "alpha": alpha,
            "items": items,
            "low": low,
            "raters": raters,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_alpha(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        alpha = _parse_alpha(d.pop("alpha"))


        items = d.pop("items")

        def _parse_low(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        low = _parse_low(d.pop("low"))


        raters = d.pop("raters")

        agreement = cls(
            alpha=alpha,
            items=items,
            low=low,
            raters=raters,
        )


        agreement.additional_properties = d
        return agreement

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
