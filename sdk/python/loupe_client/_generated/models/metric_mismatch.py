from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="MetricMismatch")



@_attrs_define
class MetricMismatch:
    """ A name both sides give to metrics of different types: not compared.

        Attributes:
            baseline_type (str):
            candidate_type (str):
            metric (str):
            reason (str):
     """

    baseline_type: str
    candidate_type: str
    metric: str
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        baseline_type = self.baseline_type

        candidate_type = self.candidate_type

        metric = self.metric

        reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "baseline_type": baseline_type,
            "candidate_type": candidate_type,
            "metric": metric,
            "reason": reason,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        baseline_type = d.pop("baseline_type")

        candidate_type = d.pop("candidate_type")

        metric = d.pop("metric")

        reason = d.pop("reason")

        metric_mismatch = cls(
            baseline_type=baseline_type,
            candidate_type=candidate_type,
            metric=metric,
            reason=reason,
        )


        metric_mismatch.additional_properties = d
        return metric_mismatch

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
