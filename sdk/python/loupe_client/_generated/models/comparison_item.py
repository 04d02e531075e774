from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.item_side import ItemSide





T = TypeVar("T", bound="ComparisonItem")



@_attrs_define
class ComparisonItem:
    """ One matched item whose score or pass/fail moved.

        Attributes:
            baseline (ItemSide):
            candidate (ItemSide):
            difference (float): candidate − baseline score.
            id (str): A cursor for `after`.
            metric (str):
            test_case_id (str):
            object_ (Literal['comparison.item'] | Unset):  Default: 'comparison.item'.
     """

    baseline: ItemSide
    candidate: ItemSide
    difference: float
    id: str
    metric: str
    test_case_id: str
    object_: Literal['comparison.item'] | Unset = 'comparison.item'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.item_side import ItemSide # noqa: PLC0415
        baseline = self.baseline.to_dict()

        candidate = self.candidate.to_dict()

        difference = self.difference

        id = self.id

        metric = self.metric

        test_case_id = self.test_case_id

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "baseline": baseline,
            "candidate": candidate,
            "difference": difference,
            "id": id,
            "metric": metric,
            "test_case_id": test_case_id,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.item_side import ItemSide # noqa: PLC0415
        d = dict(src_dict)
        baseline = ItemSide.from_dict(d.pop("baseline"))




        candidate = ItemSide.from_dict(d.pop("candidate"))




        difference = d.pop("difference")

        id = d.pop("id")

        metric = d.pop("metric")

        test_case_id = d.pop("test_case_id")

        object_ = cast(Literal['comparison.item'] | Unset , d.pop("object", UNSET))
        if object_ != 'comparison.item'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'comparison.item', got '{object_}'")

        comparison_item = cls(
            baseline=baseline,
            candidate=candidate,
            difference=difference,
            id=id,
            metric=metric,
            test_case_id=test_case_id,
            object_=object_,
        )


        comparison_item.additional_properties = d
        return comparison_item

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
