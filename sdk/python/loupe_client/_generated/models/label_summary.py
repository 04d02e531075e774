from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="LabelSummary")



@_attrs_define
class LabelSummary:
    """ What people's labels say about a result's item for its metric version (labels given on
    any evaluation's result of the same content and version).

        Attributes:
            count (int):
            failed (int): Labels saying fail.
            item_key (str): The result's item: GET /v1/labels?metric_version=…&item_key=… lists the labels counted here.
            mean_value (float | None): The mean of the labels with a value.
            passed (int): Labels saying pass.
     """

    count: int
    failed: int
    item_key: str
    mean_value: float | None
    passed: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        count = self.count

        failed = self.failed

        item_key = self.item_key

        mean_value: float | None
        mean_value = self.mean_value

        passed = self.passed


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "count": count,
            "failed": failed,
            "item_key": item_key,
            "mean_value": mean_value,
            "passed": passed,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        failed = d.pop("failed")

        item_key = d.pop("item_key")

        def _parse_mean_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_value = _parse_mean_value(d.pop("mean_value"))


        passed = d.pop("passed")

        label_summary = cls(
            count=count,
            failed=failed,
            item_key=item_key,
            mean_value=mean_value,
            passed=passed,
        )


        label_summary.additional_properties = d
        return label_summary

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
