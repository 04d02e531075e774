from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.unmatched_item_reason import check_unmatched_item_reason
from ..models.unmatched_item_reason import UnmatchedItemReason
from ..models.unmatched_item_side import check_unmatched_item_side
from ..models.unmatched_item_side import UnmatchedItemSide
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UnmatchedItem")



@_attrs_define
class UnmatchedItem:
    """ 
        Attributes:
            side (UnmatchedItemSide):
            test_case_id (str): The test-case id, or `subset/row_index` for runs.
            reason (UnmatchedItemReason | Unset): `one_side`: the other side has no case with this id. `duplicate_id`: this
                side has several cases with this id (evaluations stored before that was refused), so none of them can be paired;
                listed on each side that has the id. Default: 'one_side'.
     """

    side: UnmatchedItemSide
    test_case_id: str
    reason: UnmatchedItemReason | Unset = 'one_side'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        side: str = self.side

        test_case_id = self.test_case_id

        reason: str | Unset = UNSET
        if not isinstance(self.reason, Unset):
            reason = self.reason



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "side": side,
            "test_case_id": test_case_id,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        side = check_unmatched_item_side(d.pop("side"))




        test_case_id = d.pop("test_case_id")

        _reason = d.pop("reason", UNSET)
        reason: UnmatchedItemReason | Unset
        if isinstance(_reason,  Unset):
            reason = UNSET
        else:
            reason = check_unmatched_item_reason(_reason)




        unmatched_item = cls(
            side=side,
            test_case_id=test_case_id,
            reason=reason,
        )


        unmatched_item.additional_properties = d
        return unmatched_item

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
