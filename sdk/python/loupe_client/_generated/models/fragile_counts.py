from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="FragileCounts")



@_attrs_define
class FragileCounts:
    """ A metric's matched items whose judgments straddle the threshold, per side.

        Attributes:
            baseline (int | Unset): Matched items fragile on the baseline. Default: 0.
            candidate (int | Unset): Matched items fragile on the candidate. Default: 0.
            candidate_unmatched (int | Unset): Fragile items of the candidate that the baseline lacks: not compared (so
                never set aside), but counted by a gate failing on fragile items. Default: 0.
            set_aside (int | Unset): Items left out of the comparison as fragile on either side (with `fragile: exclude`; 0
                with `include`). Default: 0.
     """

    baseline: int | Unset = 0
    candidate: int | Unset = 0
    candidate_unmatched: int | Unset = 0
    set_aside: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        baseline = self.baseline

        candidate = self.candidate

        candidate_unmatched = self.candidate_unmatched

        set_aside = self.set_aside


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if baseline is not UNSET:
            field_dict["baseline"] = baseline
        if candidate is not UNSET:
            field_dict["candidate"] = candidate
        if candidate_unmatched is not UNSET:
            field_dict["candidate_unmatched"] = candidate_unmatched
        if set_aside is not UNSET:
            field_dict["set_aside"] = set_aside

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        baseline = d.pop("baseline", UNSET)

        candidate = d.pop("candidate", UNSET)

        candidate_unmatched = d.pop("candidate_unmatched", UNSET)

        set_aside = d.pop("set_aside", UNSET)

        fragile_counts = cls(
            baseline=baseline,
            candidate=candidate,
            candidate_unmatched=candidate_unmatched,
            set_aside=set_aside,
        )


        fragile_counts.additional_properties = d
        return fragile_counts

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
