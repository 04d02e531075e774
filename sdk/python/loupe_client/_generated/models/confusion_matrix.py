from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ConfusionMatrix")



@_attrs_define
class ConfusionMatrix:
    """ Rows the people's verdict, columns the judge's, each [fail, pass] (scikit-learn's
    layout): `matrix[1][0]` are items people pass and the judge fails.

        Attributes:
            matrix (list[list[int]]):
            labels (list[str] | Unset):
     """

    matrix: list[list[int]]
    labels: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        matrix = []
        for matrix_item_data in self.matrix:
            matrix_item = matrix_item_data


            matrix.append(matrix_item)



        labels: list[str] | Unset = UNSET
        if not isinstance(self.labels, Unset):
            labels = self.labels




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "matrix": matrix,
        })
        if labels is not UNSET:
            field_dict["labels"] = labels

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        matrix = []
        _matrix = d.pop("matrix")
        for matrix_item_data in (_matrix):
            matrix_item = cast(list[int], matrix_item_data)

            matrix.append(matrix_item)


        labels = cast(list[str], d.pop("labels", UNSET))


        confusion_matrix = cls(
            matrix=matrix,
            labels=labels,
        )


        confusion_matrix.additional_properties = d
        return confusion_matrix

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
