from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.metric_comparison_ci_method_type_0 import check_metric_comparison_ci_method_type_0
from ..models.metric_comparison_ci_method_type_0 import MetricComparisonCiMethodType0
from ..models.metric_comparison_verdict import check_metric_comparison_verdict
from ..models.metric_comparison_verdict import MetricComparisonVerdict
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.errored_counts import ErroredCounts
  from ..models.fragile_counts import FragileCounts





T = TypeVar("T", bound="MetricComparison")



@_attrs_define
class MetricComparison:
    """ One metric, item by item: candidate − baseline over items scored on both sides.

        Attributes:
            adjusted_p_value (float | None): p_value, Holm-adjusted across metrics.
            baseline_mean (float | None):
            baseline_pass_rate (float | None): Only for metrics with a threshold, the same on both sides.
            candidate_mean (float | None):
            candidate_pass_rate (float | None):
            ci95 (list[float] | None): 95% interval of the mean difference, inside ±(the score range's width): Newcombe's
                paired interval when every score on both sides sits at a bound of the range (a pass/fail score), else a BCa
                paired bootstrap (pairs resampled together); null below 10 pairs (`notes` says so). With `cluster_by`, a BCa
                bootstrap of whole clusters of pairs, never narrower than the per-item one; null below 10 clusters.
            errored (ErroredCounts):
            improved_items (int | None): Failed on the baseline, passed now.
            mcnemar_p_value (float | None): Exact McNemar: two-sided binomial test on the discordant pairs.
            mean_difference (float | None): candidate − baseline.
            metric (str):
            minimum_detectable_effect (float | None): The smallest |mean difference| a paired t test at `alpha` detects with
                80% power, for this n and the observed spread of the differences; null below 2 pairs and where none exists
                (`notes` says why): differences without spread (identical evaluations), alpha ≥ 0.8, an alpha too small for n.
            n (int): Matched items with a score on both sides.
            p_value (float | None): Paired t test, two-sided; with `cluster_by`, over clusters (cluster-robust standard
                error, t with clusters − 1 df).
            pass_rate_difference (float | None):
            regressed_items (int | None): Passed on the baseline, failed now.
            type_ (str): Both sides' metric type (metrics match by name and type).
            verdict (MetricComparisonVerdict): improved / regressed when adjusted_p_value < alpha (by the sign of
                mean_difference); else undecided when there is no `ci95` (no item scored on both sides, or too few pairs for an
                interval: no change can be told from noise; `notes` says why), else no_detectable_change.
            wilcoxon_p_value (float | None): Wilcoxon signed-rank (zeros dropped).
            baseline_threshold (float | None | Unset): The baseline spec's threshold (null: the type has none).
            candidate_threshold (float | None | Unset): The candidate spec's threshold. When it differs from the baseline's,
                the pass-rate figures are null (a note says so): equal scores can pass on one side only.
            ci_method (MetricComparisonCiMethodType0 | None | Unset): How `ci95` was made: `paired_newcombe` (binary
                scores), else `paired_bootstrap_bca` (`paired_bootstrap_percentile` past 1,000 pairs); with `cluster_by`,
                `cluster_bootstrap_bca` (`_percentile` past 1,000 clusters).
            cluster_by (None | str | Unset): The metadata key that clusters the items (the baseline's `cluster_by`, else the
                candidate's): `p_value`, `ci95` and `minimum_detectable_effect` then count clusters, not items, since a
                cluster's items move together. Null: items counted alone.
            clusters (int | None | Unset): With `cluster_by`: the clusters the pairs fall in.
            fragile (FragileCounts | Unset): A metric's matched items whose judgments straddle the threshold, per side.
            label (None | str | Unset): What people call the metric where its name is an id: an OpenAI eval run's criterion
                name (its `metric` is `<name>-<uuid>`); `metrics` in the request and `--metric` in `loupe-client compare` take
                either. Null for other kinds.
            notes (list[str] | Unset): Why a figure is null or should be read with care, one sentence each.
            settings_differ (list[str] | Unset): The spec settings (other than `name`, `type` and `threshold`) whose values
                differ between the sides, sorted (e.g. `criteria`): the scores may not measure the same thing. `notes` says so
                in words; `loupe-client compare` refuses to decide on it unless given --accept-settings-change.
     """

    adjusted_p_value: float | None
    baseline_mean: float | None
    baseline_pass_rate: float | None
    candidate_mean: float | None
    candidate_pass_rate: float | None
    ci95: list[float] | None
    errored: ErroredCounts
    improved_items: int | None
    mcnemar_p_value: float | None
    mean_difference: float | None
    metric: str
    minimum_detectable_effect: float | None
    n: int
    p_value: float | None
    pass_rate_difference: float | None
    regressed_items: int | None
    type_: str
    verdict: MetricComparisonVerdict
    wilcoxon_p_value: float | None
    baseline_threshold: float | None | Unset = UNSET
    candidate_threshold: float | None | Unset = UNSET
    ci_method: MetricComparisonCiMethodType0 | None | Unset = UNSET
    cluster_by: None | str | Unset = UNSET
    clusters: int | None | Unset = UNSET
    fragile: FragileCounts | Unset = UNSET
    label: None | str | Unset = UNSET
    notes: list[str] | Unset = UNSET
    settings_differ: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.errored_counts import ErroredCounts # noqa: PLC0415
        from ..models.fragile_counts import FragileCounts # noqa: PLC0415
        adjusted_p_value: float | None
        adjusted_p_value = self.adjusted_p_value

        baseline_mean: float | None
        baseline_mean = self.baseline_mean

        baseline_pass_rate: float | None
        baseline_pass_rate = self.baseline_pass_rate

        candidate_mean: float | None
        candidate_mean = self.candidate_mean

        candidate_pass_rate: float | None
        candidate_pass_rate = self.candidate_pass_rate

        ci95: list[float] | None
        if isinstance(self.ci95, list):
            ci95 = self.ci95


        else:
            ci95 = self.ci95

        errored = self.errored.to_dict()

        improved_items: int | None
        improved_items = self.improved_items

        mcnemar_p_value: float | None
        mcnemar_p_value = self.mcnemar_p_value

        mean_difference: float | None
        mean_difference = self.mean_difference

        metric = self.metric

        minimum_detectable_effect: float | None
        minimum_detectable_effect = self.minimum_detectable_effect

        n = self.n

        p_value: float | None
        p_value = self.p_value

        pass_rate_difference: float | None
        pass_rate_difference = self.pass_rate_difference

        regressed_items: int | None
        regressed_items = self.regressed_items

        type_ = self.type_

        verdict: str = self.verdict

        wilcoxon_p_value: float | None
        wilcoxon_p_value = self.wilcoxon_p_value

        baseline_threshold: float | None | Unset
        if isinstance(self.baseline_threshold, Unset):
            baseline_threshold = UNSET
        else:
            baseline_threshold = self.baseline_threshold

        candidate_threshold: float | None | Unset
        if isinstance(self.candidate_threshold, Unset):
            candidate_threshold = UNSET
        else:
            candidate_threshold = self.candidate_threshold

        ci_method: None | str | Unset
        if isinstance(self.ci_method, Unset):
            ci_method = UNSET
        elif isinstance(self.ci_method, str):
            ci_method = self.ci_method
        else:
            ci_method = self.ci_method

        cluster_by: None | str | Unset
        if isinstance(self.cluster_by, Unset):
            cluster_by = UNSET
        else:
            cluster_by = self.cluster_by

        clusters: int | None | Unset
        if isinstance(self.clusters, Unset):
            clusters = UNSET
        else:
            clusters = self.clusters

        fragile: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fragile, Unset):
            fragile = self.fragile.to_dict()

        label: None | str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        notes: list[str] | Unset = UNSET
        if not isinstance(self.notes, Unset):
            notes = self.notes



        settings_differ: list[str] | Unset = UNSET
        if not isinstance(self.settings_differ, Unset):
            settings_differ = self.settings_differ




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "adjusted_p_value": adjusted_p_value,
            "baseline_mean": baseline_mean,
            "baseline_pass_rate": baseline_pass_rate,
            "candidate_mean": candidate_mean,
            "candidate_pass_rate": candidate_pass_rate,
            "ci95": ci95,
            "errored": errored,
            "improved_items": improved_items,
            "mcnemar_p_value": mcnemar_p_value,
            "mean_difference": mean_difference,
            "metric": metric,
            "minimum_detectable_effect": minimum_detectable_effect,
            "n": n,
            "p_value": p_value,
            "pass_rate_difference": pass_rate_difference,
            "regressed_items": regressed_items,
            "type": type_,
            "verdict": verdict,
            "wilcoxon_p_value": wilcoxon_p_value,
        })
        if baseline_threshold is not UNSET:
            field_dict["baseline_threshold"] = baseline_threshold
        if candidate_threshold is not UNSET:
            field_dict["candidate_threshold"] = candidate_threshold
        if ci_method is not UNSET:
            field_dict["ci_method"] = ci_method
        if cluster_by is not UNSET:
            field_dict["cluster_by"] = cluster_by
        if clusters is not UNSET:
            field_dict["clusters"] = clusters
        if fragile is not UNSET:
            field_dict["fragile"] = fragile
        if label is not UNSET:
            field_dict["label"] = label
        if notes is not UNSET:
            field_dict["notes"] = notes
        if settings_differ is not UNSET:
            field_dict["settings_differ"] = settings_differ

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.errored_counts import ErroredCounts # noqa: PLC0415
        from ..models.fragile_counts import FragileCounts # noqa: PLC0415
        d = dict(src_dict)
        def _parse_adjusted_p_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        adjusted_p_value = _parse_adjusted_p_value(d.pop("adjusted_p_value"))


        def _parse_baseline_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        baseline_mean = _parse_baseline_mean(d.pop("baseline_mean"))


        def _parse_baseline_pass_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        baseline_pass_rate = _parse_baseline_pass_rate(d.pop("baseline_pass_rate"))


        def _parse_candidate_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        candidate_mean = _parse_candidate_mean(d.pop("candidate_mean"))


        def _parse_candidate_pass_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        candidate_pass_rate = _parse_candidate_pass_rate(d.pop("candidate_pass_rate"))


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


        errored = ErroredCounts.from_dict(d.pop("errored"))




        def _parse_improved_items(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        improved_items = _parse_improved_items(d.pop("improved_items"))


        def _parse_mcnemar_p_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mcnemar_p_value = _parse_mcnemar_p_value(d.pop("mcnemar_p_value"))


        def _parse_mean_difference(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean_difference = _parse_mean_difference(d.pop("mean_difference"))


        metric = d.pop("metric")

        def _parse_minimum_detectable_effect(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        minimum_detectable_effect = _parse_minimum_detectable_effect(d.pop("minimum_detectable_effect"))


        n = d.pop("n")

        def _parse_p_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        p_value = _parse_p_value(d.pop("p_value"))


        def _parse_pass_rate_difference(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pass_rate_difference = _parse_pass_rate_difference(d.pop("pass_rate_difference"))


        def _parse_regressed_items(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        regressed_items = _parse_regressed_items(d.pop("regressed_items"))


        type_ = d.pop("type")

        verdict = check_metric_comparison_verdict(d.pop("verdict"))




        def _parse_wilcoxon_p_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        wilcoxon_p_value = _parse_wilcoxon_p_value(d.pop("wilcoxon_p_value"))


        def _parse_baseline_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        baseline_threshold = _parse_baseline_threshold(d.pop("baseline_threshold", UNSET))


        def _parse_candidate_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        candidate_threshold = _parse_candidate_threshold(d.pop("candidate_threshold", UNSET))


        def _parse_ci_method(data: object) -> MetricComparisonCiMethodType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ci_method_type_0 = check_metric_comparison_ci_method_type_0(data)



                return ci_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MetricComparisonCiMethodType0 | None | Unset, data)

        ci_method = _parse_ci_method(d.pop("ci_method", UNSET))


        def _parse_cluster_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        cluster_by = _parse_cluster_by(d.pop("cluster_by", UNSET))


        def _parse_clusters(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        clusters = _parse_clusters(d.pop("clusters", UNSET))


        _fragile = d.pop("fragile", UNSET)
        fragile: FragileCounts | Unset
        if isinstance(_fragile,  Unset):
            fragile = UNSET
        else:
            fragile = FragileCounts.from_dict(_fragile)




        def _parse_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))


        notes = cast(list[str], d.pop("notes", UNSET))


        settings_differ = cast(list[str], d.pop("settings_differ", UNSET))


        metric_comparison = cls(
            adjusted_p_value=adjusted_p_value,
            baseline_mean=baseline_mean,
            baseline_pass_rate=baseline_pass_rate,
            candidate_mean=candidate_mean,
            candidate_pass_rate=candidate_pass_rate,
            ci95=ci95,
            errored=errored,
            improved_items=improved_items,
            mcnemar_p_value=mcnemar_p_value,
            mean_difference=mean_difference,
            metric=metric,
            minimum_detectable_effect=minimum_detectable_effect,
            n=n,
            p_value=p_value,
            pass_rate_difference=pass_rate_difference,
            regressed_items=regressed_items,
            type_=type_,
            verdict=verdict,
            wilcoxon_p_value=wilcoxon_p_value,
            baseline_threshold=baseline_threshold,
            candidate_threshold=candidate_threshold,
            ci_method=ci_method,
            cluster_by=cluster_by,
            clusters=clusters,
            fragile=fragile,
            label=label,
            notes=notes,
            settings_differ=settings_differ,
        )


        metric_comparison.additional_properties = d
        return metric_comparison

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
