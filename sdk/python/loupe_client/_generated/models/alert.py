from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Alert")



@_attrs_define
class Alert:
    """ 
        Attributes:
            firing_since (datetime.datetime | None): When its current episode began (`online_rule.alert` was sent); null:
                the pass rate is not known to be below the threshold.
            metric (str): One of the rule's metrics.
            threshold (float): The lowest acceptable pass rate.
            webhook_url (str): A webhook endpoint registered with POST /v1/webhook_endpoints.
            window_hours (int): The hourly buckets counted, the current one included.
     """

    firing_since: datetime.datetime | None
    metric: str
    threshold: float
    webhook_url: str
    window_hours: int





    def to_dict(self) -> dict[str, Any]:
        firing_since: None | str
        if isinstance(self.firing_since, datetime.datetime):
            firing_since = self.firing_since.isoformat()
        else:
            firing_since = self.firing_since

        metric = self.metric

        threshold = self.threshold

        webhook_url = self.webhook_url

        window_hours = self.window_hours


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "firing_since": firing_since,
            "metric": metric,
            "threshold": threshold,
            "webhook_url": webhook_url,
            "window_hours": window_hours,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_firing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                firing_since_type_0 = datetime.datetime.fromisoformat(data)



                return firing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        firing_since = _parse_firing_since(d.pop("firing_since"))


        metric = d.pop("metric")

        threshold = d.pop("threshold")

        webhook_url = d.pop("webhook_url")

        window_hours = d.pop("window_hours")

        alert = cls(
            firing_since=firing_since,
            metric=metric,
            threshold=threshold,
            webhook_url=webhook_url,
            window_hours=window_hours,
        )

        return alert

