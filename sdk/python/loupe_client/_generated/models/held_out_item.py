from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.held_out_item_labels import HeldOutItemLabels





T = TypeVar("T", bound="HeldOutItem")



@_attrs_define
class HeldOutItem:
    """ One held-out item: people's labels and both versions' scores.

        Attributes:
            candidate (float | None): The candidate's score (null: errored).
            current (float | None): The current version's score (null: errored).
            item_key (str):
            labels (HeldOutItemLabels): Who labelled it -> their value.
            test_case_id (str):
     """

    candidate: float | None
    current: float | None
    item_key: str
    labels: HeldOutItemLabels
    test_case_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.held_out_item_labels import HeldOutItemLabels # noqa: PLC0415
        candidate: float | None
        candidate = self.candidate

        current: float | None
        current = self.current

        item_key = self.item_key

        labels = self.labels.to_dict()

        test_case_id = self.test_case_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidate": candidate,
            "current": current,
            "item_key": item_key,
            "labels": labels,
            "test_case_id": test_case_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.held_out_item_labels import HeldOutItemLabels # noqa: PLC0415
        d = dict(src_dict)
        def _parse_candidate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        candidate = _parse_candidate(d.pop("candidate"))


        def _parse_current(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        current = _parse_current(d.pop("current"))


        item_key = d.pop("item_key")

        labels = HeldOutItemLabels.from_dict(d.pop("labels"))




        test_case_id = d.pop("test_case_id")

        held_out_item = cls(
            candidate=candidate,
            current=current,
            item_key=item_key,
            labels=labels,
            test_case_id=test_case_id,
        )


        held_out_item.additional_properties = d
        return held_out_item

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
