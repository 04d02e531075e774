from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="PsnrSpec")



@_attrs_define
class PsnrSpec:
    """ 
        Attributes:
            type_ (Literal['psnr']):
            max_db (float | Unset): The score of identical images. Default: 100.0.
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            threshold (float | Unset): In dB: `passed = psnr >= threshold`. Default: 30.0.
     """

    type_: Literal['psnr']
    max_db: float | Unset = 100.0
    name: None | str | Unset = UNSET
    threshold: float | Unset = 30.0





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        max_db = self.max_db

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "type": type_,
        })
        if max_db is not UNSET:
            field_dict["max_db"] = max_db
        if name is not UNSET:
            field_dict["name"] = name
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['psnr'] , d.pop("type"))
        if type_ != 'psnr':
            raise ValueError(f"type must match const 'psnr', got '{type_}'")

        max_db = d.pop("max_db", UNSET)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        threshold = d.pop("threshold", UNSET)

        psnr_spec = cls(
            type_=type_,
            max_db=max_db,
            name=name,
            threshold=threshold,
        )

        return psnr_spec

