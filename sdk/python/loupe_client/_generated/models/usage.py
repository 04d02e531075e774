from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.usage_group_by import check_usage_group_by
from ..models.usage_group_by import UsageGroupBy
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.usage_bucket import UsageBucket
  from ..models.usage_totals import UsageTotals





T = TypeVar("T", bound="Usage")



@_attrs_define
class Usage:
    """ 
        Attributes:
            candidate (UsageTotals):
            cost_usd (float | None): Everything in the range; null when unknown.
            data (list[UsageBucket]): Buckets with calls, days or models in order.
            end (datetime.date): Last UTC day counted (inclusive).
            group_by (UsageGroupBy):
            judge (UsageTotals):
            start (datetime.date): First UTC day counted.
            object_ (Literal['usage'] | Unset):  Default: 'usage'.
     """

    candidate: UsageTotals
    cost_usd: float | None
    data: list[UsageBucket]
    end: datetime.date
    group_by: UsageGroupBy
    judge: UsageTotals
    start: datetime.date
    object_: Literal['usage'] | Unset = 'usage'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.usage_bucket import UsageBucket # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        candidate = self.candidate.to_dict()

        cost_usd: float | None
        cost_usd = self.cost_usd

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)



        end = self.end.isoformat()

        group_by: str = self.group_by

        judge = self.judge.to_dict()

        start = self.start.isoformat()

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "candidate": candidate,
            "cost_usd": cost_usd,
            "data": data,
            "end": end,
            "group_by": group_by,
            "judge": judge,
            "start": start,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.usage_bucket import UsageBucket # noqa: PLC0415
        from ..models.usage_totals import UsageTotals # noqa: PLC0415
        d = dict(src_dict)
        candidate = UsageTotals.from_dict(d.pop("candidate"))




        def _parse_cost_usd(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        cost_usd = _parse_cost_usd(d.pop("cost_usd"))


        data = []
        _data = d.pop("data")
        for data_item_data in (_data):
            data_item = UsageBucket.from_dict(data_item_data)



            data.append(data_item)


        end = datetime.date.fromisoformat(d.pop("end"))




        group_by = check_usage_group_by(d.pop("group_by"))




        judge = UsageTotals.from_dict(d.pop("judge"))




        start = datetime.date.fromisoformat(d.pop("start"))




        object_ = cast(Literal['usage'] | Unset , d.pop("object", UNSET))
        if object_ != 'usage'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'usage', got '{object_}'")

        usage = cls(
            candidate=candidate,
            cost_usd=cost_usd,
            data=data,
            end=end,
            group_by=group_by,
            judge=judge,
            start=start,
            object_=object_,
        )


        usage.additional_properties = d
        return usage

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
