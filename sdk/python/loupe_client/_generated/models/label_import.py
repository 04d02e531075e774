from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import Literal, cast






T = TypeVar("T", bound="LabelImport")



@_attrs_define
class LabelImport:
    """ 
        Attributes:
            created (int): Labels stored new.
            updated (int): Labels of the same item, version and caller replaced.
            object_ (Literal['label.import'] | Unset):  Default: 'label.import'.
     """

    created: int
    updated: int
    object_: Literal['label.import'] | Unset = 'label.import'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created = self.created

        updated = self.updated

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created": created,
            "updated": updated,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = d.pop("created")

        updated = d.pop("updated")

        object_ = cast(Literal['label.import'] | Unset , d.pop("object", UNSET))
        if object_ != 'label.import'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'label.import', got '{object_}'")

        label_import = cls(
            created=created,
            updated=updated,
            object_=object_,
        )


        label_import.additional_properties = d
        return label_import

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
