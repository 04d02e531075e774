from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ReviewerProgress")



@_attrs_define
class ReviewerProgress:
    """ 
        Attributes:
            actor (str): `person:<id>` or `key:<id>`.
            labelled (int):
            name (None | str): The person's email or the key's name.
            reserved (int):
     """

    actor: str
    labelled: int
    name: None | str
    reserved: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        labelled = self.labelled

        name: None | str
        name = self.name

        reserved = self.reserved


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor": actor,
            "labelled": labelled,
            "name": name,
            "reserved": reserved,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        actor = d.pop("actor")

        labelled = d.pop("labelled")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        reserved = d.pop("reserved")

        reviewer_progress = cls(
            actor=actor,
            labelled=labelled,
            name=name,
            reserved=reserved,
        )


        reviewer_progress.additional_properties = d
        return reviewer_progress

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
