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
  from ..models.custom_data_source_config_item_schema import CustomDataSourceConfigItemSchema





T = TypeVar("T", bound="CustomDataSourceConfig")



@_attrs_define
class CustomDataSourceConfig:
    """ 
        Attributes:
            item_schema (CustomDataSourceConfigItemSchema): JSON Schema each row's `item` must match.
            type_ (Literal['custom']):
            include_sample_schema (bool | Unset):  Default: False.
     """

    item_schema: CustomDataSourceConfigItemSchema
    type_: Literal['custom']
    include_sample_schema: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.custom_data_source_config_item_schema import CustomDataSourceConfigItemSchema # noqa: PLC0415
        item_schema = self.item_schema.to_dict()

        type_ = self.type_

        include_sample_schema = self.include_sample_schema


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "item_schema": item_schema,
            "type": type_,
        })
        if include_sample_schema is not UNSET:
            field_dict["include_sample_schema"] = include_sample_schema

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.custom_data_source_config_item_schema import CustomDataSourceConfigItemSchema # noqa: PLC0415
        d = dict(src_dict)
        item_schema = CustomDataSourceConfigItemSchema.from_dict(d.pop("item_schema"))




        type_ = cast(Literal['custom'] , d.pop("type"))
        if type_ != 'custom':
            raise ValueError(f"type must match const 'custom', got '{type_}'")

        include_sample_schema = d.pop("include_sample_schema", UNSET)

        custom_data_source_config = cls(
            item_schema=item_schema,
            type_=type_,
            include_sample_schema=include_sample_schema,
        )


        custom_data_source_config.additional_properties = d
        return custom_data_source_config

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
