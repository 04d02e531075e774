from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AlignmentSplit")



@_attrs_define
class AlignmentSplit:
    """ How the labelled items were split (grouped: items sharing an image stay together).

        Attributes:
            held_out (list[str]): Item keys judged by both versions.
            held_out_share (float):
            proposal (list[str]): Item keys that proposed the candidate.
            seed (int):
     """

    held_out: list[str]
    held_out_share: float
    proposal: list[str]
    seed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        held_out = self.held_out



        held_out_share = self.held_out_share

        proposal = self.proposal



        seed = self.seed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "held_out": held_out,
            "held_out_share": held_out_share,
            "proposal": proposal,
            "seed": seed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        held_out = cast(list[str], d.pop("held_out"))


        held_out_share = d.pop("held_out_share")

        proposal = cast(list[str], d.pop("proposal"))


        seed = d.pop("seed")

        alignment_split = cls(
            held_out=held_out,
            held_out_share=held_out_share,
            proposal=proposal,
            seed=seed,
        )


        alignment_split.additional_properties = d
        return alignment_split

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
