from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AlignmentReportKappaDifference")



@_attrs_define
class AlignmentReportKappaDifference:
    """ κ after − κ before over the same items, `{value, ci95, note}`: a 95% paired percentile bootstrap over the items
    (both κ from each resample; 2,000, seeded), null below 10 items. An interval above 0 says the candidate agrees with
    the people better beyond what the choice of items explains; the two sides' own intervals overlapping or not says
    little, as they share their items.

     """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        
        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        alignment_report_kappa_difference = cls(
        )


        alignment_report_kappa_difference.additional_properties = d
        return alignment_report_kappa_difference

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
