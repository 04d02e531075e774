from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.metric_version_agreement_label_kind import check_metric_version_agreement_label_kind
from ..models.metric_version_agreement_label_kind import MetricVersionAgreementLabelKind
from ..models.metric_version_agreement_threshold_source import check_metric_version_agreement_threshold_source
from ..models.metric_version_agreement_threshold_source import MetricVersionAgreementThresholdSource
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.agreement_disagreement import AgreementDisagreement
  from ..models.agreement_statistic import AgreementStatistic
  from ..models.confusion_matrix import ConfusionMatrix





T = TypeVar("T", bound="MetricVersionAgreement")



@_attrs_define
class MetricVersionAgreement:
    """ How far a metric version's judge agrees with the people who labelled its items: each
    statistic the named library's number (scikit-learn, `krippendorff`, scipy) with a percentile
    bootstrap interval over items.

        Attributes:
            cohen_kappa (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note`
                saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            confusion_matrix (ConfusionMatrix): Rows the people's verdict, columns the judge's, each [fail, pass] (scikit-
                learn's
                layout): `matrix[1][0]` are items people pass and the judge fails.
            disagreements (list[AgreementDisagreement]): Worst first (largest gap).
            interval_method (str):
            krippendorff_alpha (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with
                `note` saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            krippendorff_alpha_people (AgreementStatistic): A statistic of agreement with people and its 95% interval; null
                with `note` saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            label_kind (MetricVersionAgreementLabelKind): `score`: labels on the metric's scale; `pass_fail`: true/false
                labels; `mixed`: both, the statistics on the scale (weighted κ, α, ρ, mean bias) then reading the score labels
                only and κ, TPR, TNR and the confusion matrix every label (scores cut at the threshold), as each one's note and
                `notes` say.
            mean_bias (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note`
                saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            metric_version (str):
            n (int): Items (distinct content) with a judge score and a label.
            n_labels (int): People's labels on those items.
            notes (list[str]):
            people (int): Distinct people (or API keys) who labelled.
            resamples (int):
            scale (list[float]): The metric's score range.
            seed (int):
            spearman (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note`
                saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            threshold (float): `passed = score >= threshold`, for judge and people.
            threshold_source (MetricVersionAgreementThresholdSource): `labels`: the threshold the labelled results had (the
                most common, when they differ: `thresholds` lists them); `query`: `?threshold=`; `scale`: the middle of the
                scale, the labelled results having none.
            thresholds (list[float]): Every threshold the labelled results had.
            tnr (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note` saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            tpr (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note` saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            weighted_kappa (AgreementStatistic): A statistic of agreement with people and its 95% interval; null with `note`
                saying why
                when it is undefined (one class only, too few items) or has no honest interval.
            object_ (Literal['metric_version.agreement'] | Unset):  Default: 'metric_version.agreement'.
     """

    cohen_kappa: AgreementStatistic
    confusion_matrix: ConfusionMatrix
    disagreements: list[AgreementDisagreement]
    interval_method: str
    krippendorff_alpha: AgreementStatistic
    krippendorff_alpha_people: AgreementStatistic
    label_kind: MetricVersionAgreementLabelKind
    mean_bias: AgreementStatistic
    metric_version: str
    n: int
    n_labels: int
    notes: list[str]
    people: int
    resamples: int
    scale: list[float]
    seed: int
    spearman: AgreementStatistic
    threshold: float
    threshold_source: MetricVersionAgreementThresholdSource
    thresholds: list[float]
    tnr: AgreementStatistic
    tpr: AgreementStatistic
    weighted_kappa: AgreementStatistic
    object_: Literal['metric_version.agreement'] | Unset = 'metric_version.agreement'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agreement_disagreement import AgreementDisagreement # noqa: PLC0415
        from ..models.agreement_statistic import AgreementStatistic # noqa: PLC0415
        from ..models.confusion_matrix import ConfusionMatrix # noqa: PLC0415
        cohen_kappa = self.cohen_kappa.to_dict()

        confusion_matrix = self.confusion_matrix.to_dict()

        disagreements = []
        for disagreements_item_data in self.disagreements:
            disagreements_item = disagreements_item_data.to_dict()
            disagreements.append(disagreements_item)



        interval_method = self.interval_method

        krippendorff_alpha = self.krippendorff_alpha.to_dict()

        krippendorff_alpha_people = self.krippendorff_alpha_people.to_dict()

        label_kind: str = self.label_kind

        mean_bias = self.mean_bias.to_dict()

        metric_version = self.metric_version

        n = self.n

        n_labels = self.n_labels

        notes = self.notes



        people = self.people

        resamples = self.resamples

        scale = self.scale



        seed = self.seed

        spearman = self.spearman.to_dict()

        threshold = self.threshold

        threshold_source: str = self.threshold_source

        thresholds = self.thresholds



        tnr = self.tnr.to_dict()

        tpr = self.tpr.to_dict()

        weighted_kappa = self.weighted_kappa.to_dict()

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cohen_kappa": cohen_kappa,
            "confusion_matrix": confusion_matrix,
            "disagreements": disagreements,
            "interval_method": interval_method,
            "krippendorff_alpha": krippendorff_alpha,
            "krippendorff_alpha_people": krippendorff_alpha_people,
            "label_kind": label_kind,
            "mean_bias": mean_bias,
            "metric_version": metric_version,
            "n": n,
            "n_labels": n_labels,
            "notes": notes,
            "people": people,
            "resamples": resamples,
            "scale": scale,
            "seed": seed,
            "spearman": spearman,
            "threshold": threshold,
            "threshold_source": threshold_source,
            "thresholds": thresholds,
            "tnr": tnr,
            "tpr": tpr,
            "weighted_kappa": weighted_kappa,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agreement_disagreement import AgreementDisagreement # noqa: PLC0415
        from ..models.agreement_statistic import AgreementStatistic # noqa: PLC0415
        from ..models.confusion_matrix import ConfusionMatrix # noqa: PLC0415
        d = dict(src_dict)
        cohen_kappa = AgreementStatistic.from_dict(d.pop("cohen_kappa"))




        confusion_matrix = ConfusionMatrix.from_dict(d.pop("confusion_matrix"))




        disagreements = []
        _disagreements = d.pop("disagreements")
        for disagreements_item_data in (_disagreements):
            disagreements_item = AgreementDisagreement.from_dict(disagreements_item_data)



            disagreements.append(disagreements_item)


        interval_method = d.pop("interval_method")

        krippendorff_alpha = AgreementStatistic.from_dict(d.pop("krippendorff_alpha"))




        krippendorff_alpha_people = AgreementStatistic.from_dict(d.pop("krippendorff_alpha_people"))




        label_kind = check_metric_version_agreement_label_kind(d.pop("label_kind"))




        mean_bias = AgreementStatistic.from_dict(d.pop("mean_bias"))




        metric_version = d.pop("metric_version")

        n = d.pop("n")

        n_labels = d.pop("n_labels")

        notes = cast(list[str], d.pop("notes"))


        people = d.pop("people")

        resamples = d.pop("resamples")

        scale = cast(list[float], d.pop("scale"))


        seed = d.pop("seed")

        spearman = AgreementStatistic.from_dict(d.pop("spearman"))




        threshold = d.pop("threshold")

        threshold_source = check_metric_version_agreement_threshold_source(d.pop("threshold_source"))




        thresholds = cast(list[float], d.pop("thresholds"))


        tnr = AgreementStatistic.from_dict(d.pop("tnr"))




        tpr = AgreementStatistic.from_dict(d.pop("tpr"))




        weighted_kappa = AgreementStatistic.from_dict(d.pop("weighted_kappa"))




        object_ = cast(Literal['metric_version.agreement'] | Unset , d.pop("object", UNSET))
        if object_ != 'metric_version.agreement'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'metric_version.agreement', got '{object_}'")

        metric_version_agreement = cls(
            cohen_kappa=cohen_kappa,
            confusion_matrix=confusion_matrix,
            disagreements=disagreements,
            interval_method=interval_method,
            krippendorff_alpha=krippendorff_alpha,
            krippendorff_alpha_people=krippendorff_alpha_people,
            label_kind=label_kind,
            mean_bias=mean_bias,
            metric_version=metric_version,
            n=n,
            n_labels=n_labels,
            notes=notes,
            people=people,
            resamples=resamples,
            scale=scale,
            seed=seed,
            spearman=spearman,
            threshold=threshold,
            threshold_source=threshold_source,
            thresholds=thresholds,
            tnr=tnr,
            tpr=tpr,
            weighted_kappa=weighted_kappa,
            object_=object_,
        )


        metric_version_agreement.additional_properties = d
        return metric_version_agreement

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
