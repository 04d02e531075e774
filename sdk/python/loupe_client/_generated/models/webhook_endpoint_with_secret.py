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






T = TypeVar("T", bound="WebhookEndpointWithSecret")



@_attrs_define
class WebhookEndpointWithSecret:
    """ 
        Attributes:
            created_at (datetime.datetime):
            description (None | str):
            disabled_reason (None | str): Why the endpoint was disabled (`enabled: false`): its receiver answered 410 Gone,
                or it failed continuously for too long; null while enabled. Registering its URL again turns it back on.
            enabled (bool):
            failing_since (datetime.datetime | None): The first failed attempt since the last successful one: every attempt
                since has failed (null once one succeeds). Failing for `LOUPE_WEBHOOK_DISABLE_AFTER_HOURS` (120 by default)
                disables the endpoint.
            id (str):
            secret (str): `whsec_…`; shown only when the endpoint is created.
            url (str):
            object_ (Literal['webhook_endpoint'] | Unset):  Default: 'webhook_endpoint'.
     """

    created_at: datetime.datetime
    description: None | str
    disabled_reason: None | str
    enabled: bool
    failing_since: datetime.datetime | None
    id: str
    secret: str
    url: str
    object_: Literal['webhook_endpoint'] | Unset = 'webhook_endpoint'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description: None | str
        description = self.description

        disabled_reason: None | str
        disabled_reason = self.disabled_reason

        enabled = self.enabled

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        id = self.id

        secret = self.secret

        url = self.url

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "description": description,
            "disabled_reason": disabled_reason,
            "enabled": enabled,
            "failing_since": failing_since,
            "id": id,
            "secret": secret,
            "url": url,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))


        def _parse_disabled_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason"))


        enabled = d.pop("enabled")

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)



                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))


        id = d.pop("id")

        secret = d.pop("secret")

        url = d.pop("url")

        object_ = cast(Literal['webhook_endpoint'] | Unset , d.pop("object", UNSET))
        if object_ != 'webhook_endpoint'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'webhook_endpoint', got '{object_}'")

        webhook_endpoint_with_secret = cls(
            created_at=created_at,
            description=description,
            disabled_reason=disabled_reason,
            enabled=enabled,
            failing_since=failing_since,
            id=id,
            secret=secret,
            url=url,
            object_=object_,
        )


        webhook_endpoint_with_secret.additional_properties = d
        return webhook_endpoint_with_secret

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
