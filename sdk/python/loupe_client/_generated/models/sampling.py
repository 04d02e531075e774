from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="Sampling")



@_attrs_define
class Sampling:
    """ Which matching calls are judged: a share of traces, chosen by their trace id, so every
    API process samples a trace the same way and a trace's calls are judged together.

        Attributes:
            rate (float): 0 judges none, 1 every matching call.
     """

    rate: float





    def to_dict(self) -> dict[str, Any]:
        rate = self.rate


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "rate": rate,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rate = d.pop("rate")

        sampling = cls(
            rate=rate,
        )

        return sampling

