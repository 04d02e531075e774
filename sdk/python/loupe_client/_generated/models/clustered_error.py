from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.clustered_error_ci_method_type_0 import check_clustered_error_ci_method_type_0
from ..models.clustered_error_ci_method_type_0 import ClusteredErrorCiMethodType0
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ClusteredError")



@_attrs_define
class ClusteredError:
    """ The mean's error when cases in one cluster are correlated (computed on each read).

        Attributes:
            ci95 (list[float] | None): 95% interval of the mean in the score's range, never narrower than the plain `ci95`:
                Wilson's over the clustered effective n for scores at the bounds, else a BCa cluster bootstrap (whole clusters;
                null below 10 clusters, `interval_note`).
            cluster_by (str):
            clusters (int): Distinct values of `cluster_by` among scored cases.
            design_effect (float | None): (clustered stderr / stderr)².
            stderr (float | None): Cluster-robust SE (G/(G-1) correction).
            ci_method (ClusteredErrorCiMethodType0 | None | Unset): `cluster_wilson`, `cluster_bootstrap_bca` or
                `_percentile`.
            interval_note (None | str | Unset): Why `ci95` is null, has no width or was widened, in words.
     """

    ci95: list[float] | None
    cluster_by: str
    clusters: int
    design_effect: float | None
    stderr: float | None
    ci_method: ClusteredErrorCiMethodType0 | None | Unset = UNSET
    interval_note: None | str | Unset = UNSET
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

        ci_method: None | str | Unset
        if isinstance(self.ci_method, Unset):
            ci_method = UNSET
        elif isinstance(self.ci_method, str):
            ci_method = self.ci_method
        else:
            ci_method = self.ci_method

        interval_note: None | str | Unset
        if isinstance(self.interval_note, Unset):
            interval_note = UNSET
        else:
            interval_note = self.interval_note


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "ci95": ci95,
            "cluster_by": cluster_by,
            "clusters": clusters,
            "design_effect": design_effect,
            "stderr": stderr,
        })
        if ci_method is not UNSET:
            field_dict["ci_method"] = ci_method
        if interval_note is not UNSET:
            field_dict["interval_note"] = interval_note

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


        def _parse_ci_method(data: object) -> ClusteredErrorCiMethodType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ci_method_type_0 = check_clustered_error_ci_method_type_0(data)



                return ci_method_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClusteredErrorCiMethodType0 | None | Unset, data)

        ci_method = _parse_ci_method(d.pop("ci_method", UNSET))


        def _parse_interval_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        interval_note = _parse_interval_note(d.pop("interval_note", UNSET))


        clustered_error = cls(
            ci95=ci95,
            cluster_by=cluster_by,
            clusters=clusters,
            design_effect=design_effect,
            stderr=stderr,
            ci_method=ci_method,
            interval_note=interval_note,
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
