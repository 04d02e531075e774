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
  from ..models.scale import Scale
  from ..models.test_case import TestCase





T = TypeVar("T", bound="ReviewItem")



@_attrs_define
class ReviewItem:
    """ An item claimed for labelling: the test case and the metric's scale, and nothing the
    judge said (blind, so the judge's verdict cannot anchor yours).

        Attributes:
            expires_at (datetime.datetime): When the reservation lapses and the item returns.
            id (str):
            metric (str):
            metric_type (str):
            metric_version (str):
            queue_id (str):
            scale (Scale):
            test_case (TestCase): A submitted test case as stored: images are `image_url` parts whose URL is
                `GET /v1/media/{sha256}` (send the API key), with what was done to them under `blob`.
            threshold (float | None):
            object_ (Literal['review_item'] | Unset):  Default: 'review_item'.
     """

    expires_at: datetime.datetime
    id: str
    metric: str
    metric_type: str
    metric_version: str
    queue_id: str
    scale: Scale
    test_case: TestCase
    threshold: float | None
    object_: Literal['review_item'] | Unset = 'review_item'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.scale import Scale # noqa: PLC0415
        from ..models.test_case import TestCase # noqa: PLC0415
        expires_at = self.expires_at.isoformat()

        id = self.id

        metric = self.metric

        metric_type = self.metric_type

        metric_version = self.metric_version

        queue_id = self.queue_id

        scale = self.scale.to_dict()

        test_case = self.test_case.to_dict()

        threshold: float | None
        threshold = self.threshold

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "expires_at": expires_at,
            "id": id,
            "metric": metric,
            "metric_type": metric_type,
            "metric_version": metric_version,
            "queue_id": queue_id,
            "scale": scale,
            "test_case": test_case,
            "threshold": threshold,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.scale import Scale # noqa: PLC0415
        from ..models.test_case import TestCase # noqa: PLC0415
        d = dict(src_dict)
        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))




        id = d.pop("id")

        metric = d.pop("metric")

        metric_type = d.pop("metric_type")

        metric_version = d.pop("metric_version")

        queue_id = d.pop("queue_id")

        scale = Scale.from_dict(d.pop("scale"))




        test_case = TestCase.from_dict(d.pop("test_case"))




        def _parse_threshold(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        threshold = _parse_threshold(d.pop("threshold"))


        object_ = cast(Literal['review_item'] | Unset , d.pop("object", UNSET))
        if object_ != 'review_item'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'review_item', got '{object_}'")

        review_item = cls(
            expires_at=expires_at,
            id=id,
            metric=metric,
            metric_type=metric_type,
            metric_version=metric_version,
            queue_id=queue_id,
            scale=scale,
            test_case=test_case,
            threshold=threshold,
            object_=object_,
        )


        review_item.additional_properties = d
        return review_item

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
