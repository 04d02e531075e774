from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.alignment_side import AlignmentSide
  from ..models.held_out_item import HeldOutItem





T = TypeVar("T", bound="AlignmentReport")



@_attrs_define
class AlignmentReport:
    """ κ before (the current version) and after (the candidate) on the held-out items.

        Attributes:
            after (AlignmentSide): Agreement of one version's verdicts on the held-out items with people's labels.
            before (AlignmentSide): Agreement of one version's verdicts on the held-out items with people's labels.
            improved (bool | None): Whether the candidate's κ is higher (null: either is undefined).
            items (list[HeldOutItem]):
            label_kind (str):
            scale (list[float]):
            threshold (float):
     """

    after: AlignmentSide
    before: AlignmentSide
    improved: bool | None
    items: list[HeldOutItem]
    label_kind: str
    scale: list[float]
    threshold: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
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

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
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

        alignment_report = cls(
            after=after,
            before=before,
            improved=improved,
            items=items,
            label_kind=label_kind,
            scale=scale,
            threshold=threshold,
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
