from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.alignment_report_kappa_difference import AlignmentReportKappaDifference
  from ..models.alignment_side import AlignmentSide
  from ..models.held_out_item import HeldOutItem





T = TypeVar("T", bound="AlignmentReport")



@_attrs_define
class AlignmentReport:
    """ κ before (the current version) and after (the candidate) on the held-out items.

        Attributes:
            after (AlignmentSide): Agreement of one version's verdicts on the held-out items with people's labels.
            before (AlignmentSide): Agreement of one version's verdicts on the held-out items with people's labels.
            improved (bool | None): Whether the candidate's κ is the higher estimate (null: either is undefined); not a
                test: `kappa_difference` is.
            items (list[HeldOutItem]):
            label_kind (str):
            scale (list[float]):
            threshold (float):
            kappa_difference (AlignmentReportKappaDifference | Unset): κ after − κ before over the same items, `{value,
                ci95, note}`: a 95% paired percentile bootstrap over the items (both κ from each resample; 2,000, seeded), null
                below 10 items. An interval above 0 says the candidate agrees with the people better beyond what the choice of
                items explains; the two sides' own intervals overlapping or not says little, as they share their items.
     """

    after: AlignmentSide
    before: AlignmentSide
    improved: bool | None
    items: list[HeldOutItem]
    label_kind: str
    scale: list[float]
    threshold: float
    kappa_difference: AlignmentReportKappaDifference | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.alignment_report_kappa_difference import AlignmentReportKappaDifference # noqa: PLC0415
        from ..models.alignment_side import AlignmentSide # noqa: PLC0415
        from ..models.held_out_item import HeldOutItem # noqa: PLC0415
        after = self.after.to_dict()

        before = self.before.to_dict()

        improved: bool | None
        improved = self.improved

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        label_kind = self.label_kind

        scale = []
        for scale_item_data in self.scale:
            scale_item: float
            scale_item = scale_item_data
            scale.append(scale_item)



        threshold = self.threshold

        kappa_difference: dict[str, Any] | Unset = UNSET
        if not isinstance(self.kappa_difference, Unset):
            kappa_difference = self.kappa_difference.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "after": after,
            "before": before,
            "improved": improved,
            "items": items,
            "label_kind": label_kind,
            "scale": scale,
            "threshold": threshold,
        })
        if kappa_difference is not UNSET:
            field_dict["kappa_difference"] = kappa_difference

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.alignment_report_kappa_difference import AlignmentReportKappaDifference # noqa: PLC0415
        from ..models.alignment_side import AlignmentSide # noqa: PLC0415
        from ..models.held_out_item import HeldOutItem # noqa: PLC0415
        d = dict(src_dict)
        after = AlignmentSide.from_dict(d.pop("after"))




        before = AlignmentSide.from_dict(d.pop("before"))




        def _parse_improved(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        improved = _parse_improved(d.pop("improved"))


        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = HeldOutItem.from_dict(items_item_data)



            items.append(items_item)


        label_kind = d.pop("label_kind")

        scale = []
        _scale = d.pop("scale")
        for scale_item_data in (_scale):
            def _parse_scale_item(data: object) -> float:
                return cast(float, data)

            scale_item = _parse_scale_item(scale_item_data)

            scale.append(scale_item)


        threshold = d.pop("threshold")

        _kappa_difference = d.pop("kappa_difference", UNSET)
        kappa_difference: AlignmentReportKappaDifference | Unset
        if isinstance(_kappa_difference,  Unset):
            kappa_difference = UNSET
        else:
            kappa_difference = AlignmentReportKappaDifference.from_dict(_kappa_difference)




        alignment_report = cls(
            after=after,
            before=before,
            improved=improved,
            items=items,
            label_kind=label_kind,
            scale=scale,
            threshold=threshold,
            kappa_difference=kappa_difference,
        )


        alignment_report.additional_properties = d
        return alignment_report

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
