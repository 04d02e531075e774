from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="RubricItem")



@_attrs_define
class RubricItem:
    """ 
        Attributes:
            expected_outcome (str):
            score_range (list[int]):
     """

    expected_outcome: str
    score_range: list[int]





    def to_dict(self) -> dict[str, Any]:
        expected_outcome = self.expected_outcome

        score_range = []
        for score_range_item_data in self.score_range:
            score_range_item: int
            score_range_item = score_range_item_data
            score_range.append(score_range_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "expected_outcome": expected_outcome,
            "score_range": score_range,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expected_outcome = d.pop("expected_outcome")

        score_range = []
        _score_range = d.pop("score_range")
        for score_range_item_data in (_score_range):
            def _parse_score_range_item(data: object) -> int:
                return cast(int, data)

            score_range_item = _parse_score_range_item(score_range_item_data)

            score_range.append(score_range_item)


        rubric_item = cls(
            expected_outcome=expected_outcome,
            score_range=score_range,
        )

        return rubric_item

