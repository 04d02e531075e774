from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.stored_data_source_config_type import check_stored_data_source_config_type
from ..models.stored_data_source_config_type import StoredDataSourceConfigType
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.stored_data_source_config_metadata_type_0 import StoredDataSourceConfigMetadataType0





T = TypeVar("T", bound="StoredDataSourceConfig")



@_attrs_define
class StoredDataSourceConfig:
    """ `logs` / `stored_completions`: rows hosted at OpenAI; refused with 400.

        Attributes:
            type_ (StoredDataSourceConfigType):
            metadata (None | StoredDataSourceConfigMetadataType0 | Unset):
     """

    type_: StoredDataSourceConfigType
    metadata: None | StoredDataSourceConfigMetadataType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.stored_data_source_config_metadata_type_0 import StoredDataSourceConfigMetadataType0 # noqa: PLC0415
        type_: str = self.type_

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, StoredDataSourceConfigMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
        })
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.stored_data_source_config_metadata_type_0 import StoredDataSourceConfigMetadataType0 # noqa: PLC0415
        d = dict(src_dict)
        type_ = check_stored_data_source_config_type(d.pop("type"))




        def _parse_metadata(data: object) -> None | StoredDataSourceConfigMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = StoredDataSourceConfigMetadataType0.from_dict(data)



                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StoredDataSourceConfigMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))


        stored_data_source_config = cls(
            type_=type_,
            metadata=metadata,
        )


        stored_data_source_config.additional_properties = d
        return stored_data_source_config

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
