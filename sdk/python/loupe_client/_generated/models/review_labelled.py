from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.review_labelled_selection import check_review_labelled_selection
from ..models.review_labelled_selection import ReviewLabelledSelection
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.judge_verdict import JudgeVerdict
  from ..models.label import Label





T = TypeVar("T", bound="ReviewLabelled")



@_attrs_define
class ReviewLabelled:
    """ Your label, and now that you have answered, what the judge said and why the item was
    routed to you.

        Attributes:
            item_id (str):
            judge (JudgeVerdict):
            label (Label):
            reason (str): Why it was offered: near_threshold, fragile, lowest, audit.
            result_id (str):
            selection (ReviewLabelledSelection): How the label is stored: `random` for the audit share (a random sample,
                which calibrated means may use), `routed` for the others.
            object_ (Literal['review_item.labelled'] | Unset):  Default: 'review_item.labelled'.
     """

    item_id: str
    judge: JudgeVerdict
    label: Label
    reason: str
    result_id: str
    selection: ReviewLabelledSelection
    object_: Literal['review_item.labelled'] | Unset = 'review_item.labelled'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.judge_verdict import JudgeVerdict # noqa: PLC0415
        from ..models.label import Label # noqa: PLC0415
        item_id = self.item_id

        judge = self.judge.to_dict()

        label = self.label.to_dict()

        reason = self.reason

        result_id = self.result_id

        selection: str = self.selection

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "item_id": item_id,
            "judge": judge,
            "label": label,
            "reason": reason,
            "result_id": result_id,
            "selection": selection,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.judge_verdict import JudgeVerdict # noqa: PLC0415
        from ..models.label import Label # noqa: PLC0415
        d = dict(src_dict)
        item_id = d.pop("item_id")

        judge = JudgeVerdict.from_dict(d.pop("judge"))




        label = Label.from_dict(d.pop("label"))




        reason = d.pop("reason")

        result_id = d.pop("result_id")

        selection = check_review_labelled_selection(d.pop("selection"))




        object_ = cast(Literal['review_item.labelled'] | Unset , d.pop("object", UNSET))
        if object_ != 'review_item.labelled'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'review_item.labelled', got '{object_}'")

        review_labelled = cls(
            item_id=item_id,
            judge=judge,
            label=label,
            reason=reason,
            result_id=result_id,
            selection=selection,
            object_=object_,
        )


        review_labelled.additional_properties = d
        return review_labelled

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
