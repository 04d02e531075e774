from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.reviewer_progress import ReviewerProgress





T = TypeVar("T", bound="ReviewProgress")



@_attrs_define
class ReviewProgress:
    """ Where a queue stands, over the items offered (routed or audit) taken in so far.

        Attributes:
            in_progress (int): Items reserved or labelled by fewer people.
            items (int): Items offered.
            labelled (int): Items labelled by `reviewers_per_item` people.
            remaining (int): Items nobody has reserved or labelled yet.
            reviewers (list[ReviewerProgress]):
     """

    in_progress: int
    items: int
    labelled: int
    remaining: int
    reviewers: list[ReviewerProgress]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reviewer_progress import ReviewerProgress # noqa: PLC0415
        in_progress = self.in_progress

        items = self.items

        labelled = self.labelled

        remaining = self.remaining

        reviewers = []
        for reviewers_item_data in self.reviewers:
            reviewers_item = reviewers_item_data.to_dict()
            reviewers.append(reviewers_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "in_progress": in_progress,
            "items": items,
            "labelled": labelled,
            "remaining": remaining,
            "reviewers": reviewers,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reviewer_progress import ReviewerProgress # noqa: PLC0415
        d = dict(src_dict)
        in_progress = d.pop("in_progress")

        items = d.pop("items")

        labelled = d.pop("labelled")

        remaining = d.pop("remaining")

        reviewers = []
        _reviewers = d.pop("reviewers")
        for reviewers_item_data in (_reviewers):
            reviewers_item = ReviewerProgress.from_dict(reviewers_item_data)



            reviewers.append(reviewers_item)


        review_progress = cls(
            in_progress=in_progress,
            items=items,
            labelled=labelled,
            remaining=remaining,
            reviewers=reviewers,
        )


        review_progress.additional_properties = d
        return review_progress

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
