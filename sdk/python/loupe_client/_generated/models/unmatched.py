from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.metric_mismatch import MetricMismatch
  from ..models.unmatched_item import UnmatchedItem





T = TypeVar("T", bound="Unmatched")



@_attrs_define
class Unmatched:
    """ Items never compared (on one side only, or with an id a side repeats), and metrics
    never compared (on one side only, or of another type on the other side).

        Attributes:
            baseline_only (int):
            candidate_only (int):
            items (list[UnmatchedItem]): The first 100 of them.
            metrics (list[str]): Metric names not compared: only one side has them, or the sides' metrics of that name
                differ in type (`mismatched_metrics`).
            duplicate_ids (int | Unset): Test-case ids that name several cases on a side: their items are left out on both
                sides. Default: 0.
            mismatched_metrics (list[MetricMismatch] | Unset): Names both sides use for metrics of different types, with the
                reason.
            missing_metrics (list[str] | Unset): The baseline's metrics the candidate has no metric of the same name and
                type for (dropped, or of another type: `mismatched_metrics`): no verdict covers them. `loupe-client compare`
                fails on them unless given --allow-missing-metrics (or --metric names what to gate on). Empty in comparisons
                stored before it was kept.
     """

    baseline_only: int
    candidate_only: int
    items: list[UnmatchedItem]
    metrics: list[str]
    duplicate_ids: int | Unset = 0
    mismatched_metrics: list[MetricMismatch] | Unset = UNSET
    missing_metrics: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metric_mismatch import MetricMismatch # noqa: PLC0415
        from ..models.unmatched_item import UnmatchedItem # noqa: PLC0415
        baseline_only = self.baseline_only

        candidate_only = self.candidate_only

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        metrics = self.metrics



        duplicate_ids = self.duplicate_ids

        mismatched_metrics: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.mismatched_metrics, Unset):
            mismatched_metrics = []
            for mismatched_metrics_item_data in self.mismatched_metrics:
                mismatched_metrics_item = mismatched_metrics_item_data.to_dict()
                mismatched_metrics.append(mismatched_metrics_item)



        missing_metrics: list[str] | Unset = UNSET
        if not isinstance(self.missing_metrics, Unset):
            missing_metrics = self.missing_metrics




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "baseline_only": baseline_only,
            "candidate_only": candidate_only,
            "items": items,
            "metrics": metrics,
        })
        if duplicate_ids is not UNSET:
            field_dict["duplicate_ids"] = duplicate_ids
        if mismatched_metrics is not UNSET:
            field_dict["mismatched_metrics"] = mismatched_metrics
        if missing_metrics is not UNSET:
            field_dict["missing_metrics"] = missing_metrics

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_mismatch import MetricMismatch # noqa: PLC0415
        from ..models.unmatched_item import UnmatchedItem # noqa: PLC0415
        d = dict(src_dict)
        baseline_only = d.pop("baseline_only")

        candidate_only = d.pop("candidate_only")

        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = UnmatchedItem.from_dict(items_item_data)



            items.append(items_item)


        metrics = cast(list[str], d.pop("metrics"))


        duplicate_ids = d.pop("duplicate_ids", UNSET)

        _mismatched_metrics = d.pop("mismatched_metrics", UNSET)
        mismatched_metrics: list[MetricMismatch] | Unset = UNSET
        if _mismatched_metrics is not UNSET:
            mismatched_metrics = []
            for mismatched_metrics_item_data in _mismatched_metrics:
                mismatched_metrics_item = MetricMismatch.from_dict(mismatched_metrics_item_data)



                mismatched_metrics.append(mismatched_metrics_item)


        missing_metrics = cast(list[str], d.pop("missing_metrics", UNSET))


        unmatched = cls(
            baseline_only=baseline_only,
            candidate_only=candidate_only,
            items=items,
            metrics=metrics,
            duplicate_ids=duplicate_ids,
            mismatched_metrics=mismatched_metrics,
            missing_metrics=missing_metrics,
        )


        unmatched.additional_properties = d
        return unmatched

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
