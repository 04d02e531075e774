from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="NearThreshold")



@_attrs_define
class NearThreshold:
    """ 
        Attributes:
            width (float): Items whose |score - threshold| is at most this.
     """

    width: float





    def to_dict(self) -> dict[str, Any]:
        width = self.width


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "width": width,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        width = d.pop("width")

        near_threshold = cls(
            width=width,
        )

        return near_threshold

