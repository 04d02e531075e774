from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="SsimSpec")



@_attrs_define
class SsimSpec:
    """ 
        Attributes:
            type_ (Literal['ssim']):
            name (None | str | Unset): Name results are reported under; defaults to the metric type.
            threshold (float | Unset):  Default: 0.9.
     """

    type_: Literal['ssim']
    name: None | str | Unset = UNSET
    threshold: float | Unset = 0.9





    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

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
        if name is not UNSET:
            field_dict["name"] = name
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal['ssim'] , d.pop("type"))
        if type_ != 'ssim':
            raise ValueError(f"type must match const 'ssim', got '{type_}'")

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        threshold = d.pop("threshold", UNSET)

        ssim_spec = cls(
            type_=type_,
            name=name,
            threshold=threshold,
        )

        return ssim_spec

