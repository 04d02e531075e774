from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.trend_point import TrendPoint





T = TypeVar("T", bound="MetricTrend")



@_attrs_define
class MetricTrend:
    """ 
        Attributes:
            bounds (list[float]): The lowest and highest score it gives.
            metric (str): The metric's name in the rule.
            points (list[TrendPoint]): Buckets holding at least one result, oldest first.
            type_ (str):
     """

    bounds: list[float]
    metric: str
    points: list[TrendPoint]
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trend_point import TrendPoint # noqa: PLC0415
        bounds = []
        for bounds_item_data in self.bounds:
            bounds_item: float
            bounds_item = bounds_item_data
            bounds.append(bounds_item)



        metric = self.metric

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)



        type_ = self.type_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bounds": bounds,
            "metric": metric,
            "points": points,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trend_point import TrendPoint # noqa: PLC0415
        d = dict(src_dict)
        bounds = []
        _bounds = d.pop("bounds")
        for bounds_item_data in (_bounds):
            def _parse_bounds_item(data: object) -> float:
                return cast(float, data)

            bounds_item = _parse_bounds_item(bounds_item_data)

            bounds.append(bounds_item)


        metric = d.pop("metric")

        points = []
        _points = d.pop("points")
        for points_item_data in (_points):
            points_item = TrendPoint.from_dict(points_item_data)



            points.append(points_item)


        type_ = d.pop("type")

        metric_trend = cls(
            bounds=bounds,
            metric=metric,
            points=points,
            type_=type_,
        )


        metric_trend.additional_properties = d
        return metric_trend

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
