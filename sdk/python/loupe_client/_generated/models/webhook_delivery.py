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






T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ 
        Attributes:
            attempt (int):
            attempted_at (datetime.datetime):
            duration_ms (int):
            error (None | str):
            event_id (str):
            event_type (str):
            id (str):
            response_body (None | str):
            status_code (int | None):
            succeeded (bool):
            object_ (Literal['webhook_delivery'] | Unset):  Default: 'webhook_delivery'.
     """

    attempt: int
    attempted_at: datetime.datetime
    duration_ms: int
    error: None | str
    event_id: str
    event_type: str
    id: str
    response_body: None | str
    status_code: int | None
    succeeded: bool
    object_: Literal['webhook_delivery'] | Unset = 'webhook_delivery'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        attempted_at = self.attempted_at.isoformat()

        duration_ms = self.duration_ms

        error: None | str
        error = self.error

        event_id = self.event_id

        event_type = self.event_type

        id = self.id

        response_body: None | str
        response_body = self.response_body

        status_code: int | None
        status_code = self.status_code

        succeeded = self.succeeded

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt": attempt,
            "attempted_at": attempted_at,
            "duration_ms": duration_ms,
            "error": error,
            "event_id": event_id,
            "event_type": event_type,
            "id": id,
            "response_body": response_body,
            "status_code": status_code,
            "succeeded": succeeded,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))




        duration_ms = d.pop("duration_ms")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))


        event_id = d.pop("event_id")

        event_type = d.pop("event_type")

        id = d.pop("id")

        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("response_body"))


        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("status_code"))


        succeeded = d.pop("succeeded")

        object_ = cast(Literal['webhook_delivery'] | Unset , d.pop("object", UNSET))
        if object_ != 'webhook_delivery'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'webhook_delivery', got '{object_}'")

        webhook_delivery = cls(
            attempt=attempt,
            attempted_at=attempted_at,
            duration_ms=duration_ms,
            error=error,
            event_id=event_id,
            event_type=event_type,
            id=id,
            response_body=response_body,
            status_code=status_code,
            succeeded=succeeded,
            object_=object_,
        )


        webhook_delivery.additional_properties = d
        return webhook_delivery

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
