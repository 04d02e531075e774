from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="JudgeConfig")



@_attrs_define
class JudgeConfig:
    """ 
        Attributes:
            model (str): Default judge model for metrics naming none.
     """

    model: str





    def to_dict(self) -> dict[str, Any]:
        model = self.model


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "model": model,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        model = d.pop("model")

        judge_config = cls(
            model=model,
        )

        return judge_config

