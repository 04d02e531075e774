from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.online_rule_trend_bucket import check_online_rule_trend_bucket
from ..models.online_rule_trend_bucket import OnlineRuleTrendBucket
from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.metric_trend import MetricTrend





T = TypeVar("T", bound="OnlineRuleTrend")



@_attrs_define
class OnlineRuleTrend:
    """ Each metric of a rule over time: hourly or daily mean and pass rate with intervals.

        Attributes:
            bucket (OnlineRuleTrendBucket):
            metrics (list[MetricTrend]):
            rule_id (str):
            since (datetime.datetime): The first instant covered: the asked `since` floored to its bucket.
            until (datetime.datetime): The end of the range covered (excluded): the asked `until` ceiled to its bucket
                (buckets are rollups, counted whole: `until` 20:10 by hour covers up to 21:00).
            object_ (Literal['online_rule_trend'] | Unset):  Default: 'online_rule_trend'.
     """

    bucket: OnlineRuleTrendBucket
    metrics: list[MetricTrend]
    rule_id: str
    since: datetime.datetime
    until: datetime.datetime
    object_: Literal['online_rule_trend'] | Unset = 'online_rule_trend'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.metric_trend import MetricTrend # noqa: PLC0415
        bucket: str = self.bucket

        metrics = []
        for metrics_item_data in self.metrics:
            metrics_item = metrics_item_data.to_dict()
            metrics.append(metrics_item)



        rule_id = self.rule_id

        since = self.since.isoformat()

        until = self.until.isoformat()

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bucket": bucket,
            "metrics": metrics,
            "rule_id": rule_id,
            "since": since,
            "until": until,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metric_trend import MetricTrend # noqa: PLC0415
        d = dict(src_dict)
        bucket = check_online_rule_trend_bucket(d.pop("bucket"))




        metrics = []
        _metrics = d.pop("metrics")
        for metrics_item_data in (_metrics):
            metrics_item = MetricTrend.from_dict(metrics_item_data)



            metrics.append(metrics_item)


        rule_id = d.pop("rule_id")

        since = datetime.datetime.fromisoformat(d.pop("since"))




        until = datetime.datetime.fromisoformat(d.pop("until"))




        object_ = cast(Literal['online_rule_trend'] | Unset , d.pop("object", UNSET))
        if object_ != 'online_rule_trend'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'online_rule_trend', got '{object_}'")

        online_rule_trend = cls(
            bucket=bucket,
            metrics=metrics,
            rule_id=rule_id,
            since=since,
            until=until,
            object_=object_,
        )


        online_rule_trend.additional_properties = d
        return online_rule_trend

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
