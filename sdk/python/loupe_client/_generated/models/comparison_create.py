from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.comparison_create_fragile import check_comparison_create_fragile
from ..models.comparison_create_fragile import ComparisonCreateFragile
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ComparisonCreate")



@_attrs_define
class ComparisonCreate:
    """ 
        Attributes:
            baseline_id (str): An evaluation or run id.
            candidate_id (str): Of the same kind as the baseline.
            alpha (float | Unset): Family-wise error rate (Holm) for the verdicts. Default: 0.05.
            fragile (ComparisonCreateFragile | Unset): `include` (the default): fragile items (results of a metric judged
                more than once whose judgments straddle the threshold) are compared like the others. `exclude`: a matched item
                fragile on either side is set aside from its metric's paired comparison and its items. Either way each metric's
                `fragile` counts them. Default: 'include'.
            metrics (list[str] | None | Unset): Metric names to compare; default every metric both sides have. An OpenAI
                eval run's criteria may be named by their name or by their id (`<name>-<uuid>`).
     """

    baseline_id: str
    candidate_id: str
    alpha: float | Unset = 0.05
    fragile: ComparisonCreateFragile | Unset = 'include'
    metrics: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        baseline_id = self.baseline_id

        candidate_id = self.candidate_id

        alpha = self.alpha

        fragile: str | Unset = UNSET
        if not isinstance(self.fragile, Unset):
            fragile = self.fragile


        metrics: list[str] | None | Unset
        if isinstance(self.metrics, Unset):
            metrics = UNSET
        elif isinstance(self.metrics, list):
            metrics = self.metrics


        else:
            metrics = self.metrics


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "baseline_id": baseline_id,
            "candidate_id": candidate_id,
        })
        if alpha is not UNSET:
            field_dict["alpha"] = alpha
        if fragile is not UNSET:
            field_dict["fragile"] = fragile
        if metrics is not UNSET:
            field_dict["metrics"] = metrics

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        baseline_id = d.pop("baseline_id")

        candidate_id = d.pop("candidate_id")

        alpha = d.pop("alpha", UNSET)

        _fragile = d.pop("fragile", UNSET)
        fragile: ComparisonCreateFragile | Unset
        if isinstance(_fragile,  Unset):
            fragile = UNSET
        else:
            fragile = check_comparison_create_fragile(_fragile)




        def _parse_metrics(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                metrics_type_0 = cast(list[str], data)

                return metrics_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        metrics = _parse_metrics(d.pop("metrics", UNSET))


        comparison_create = cls(
            baseline_id=baseline_id,
            candidate_id=candidate_id,
            alpha=alpha,
            fragile=fragile,
            metrics=metrics,
        )

        return comparison_create

