from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.comparison import Comparison





T = TypeVar("T", bound="ComparisonList")



@_attrs_define
class ComparisonList:
    """ 
        Attributes:
            data (list[Comparison]):
            first_id (None | str):
            has_more (bool):
            last_id (None | str):
            object_ (Literal['list'] | Unset):  Default: 'list'.
     """

    data: list[Comparison]
    first_id: None | str
    has_more: bool
    last_id: None | str
    object_: Literal['list'] | Unset = 'list'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.comparison import Comparison # noqa: PLC0415
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



        first_id: None | str
        first_id = self.first_id

        has_more = self.has_more

        last_id: None | str
        last_id = self.last_id

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "data": data,
            "first_id": first_id,
            "has_more": has_more,
            "last_id": last_id,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.comparison import Comparison # noqa: PLC0415
        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = Comparison.from_dict(data_item_data)



            data.append(data_item)


        def _parse_first_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        first_id = _parse_first_id(d.pop("first_id"))


        has_more = d.pop("has_more")

        def _parse_last_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_id = _parse_last_id(d.pop("last_id"))


        object_ = cast(Literal['list'] | Unset , d.pop("object", UNSET))
        if object_ != 'list'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'list', got '{object_}'")

        comparison_list = cls(
            data=data,
            first_id=first_id,
            has_more=has_more,
            last_id=last_id,
            object_=object_,
        )


        comparison_list.additional_properties = d
        return comparison_list

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
