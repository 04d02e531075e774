from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.routing import Routing





T = TypeVar("T", bound="ReviewQueueCreate")



@_attrs_define
class ReviewQueueCreate:
    """ A queue of one metric's judged results from evaluations and online rules' days.

        Attributes:
            metric (str): The metric's name to review.
            name (str):
            routing (Routing): Which items are offered: each routed reason picks items, and `audit_share` adds a random
                share of the rest (seeded per item: the same item is always in or out).
            evaluation_ids (list[str] | Unset): Evaluations (or runs) feeding it.
            online_rule_ids (list[str] | Unset): Online rules feeding it: their days' results, new ones taken in at claim.
            reservation_minutes (int | Unset): How long a claim holds the item before it returns. Default: 30.
            reviewers_per_item (int | Unset): How many different people label each item (at most). Default: 1.
     """

    metric: str
    name: str
    routing: Routing
    evaluation_ids: list[str] | Unset = UNSET
    online_rule_ids: list[str] | Unset = UNSET
    reservation_minutes: int | Unset = 30
    reviewers_per_item: int | Unset = 1





    def to_dict(self) -> dict[str, Any]:
        from ..models.routing import Routing # noqa: PLC0415
        metric = self.metric

        name = self.name

        routing = self.routing.to_dict()

        evaluation_ids: list[str] | Unset = UNSET
        if not isinstance(self.evaluation_ids, Unset):
            evaluation_ids = self.evaluation_ids



        online_rule_ids: list[str] | Unset = UNSET
        if not isinstance(self.online_rule_ids, Unset):
            online_rule_ids = self.online_rule_ids



        reservation_minutes = self.reservation_minutes

        reviewers_per_item = self.reviewers_per_item


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metric": metric,
            "name": name,
            "routing": routing,
        })
        if evaluation_ids is not UNSET:
            field_dict["evaluation_ids"] = evaluation_ids
        if online_rule_ids is not UNSET:
            field_dict["online_rule_ids"] = online_rule_ids
        if reservation_minutes is not UNSET:
            field_dict["reservation_minutes"] = reservation_minutes
        if reviewers_per_item is not UNSET:
            field_dict["reviewers_per_item"] = reviewers_per_item

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.routing import Routing # noqa: PLC0415
        d = dict(src_dict)
        metric = d.pop("metric")

        name = d.pop("name")

        routing = Routing.from_dict(d.pop("routing"))




        evaluation_ids = cast(list[str], d.pop("evaluation_ids", UNSET))


        online_rule_ids = cast(list[str], d.pop("online_rule_ids", UNSET))


        reservation_minutes = d.pop("reservation_minutes", UNSET)

        reviewers_per_item = d.pop("reviewers_per_item", UNSET)

        review_queue_create = cls(
            metric=metric,
            name=name,
            routing=routing,
            evaluation_ids=evaluation_ids,
            online_rule_ids=online_rule_ids,
            reservation_minutes=reservation_minutes,
            reviewers_per_item=reviewers_per_item,
        )

        return review_queue_create

