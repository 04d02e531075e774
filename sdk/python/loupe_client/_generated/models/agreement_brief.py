from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.agreement_statistic_brief import AgreementStatisticBrief





T = TypeVar("T", bound="AgreementBrief")



@_attrs_define
class AgreementBrief:
    """ The one-line verdict of a metric version against people: Cohen's κ on pass/fail and how
    many labels it rests on (GET /v1/metric_versions/{id}/agreement has the rest).

        Attributes:
            cohen_kappa (AgreementStatisticBrief):
            metric_version (str):
            n_labels (int): People's labels on items the judge scored.
            superseded_by (None | str | Unset): The version an activated alignment made from this one (newest first): submit
                that alignment's `candidate_metric` to judge with it; null while none is.
     """

    cohen_kappa: AgreementStatisticBrief
    metric_version: str
    n_labels: int
    superseded_by: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.agreement_statistic_brief import AgreementStatisticBrief # noqa: PLC0415
        cohen_kappa = self.cohen_kappa.to_dict()

        metric_version = self.metric_version

        n_labels = self.n_labels

        superseded_by: None | str | Unset
        if isinstance(self.superseded_by, Unset):
            superseded_by = UNSET
        else:
            superseded_by = self.superseded_by


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cohen_kappa": cohen_kappa,
            "metric_version": metric_version,
            "n_labels": n_labels,
        })
        if superseded_by is not UNSET:
            field_dict["superseded_by"] = superseded_by

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agreement_statistic_brief import AgreementStatisticBrief # noqa: PLC0415
        d = dict(src_dict)
        cohen_kappa = AgreementStatisticBrief.from_dict(d.pop("cohen_kappa"))




        metric_version = d.pop("metric_version")

        n_labels = d.pop("n_labels")

        def _parse_superseded_by(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        superseded_by = _parse_superseded_by(d.pop("superseded_by", UNSET))


        agreement_brief = cls(
            cohen_kappa=cohen_kappa,
            metric_version=metric_version,
            n_labels=n_labels,
            superseded_by=superseded_by,
        )


        agreement_brief.additional_properties = d
        return agreement_brief

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
