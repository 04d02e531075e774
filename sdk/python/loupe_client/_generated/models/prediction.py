from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Prediction")



@_attrs_define
class Prediction:
    """ 
        Attributes:
            index (int): The sample's row index within its subset.
            prediction (str):
            subset (None | str | Unset): The sample's subset; may be left out if the dataset has one.
     """

    index: int
    prediction: str
    subset: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        index = self.index

        prediction = self.prediction

        subset: None | str | Unset
        if isinstance(self.subset, Unset):
            subset = UNSET
        else:
            subset = self.subset


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "index": index,
            "prediction": prediction,
        })
        if subset is not UNSET:
            field_dict["subset"] = subset

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        index = d.pop("index")

        prediction = d.pop("prediction")

        def _parse_subset(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        subset = _parse_subset(d.pop("subset", UNSET))


        prediction = cls(
            index=index,
            prediction=prediction,
            subset=subset,
        )

        return prediction

