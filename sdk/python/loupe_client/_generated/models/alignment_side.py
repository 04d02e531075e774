from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.alignment_side_cohen_kappa import AlignmentSideCohenKappa
  from ..models.alignment_side_weighted_kappa import AlignmentSideWeightedKappa





T = TypeVar("T", bound="AlignmentSide")



@_attrs_define
class AlignmentSide:
    """ Agreement of one version's verdicts on the held-out items with people's labels.

        Attributes:
            cohen_kappa (AlignmentSideCohenKappa): Cohen's κ of pass/fail (scikit-learn): `{value, ci95, note}`.
            metric_version (str):
            n (int): Held-out items this version scored (errored ones left out).
            weighted_kappa (AlignmentSideWeightedKappa): Quadratic weighted κ on ordinal bins, for labels on the metric's
                scale; a note for pass/fail labels.
     """

    cohen_kappa: AlignmentSideCohenKappa
    metric_version: str
    n: int
    weighted_kappa: AlignmentSideWeightedKappa
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.alignment_side_cohen_kappa import AlignmentSideCohenKappa # noqa: PLC0415
        from ..models.alignment_side_weighted_kappa import AlignmentSideWeightedKappa # noqa: PLC0415
        cohen_kappa = self.cohen_kappa.to_dict()

        metric_version = self.metric_version

        n = self.n

        weighted_kappa = self.weighted_kappa.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "cohen_kappa": cohen_kappa,
            "metric_version": metric_version,
            "n": n,
            "weighted_kappa": weighted_kappa,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alignment_side_cohen_kappa import AlignmentSideCohenKappa # noqa: PLC0415
        from ..models.alignment_side_weighted_kappa import AlignmentSideWeightedKappa # noqa: PLC0415
        d = dict(src_dict)
        cohen_kappa = AlignmentSideCohenKappa.from_dict(d.pop("cohen_kappa"))




        metric_version = d.pop("metric_version")

        n = d.pop("n")

        weighted_kappa = AlignmentSideWeightedKappa.from_dict(d.pop("weighted_kappa"))




        alignment_side = cls(
            cohen_kappa=cohen_kappa,
            metric_version=metric_version,
            n=n,
            weighted_kappa=weighted_kappa,
        )


        alignment_side.additional_properties = d
        return alignment_side

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
