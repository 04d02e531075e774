from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ReviewLabelCreate")



@_attrs_define
class ReviewLabelCreate:
    """ 
        Attributes:
            value (bool | float): On the metric's own scale (its score range: [0, 1] for most metrics, a score_model's
                `range`), or `true` / `false` for pass / fail.
            rationale (None | str | Unset): Why, in your words.
     """

    value: bool | float
    rationale: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        value: bool | float
        value = self.value

        rationale: None | str | Unset
        if isinstance(self.rationale, Unset):
            rationale = UNSET
        else:
            rationale = self.rationale


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "value": value,
        })
        if rationale is not UNSET:
            field_dict["rationale"] = rationale

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_value(data: object) -> bool | float:
            return cast(bool | float, data)

        value = _parse_value(d.pop("value"))


        def _parse_rationale(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        rationale = _parse_rationale(d.pop("rationale", UNSET))


        review_label_create = cls(
            value=value,
            rationale=rationale,
        )

        return review_label_create

