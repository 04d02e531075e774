from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ClusteredError")



@_attrs_define
class ClusteredError:
    """ The mean's error when cases in one cluster are correlated (computed on each read).

        Attributes:
            ci95 (list[float] | None): mean ± t(0.975, clusters − 1) · stderr.
            cluster_by (str):
            clusters (int): Distinct values of `cluster_by` among scored cases.
            design_effect (float | None): (clustered stderr / stderr)².
            stderr (float | None): Cluster-robust SE (G/(G-1) correction).
     """

    ci95: list[float] | None
    cluster_by: str
    clusters: int
    design_effect: float | None
    stderr: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        ci95: list[float] | None
        if isinstance(self.ci95, list):
            ci95 = self.ci95


        else:
            ci95 = self.ci95

        cluster_by = self.cluster_by

        clusters = self.clusters

        design_effect: float | None
        design_effect = self.design_effect

        stderr: float | None
        stderr = self.stderr


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ci95": ci95,
            "cluster_by": cluster_by,
            "clusters": clusters,
            "design_effect": design_effect,
            "stderr": stderr,
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


        cluster_by = d.pop("cluster_by")

        clusters = d.pop("clusters")

        def _parse_design_effect(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        design_effect = _parse_design_effect(d.pop("design_effect"))


        def _parse_stderr(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        stderr = _parse_stderr(d.pop("stderr"))


        clustered_error = cls(
            ci95=ci95,
            cluster_by=cluster_by,
            clusters=clusters,
            design_effect=design_effect,
            stderr=stderr,
        )


        clustered_error.additional_properties = d
        return clustered_error

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
