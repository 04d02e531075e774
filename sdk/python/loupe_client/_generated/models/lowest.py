from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Lowest")



@_attrs_define
class Lowest:
    """ 
        Attributes:
            share (float): The lowest-scored share of the items.
     """

    share: float





    def to_dict(self) -> dict[str, Any]:
        share = self.share


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "share": share,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        share = d.pop("share")

        lowest = cls(
            share=share,
        )

        return lowest

