from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="AlertSettings")



@_attrs_define
class AlertSettings:
    """ A Standard Webhooks `online_rule.alert` to `webhook_url` when the metric's pass rate over
    the last `window_hours` UTC hours is below `threshold` with 95% confidence (the upper bound
    of its Wilson interval is below it: one bad call does not do), once per episode; an
    `online_rule.alert_resolved` once the upper bound is back at or above it.

        Attributes:
            metric (str): One of the rule's metrics.
            threshold (float): The lowest acceptable pass rate.
            webhook_url (str): A webhook endpoint registered with POST /v1/webhook_endpoints.
            window_hours (int): The hourly buckets counted, the current one included.
     """

    metric: str
    threshold: float
    webhook_url: str
    window_hours: int





    def to_dict(self) -> dict[str, Any]:
        metric = self.metric

        threshold = self.threshold

        webhook_url = self.webhook_url

        window_hours = self.window_hours


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "metric": metric,
            "threshold": threshold,
            "webhook_url": webhook_url,
            "window_hours": window_hours,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        metric = d.pop("metric")

        threshold = d.pop("threshold")

        webhook_url = d.pop("webhook_url")

        window_hours = d.pop("window_hours")

        alert_settings = cls(
            metric=metric,
            threshold=threshold,
            webhook_url=webhook_url,
            window_hours=window_hours,
        )

        return alert_settings

