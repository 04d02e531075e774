from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.report_row_ci_method_type_0 import check_report_row_ci_method_type_0
from ..models.report_row_ci_method_type_0 import ReportRowCiMethodType0
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.clustered_error import ClusteredError





T = TypeVar("T", bound="ReportRow")



@_attrs_define
class ReportRow:
    """ 
        Attributes:
            ci95 (list[float] | None): [lower, upper]: a 95% interval of the mean inside the score's range (`ci_method`):
                Wilson when every score is at one of the range's bounds (exact_match), else a BCa bootstrap of the scores; null
                with `interval_note` when n is too small (Wilson below 2 scores, the bootstrap below 10), or, while results
                still arrive, for a bootstrap of more than 1,000 scores.
            metric (str): EvalScope's per-sample key: `bleu-1`, `Rouge-L-R`, `acc`…
            n (int): Results with a score.
            num (int): Samples that carry this metric.
            pass_rate_ci95 (list[float] | None): Wilson 95% interval of the pass rate; null without a threshold or below 2.
            score (float | None): Mean over those samples, rounded to 4 decimals as EvalScope rounds it (the row's interval
                bounds alike, so the score lies inside them); null when every result of the metric errored (num 0, an OVERALL
                row whose `interval_note` says so).
            std (float | None): Sample standard deviation (n − 1); null below 2.
            stderr (float | None): std / √n; null below 2 scored results.
            subset (str): A subset name, or `OVERALL` for every selected sample.
            ci_method (None | ReportRowCiMethodType0 | Unset): How `ci95` was made: `wilson`, `bootstrap_bca`, or past 1,000
                scores `bootstrap_percentile` (1,999 resamples; BCa's jackknife costs n²).
            clustered (ClusteredError | None | Unset): Only with `cluster_by`, once two clusters have scores.
            interval_note (None | str | Unset): Why `ci95` is null or has no width, in words.
     """

    ci95: list[float] | None
    metric: str
    n: int
    num: int
    pass_rate_ci95: list[float] | None
    score: float | None
    std: float | None
    stderr: float | None
    subset: str
    ci_method: None | ReportRowCiMethodType0 | Unset = UNSET
    clustered: ClusteredError | None | Unset = UNSET
    interval_note: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.clustered_error import ClusteredError # noqa: PLC0415
        ci95: list[float] | None
        if isinstance(self.ci95, list):
            ci95 = self.ci95


        else:
            ci95 = self.ci95

        metric = self.metric

        n = self.n

        num = self.num

        pass_rate_ci95: list[float] | None
        if isinstance(self.pass_rate_ci95, list):
            pass_rate_ci95 = self.pass_rate_ci95


        else:
            pass_rate_ci95 = self.pass_rate_ci95

        score: float | None
        score = self.score

        std: float | None
        std = self.std

        stderr: float | None
        stderr = self.stderr

        subset = self.subset

        ci_method: None | str | Unset
        if isinstance(self.ci_method, Unset):
            ci_method = UNSET
        elif isinstance(self.ci_method, str):
            ci_method = self.ci_method
        else:
            ci_method = self.ci_method

        clustered: dict[str, Any] | None | Unset
        if isinstance(self.clustered, Unset):
            clustered = UNSET
        elif isinstance(self.clustered, ClusteredError):
            clustered = self.clustered.to_dict()
        else:
            clustered = self.clustered

        interval_note: None | str | Unset
        if isinstance(self.interval_note, Unset):
            interval_note = UNSET
        else:
            interval_note = self.interval_note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ci95": ci95,
            "metric": metric,
            "n": n,
            "num": num,
            "pass_rate_ci95": pass_rate_ci95,
            "score": score,
            "std": std,
            "stderr": stderr,
            "subset": subset,
        })
        if ci_method is not UNSET:
            field_dict["ci_method"] = ci_method
        if clustered is not UNSET:
            field_dict["clustered"] = clustered
        if interval_note is not UNSET:
            field_dict["interval_note"] = interval_note

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clustered_error import ClusteredError # noqa: PLC0415
        d = dict(src_dict)
        def _parse_ci95(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                ci95_type_0 = cast(list[float], data)

                return ci95_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        ci95 = _parse_ci95(d.pop("ci95"))


        metric = d.pop("metric")

        n = d.pop("n")

        num = d.pop("num")

        def _parse_pass_rate_ci95(data: object) -> list[float] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                pass_rate_ci95_type_0 = cast(list[float], data)

                return pass_rate_ci95_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[float] | None, data)

        pass_rate_ci95 = _parse_pass_rate_ci95(d.pop("pass_rate_ci95"))


        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        def _parse_std(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        std = _parse_std(d.pop("std"))


        def _parse_stderr(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        stderr = _parse_stderr(d.pop("stderr"))


        subset = d.pop("subset")

        def _parse_ci_method(data: object) -> None | ReportRowCiMethodType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ci_method_type_0 = check_report_row_ci_method_type_0(data)



                return ci_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReportRowCiMethodType0 | Unset, data)

        ci_method = _parse_ci_method(d.pop("ci_method", UNSET))


        def _parse_clustered(data: object) -> ClusteredError | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clustered_type_0 = ClusteredError.from_dict(data)



                return clustered_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClusteredError | None | Unset, data)

        clustered = _parse_clustered(d.pop("clustered", UNSET))


        def _parse_interval_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        interval_note = _parse_interval_note(d.pop("interval_note", UNSET))


        report_row = cls(
            ci95=ci95,
            metric=metric,
            n=n,
            num=num,
            pass_rate_ci95=pass_rate_ci95,
            score=score,
            std=std,
            stderr=stderr,
            subset=subset,
            ci_method=ci_method,
            clustered=clustered,
            interval_note=interval_note,
        )


        report_row.additional_properties = d
        return report_row

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
