from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.calibrated_mean_estimand import CalibratedMeanEstimand
from ..models.calibrated_mean_estimand import check_calibrated_mean_estimand
from typing import cast






T = TypeVar("T", bound="CalibratedMean")



@_attrs_define
class CalibratedMean:
    """ The judge's mean corrected by people's labels: the prediction-powered (PPI++) estimate
    of what people would give on average, as `ppi_py` computes it.

        Attributes:
            ci95 (list[float] | None):
            estimand (CalibratedMeanEstimand): `mean` (labels on the scale; with mixed labels, when most are on the scale,
                only those, `note` saying so) or `pass_rate` (when most labels are pass/fail, scores then cut at the threshold).
            mean (float | None):
            method (None | str): `ppi++` (λ tuned), `ppi` (λ = 1), `classical` (every result labelled).
            n_labels (int): The evaluation's items (distinct judged content) with usable labels: an item held by two results
                is one labelled unit, its judge scores averaged.
            n_unlabelled (int): Its other scored items, counted the same way.
            note (None | str): Why `mean` or `ci95` is null (fewer than 2 labelled results; for `ci95`, fewer than 10,
                labels that do not vary, or an interval wholly off the scale), and how many labels were set aside (routed by a
                review queue: not a random sample).
     """

    ci95: list[float] | None
    estimand: CalibratedMeanEstimand
    mean: float | None
    method: None | str
    n_labels: int
    n_unlabelled: int
    note: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        ci95: list[float] | None
        if isinstance(self.ci95, list):
            ci95 = self.ci95


        else:
            ci95 = self.ci95

        estimand: str = self.estimand

        mean: float | None
        mean = self.mean

        method: None | str
        method = self.method

        n_labels = self.n_labels

        n_unlabelled = self.n_unlabelled

        note: None | str
        note = self.note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ci95": ci95,
            "estimand": estimand,
            "mean": mean,
            "method": method,
            "n_labels": n_labels,
            "n_unlabelled": n_unlabelled,
            "note": note,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
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


        estimand = check_calibrated_mean_estimand(d.pop("estimand"))




        def _parse_mean(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        mean = _parse_mean(d.pop("mean"))


        def _parse_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        method = _parse_method(d.pop("method"))


        n_labels = d.pop("n_labels")

        n_unlabelled = d.pop("n_unlabelled")

        def _parse_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        note = _parse_note(d.pop("note"))


        calibrated_mean = cls(
            ci95=ci95,
            estimand=estimand,
            mean=mean,
            method=method,
            n_labels=n_labels,
            n_unlabelled=n_unlabelled,
            note=note,
        )


        calibrated_mean.additional_properties = d
        return calibrated_mean

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
