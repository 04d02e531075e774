from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.review_progress import ReviewProgress
  from ..models.routing import Routing





T = TypeVar("T", bound="ReviewQueue")



@_attrs_define
class ReviewQueue:
    """ 
        Attributes:
            created_at (datetime.datetime):
            evaluation_ids (list[str]):
            id (str):
            metric (str):
            name (str):
            online_rule_ids (list[str]):
            progress (ReviewProgress): Where a queue stands, over the items offered (routed or audit) taken in so far.
            reservation_minutes (int):
            reviewers_per_item (int):
            routing (Routing): Which items are offered: each routed reason picks items, and `audit_share` adds a random
                share of the rest (seeded per item: the same item is always in or out).
            object_ (Literal['review_queue'] | Unset):  Default: 'review_queue'.
     """

    created_at: datetime.datetime
    evaluation_ids: list[str]
    id: str
    metric: str
    name: str
    online_rule_ids: list[str]
    progress: ReviewProgress
    reservation_minutes: int
    reviewers_per_item: int
    routing: Routing
    object_: Literal['review_queue'] | Unset = 'review_queue'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.review_progress import ReviewProgress # noqa: PLC0415
        from ..models.routing import Routing # noqa: PLC0415
        created_at = self.created_at.isoformat()

        evaluation_ids = self.evaluation_ids



        id = self.id

        metric = self.metric

        name = self.name

        online_rule_ids = self.online_rule_ids



        progress = self.progress.to_dict()

        reservation_minutes = self.reservation_minutes

        reviewers_per_item = self.reviewers_per_item

        routing = self.routing.to_dict()

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "evaluation_ids": evaluation_ids,
            "id": id,
            "metric": metric,
            "name": name,
            "online_rule_ids": online_rule_ids,
            "progress": progress,
            "reservation_minutes": reservation_minutes,
            "reviewers_per_item": reviewers_per_item,
            "routing": routing,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.review_progress import ReviewProgress # noqa: PLC0415
        from ..models.routing import Routing # noqa: PLC0415
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        evaluation_ids = cast(list[str], d.pop("evaluation_ids"))


        id = d.pop("id")

        metric = d.pop("metric")

        name = d.pop("name")

        online_rule_ids = cast(list[str], d.pop("online_rule_ids"))


        progress = ReviewProgress.from_dict(d.pop("progress"))




        reservation_minutes = d.pop("reservation_minutes")

        reviewers_per_item = d.pop("reviewers_per_item")

        routing = Routing.from_dict(d.pop("routing"))




        object_ = cast(Literal['review_queue'] | Unset , d.pop("object", UNSET))
        if object_ != 'review_queue'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'review_queue', got '{object_}'")

        review_queue = cls(
            created_at=created_at,
            evaluation_ids=evaluation_ids,
            id=id,
            metric=metric,
            name=name,
            online_rule_ids=online_rule_ids,
            progress=progress,
            reservation_minutes=reservation_minutes,
            reviewers_per_item=reviewers_per_item,
            routing=routing,
            object_=object_,
        )


        review_queue.additional_properties = d
        return review_queue

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
