from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.metric_summary_ci_method_type_0 import check_metric_summary_ci_method_type_0
from ..models.metric_summary_ci_method_type_0 import MetricSummaryCiMethodType0
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agreement_brief import AgreementBrief
  from ..models.calibrated_mean import CalibratedMean
  from ..models.clustered_error import ClusteredError
  from ..models.metric_judge_used import MetricJudgeUsed
  from ..models.stability_summary import StabilitySummary
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="MetricSummary")



@_attrs_define
class MetricSummary:
    """ 
        Attributes:
            ci95 (list[float] | None): [lower, upper]: a 95% interval of the mean inside the score's range (`ci_method`):
                Wilson when every score is at one of the range's bounds (exact_match), else a BCa bootstrap of the scores; null
                with `interval_note` when n is too small (Wilson below 2 scores, the bootstrap below 10), or, while results
                still arrive, for a bootstrap of more than 1,000 scores.
            errored (int):
            failed (int):
            label (str): What to call the metric: an eval run's testing criterion's name; else `metric`.
            mean_score (float | None): Mean over results that have a score.
            metric (str): The metric's name: what `?metric=` and each result's `metric` use (an eval run's criterion id,
                `<name>-<uuid>`).
            n (int): Results with a score.
            pass_rate (float | None): passed / (passed + failed).
            pass_rate_ci95 (list[float] | None): Wilson 95% interval of the pass rate; null without a threshold or below 2.
            passed (int):
            pending (int): Not scored yet (queued or in progress).
            std (float | None): Sample standard deviation (n − 1); null below 2.
            stderr (float | None): std / √n; null below 2 scored results.
            type_ (str):
            agreement (AgreementBrief | None | Unset): Whether the metric version agrees with people: Cohen's κ with its 95%
                interval and the labels it rests on (GET /v1/metric_versions/{id}/agreement has the rest); null: not checked
                against people (the version has no labels, or no judge).
            calibrated (CalibratedMean | None | Unset): The judge's mean corrected by people's labels on this evaluation's
                results (PPI++: labelled results against the others); null when no label of the version is on any of its items.
            canceled (int | Unset): Never scored: the evaluation was canceled. Default: 0.
            ci_method (MetricSummaryCiMethodType0 | None | Unset): How `ci95` was made: `wilson`, `bootstrap_bca`, or past
                1,000 scores `bootstrap_percentile` (1,999 resamples; BCa's jackknife costs n²).
            clustered (ClusteredError | None | Unset): Only with `cluster_by`, once two clusters have scores.
            interval_note (None | str | Unset): Why `ci95` is null or has no width, in words.
            judge (MetricJudgeUsed | None | Unset): The judge this metric calls (judged metrics only).
            metric_version (None | str | Unset): The metric's version (GET /v1/metric_versions/{id}): a hash of what changes
                its verdicts; null for a metric with no judge.
            position_inconsistent (int | None | Unset): `pairwise` only: results whose two judge orders disagreed (position
                bias).
            skipped (int | Unset): Never scored: the evaluation failed. Default: 0.
            stability (None | StabilitySummary | Unset): A metric judged more than once (`judge.samples`, `judge.panel`):
                fragile results, pass^k and the panel's agreement; null for a metric judged once.
            usage (UsageTotals | Unset):
     """

    ci95: list[float] | None
    errored: int
    failed: int
    label: str
    mean_score: float | None
    metric: str
    n: int
    pass_rate: float | None
    pass_rate_ci95: list[float] | None
    passed: int
    pending: int
    std: float | None
    stderr: float | None
    type_: str
    agreement: AgreementBrief | None | Unset = UNSET
    calibrated: CalibratedMean | None | Unset = UNSET
    canceled: int | Unset = 0
    ci_method: MetricSummaryCiMethodType0 | None | Unset = UNSET
    clustered: ClusteredError | None | Unset = UNSET
    interval_note: None | str | Unset = UNSET
    judge: MetricJudgeUsed | None | Unset = UNSET
    metric_version: None | str | Unset = UNSET
    position_inconsistent: int | None | Unset = UNSET
    skipped: int | Unset = 0
    stability: None | StabilitySummary | Unset = UNSET
    usage: UsageTotals | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agreement_brief import AgreementBrief # noqa: PLC0415
        from ..models.calibrated_mean import CalibratedMean # noqa: PLC0415
        from ..models.clustered_error import ClusteredError # noqa: PLC0415
        from ..models.metric_judge_used import MetricJudgeUsed # noqa: PLC0415
        from ..models.stability_summary import StabilitySummary # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        ci95: list[float] | None
        if isinstance(self.ci95, list):
            ci95 = self.ci95


        else:
            ci95 = self.ci95

        errored = self.errored

        failed = self.failed

        label = self.label

        mean_score: float | None
        mean_score = self.mean_score

        metric = self.metric

        n = self.n

        pass_rate: float | None
        pass_rate = self.pass_rate

        pass_rate_ci95: list[float] | None
        if isinstance(self.pass_rate_ci95, list):
            pass_rate_ci95 = self.pass_rate_ci95


        else:
            pass_rate_ci95 = self.pass_rate_ci95

        passed = self.passed

        pending = self.pending

        std: float | None
        std = self.std

        stderr: float | None
        stderr = self.stderr

        type_ = self.type_

        agreement: dict[str, Any] | None | Unset
        if isinstance(self.agreement, Unset):
            agreement = UNSET
        elif isinstance(self.agreement, AgreementBrief):
            agreement = self.agreement.to_dict()
        else:
            agreement = self.agreement

        calibrated: dict[str, Any] | None | Unset
        if isinstance(self.calibrated, Unset):
            calibrated = UNSET
        elif isinstance(self.calibrated, CalibratedMean):
            calibrated = self.calibrated.to_dict()
        else:
            calibrated = self.calibrated

        canceled = self.canceled

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

        judge: dict[str, Any] | None | Unset
        if isinstance(self.judge, Unset):
            judge = UNSET
        elif isinstance(self.judge, MetricJudgeUsed):
            judge = self.judge.to_dict()
        else:
            judge = self.judge

        metric_version: None | str | Unset
        if isinstance(self.metric_version, Unset):
            metric_version = UNSET
        else:
            metric_version = self.metric_version

        position_inconsistent: int | None | Unset
        if isinstance(self.position_inconsistent, Unset):
            position_inconsistent = UNSET
        else:
            position_inconsistent = self.position_inconsistent

        skipped = self.skipped

        stability: dict[str, Any] | None | Unset
        if isinstance(self.stability, Unset):
            stability = UNSET
        elif isinstance(self.stability, StabilitySummary):
            stability = self.stability.to_dict()
        else:
            stability = self.stability

        usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.usage, Unset):
            usage = self.usage.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ci95": ci95,
            "errored": errored,
            "failed": failed,
            "label": label,
            "mean_score": mean_score,
            "metric": metric,
            "n": n,
            "pass_rate": pass_rate,
            "pass_rate_ci95": pass_rate_ci95,
            "passed": passed,
            "pending": pending,
            "std": std,
            "stderr": stderr,
            "type": type_,
        })
        if agreement is not UNSET:
            field_dict["agreement"] = agreement
        if calibrated is not UNSET:
            field_dict["calibrated"] = calibrated
        if canceled is not UNSET:
            field_dict["canceled"] = canceled
        if ci_method is not UNSET:
            field_dict["ci_method"] = ci_method
        if clustered is not UNSET:
            field_dict["clustered"] = clustered
        if interval_note is not UNSET:
            field_dict["interval_note"] = interval_note
        if judge is not UNSET:
            field_dict["judge"] = judge
        if metric_version is not UNSET:
            field_dict["metric_version"] = metric_version
        if position_inconsistent is not UNSET:
            field_dict["position_inconsistent"] = position_inconsistent
        if skipped is not UNSET:
            field_dict["skipped"] = skipped
        if stability is not UNSET:
            field_dict["stability"] = stability
        if usage is not UNSET:
            field_dict["usage"] = usage

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agreement_brief import AgreementBrief # noqa: PLC0415
        from ..models.calibrated_mean import CalibratedMean # noqa: PLC0415
        from ..models.clustered_error import ClusteredError # noqa: PLC0415
        from ..models.metric_judge_used import MetricJudgeUsed # noqa: PLC0415
        from ..models.stability_summary import StabilitySummary # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
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


        errored = d.pop("errored")

        failed = d.pop("failed")

        label = d.pop("label")

        def _parse_mean_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_score = _parse_mean_score(d.pop("mean_score"))


        metric = d.pop("metric")

        n = d.pop("n")

        def _parse_pass_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pass_rate = _parse_pass_rate(d.pop("pass_rate"))


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


        passed = d.pop("passed")

        pending = d.pop("pending")

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


        type_ = d.pop("type")

        def _parse_agreement(data: object) -> AgreementBrief | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                agreement_type_0 = AgreementBrief.from_dict(data)



                return agreement_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgreementBrief | None | Unset, data)

        agreement = _parse_agreement(d.pop("agreement", UNSET))


        def _parse_calibrated(data: object) -> CalibratedMean | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                calibrated_type_0 = CalibratedMean.from_dict(data)



                return calibrated_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CalibratedMean | None | Unset, data)

        calibrated = _parse_calibrated(d.pop("calibrated", UNSET))


        canceled = d.pop("canceled", UNSET)

        def _parse_ci_method(data: object) -> MetricSummaryCiMethodType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ci_method_type_0 = check_metric_summary_ci_method_type_0(data)



                return ci_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetricSummaryCiMethodType0 | None | Unset, data)

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


        def _parse_judge(data: object) -> MetricJudgeUsed | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                judge_type_0 = MetricJudgeUsed.from_dict(data)



                return judge_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetricJudgeUsed | None | Unset, data)

        judge = _parse_judge(d.pop("judge", UNSET))


        def _parse_metric_version(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        metric_version = _parse_metric_version(d.pop("metric_version", UNSET))


        def _parse_position_inconsistent(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        position_inconsistent = _parse_position_inconsistent(d.pop("position_inconsistent", UNSET))


        skipped = d.pop("skipped", UNSET)

        def _parse_stability(data: object) -> None | StabilitySummary | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                stability_type_0 = StabilitySummary.from_dict(data)



                return stability_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | StabilitySummary | Unset, data)

        stability = _parse_stability(d.pop("stability", UNSET))


        _usage = d.pop("usage", UNSET)
        usage: UsageTotals | Unset
        if isinstance(_usage,  Unset):
            usage = UNSET
        else:
            usage = UsageTotals.from_dict(_usage)




        metric_summary = cls(
            ci95=ci95,
            errored=errored,
            failed=failed,
            label=label,
            mean_score=mean_score,
            metric=metric,
            n=n,
            pass_rate=pass_rate,
            pass_rate_ci95=pass_rate_ci95,
            passed=passed,
            pending=pending,
            std=std,
            stderr=stderr,
            type_=type_,
            agreement=agreement,
            calibrated=calibrated,
            canceled=canceled,
            ci_method=ci_method,
            clustered=clustered,
            interval_note=interval_note,
            judge=judge,
            metric_version=metric_version,
            position_inconsistent=position_inconsistent,
            skipped=skipped,
            stability=stability,
            usage=usage,
        )


        metric_summary.additional_properties = d
        return metric_summary

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
