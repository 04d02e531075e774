from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.comparison_fragile import check_comparison_fragile
from ..models.comparison_fragile import ComparisonFragile
from ..models.comparison_kind import check_comparison_kind
from ..models.comparison_kind import ComparisonKind
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.metric_comparison import MetricComparison
  from ..models.unmatched import Unmatched





T = TypeVar("T", bound="Comparison")



@_attrs_define
class Comparison:
    """ 
        Attributes:
            alpha (float):
            baseline_id (str):
            candidate_id (str):
            created_at (datetime.datetime):
            id (str):
            kind (ComparisonKind): What was compared: evaluations, runs, or OpenAI Evals runs (`evalrun_` ids).
            metrics (list[MetricComparison]):
            unmatched (Unmatched): Items never compared (on one side only, or with an id a side repeats), and metrics
                never compared (on one side only, or of another type on the other side).
            fragile (ComparisonFragile | Unset): What was done with fragile items, as asked. Default: 'include'.
            object_ (Literal['comparison'] | Unset):  Default: 'comparison'.
     """

    alpha: float
    baseline_id: str
    candidate_id: str
    created_at: datetime.datetime
    id: str
    kind: ComparisonKind
    metrics: list[MetricComparison]
    unmatched: Unmatched
    fragile: ComparisonFragile | Unset = 'include'
    object_: Literal['comparison'] | Unset = 'comparison'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metric_comparison import MetricComparison # noqa: PLC0415
        from ..models.unmatched import Unmatched # noqa: PLC0415
        alpha = self.alpha

        baseline_id = self.baseline_id

        candidate_id = self.candidate_id

        created_at = self.created_at.isoformat()

        id = self.id

        kind: str = self.kind

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        unmatched = self.unmatched.to_dict()

        fragile: str | Unset = UNSET
        if not isinstance(self.fragile, Unset):
            fragile = self.fragile


        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "alpha": alpha,
            "baseline_id": baseline_id,
            "candidate_id": candidate_id,
            "created_at": created_at,
            "id": id,
            "kind": kind,
            "metrics": metrics,
            "unmatched": unmatched,
        })
        if fragile is not UNSET:
            field_dict["fragile"] = fragile
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_comparison import MetricComparison # noqa: PLC0415
        from ..models.unmatched import Unmatched # noqa: PLC0415
        d = dict(src_dict)
        alpha = d.pop("alpha")

        baseline_id = d.pop("baseline_id")

        candidate_id = d.pop("candidate_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        id = d.pop("id")

        kind = check_comparison_kind(d.pop("kind"))




        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = MetricComparison.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        unmatched = Unmatched.from_dict(d.pop("unmatched"))




        _fragile = d.pop("fragile", UNSET)
        fragile: ComparisonFragile | Unset
        if isinstance(_fragile,  Unset):
            fragile = UNSET
        else:
            fragile = check_comparison_fragile(_fragile)




        object_ = cast(Literal['comparison'] | Unset , d.pop("object", UNSET))
        if object_ != 'comparison'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'comparison', got '{object_}'")

        comparison = cls(
            alpha=alpha,
            baseline_id=baseline_id,
            candidate_id=candidate_id,
            created_at=created_at,
            id=id,
            kind=kind,
            metrics=metrics,
            unmatched=unmatched,
            fragile=fragile,
            object_=object_,
        )


        comparison.additional_properties = d
        return comparison

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
