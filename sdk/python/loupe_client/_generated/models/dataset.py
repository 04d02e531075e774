from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.dataset_format import check_dataset_format
from ..models.dataset_format import DatasetFormat
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.dataset_subset import DatasetSubset





T = TypeVar("T", bound="Dataset")



@_attrs_define
class Dataset:
    """ 
        Attributes:
            created_at (datetime.datetime):
            filename (str):
            format_ (DatasetFormat):
            id (str):
            name (str):
            row_count (int):
            subsets (list[DatasetSubset]):
            object_ (Literal['dataset'] | Unset):  Default: 'dataset'.
     """

    created_at: datetime.datetime
    filename: str
    format_: DatasetFormat
    id: str
    name: str
    row_count: int
    subsets: list[DatasetSubset]
    object_: Literal['dataset'] | Unset = 'dataset'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.dataset_subset import DatasetSubset # noqa: PLC0415
        created_at = self.created_at.isoformat()

        filename = self.filename

        format_: str = self.format_

        id = self.id

        name = self.name

        row_count = self.row_count

        subsets = []
        for subsets_item_data in self.subsets:
            subsets_item = subsets_item_data.to_dict()
            subsets.append(subsets_item)



        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "filename": filename,
            "format": format_,
            "id": id,
            "name": name,
            "row_count": row_count,
            "subsets": subsets,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.dataset_subset import DatasetSubset # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        filename = d.pop("filename")

        format_ = check_dataset_format(d.pop("format"))




        id = d.pop("id")

        name = d.pop("name")

        row_count = d.pop("row_count")

        subsets = []
        _subsets = d.pop("subsets")
        for subsets_item_data in (_subsets):
            subsets_item = DatasetSubset.from_dict(subsets_item_data)



            subsets.append(subsets_item)


        object_ = cast(Literal['dataset'] | Unset , d.pop("object", UNSET))
        if object_ != 'dataset'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'dataset', got '{object_}'")

        dataset = cls(
            created_at=created_at,
            filename=filename,
            format_=format_,
            id=id,
            name=name,
            row_count=row_count,
            subsets=subsets,
            object_=object_,
        )


        dataset.additional_properties = d
        return dataset

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
