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
  from ..models.audit_event_details import AuditEventDetails





T = TypeVar("T", bound="AuditEvent")



@_attrs_define
class AuditEvent:
    """ 
        Attributes:
            action (str): `<object type>.<verb>`, e.g. `evaluation.delete`.
            actor (str): Who acted: `key:<key id>`, `person:<person id>`, `operator` (the `loupe` command) or `system`
                (jobs, the ticker).
            at (datetime.datetime):
            details (AuditEventDetails): What else the change was about; no secret.
            id (str):
            object_id (str):
            object_type (str):
            object_ (Literal['audit_event'] | Unset):  Default: 'audit_event'.
     """

    action: str
    actor: str
    at: datetime.datetime
    details: AuditEventDetails
    id: str
    object_id: str
    object_type: str
    object_: Literal['audit_event'] | Unset = 'audit_event'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_event_details import AuditEventDetails # noqa: PLC0415
        action = self.action

        actor = self.actor

        at = self.at.isoformat()

        details = self.details.to_dict()

        id = self.id

        object_id = self.object_id

        object_type = self.object_type

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "action": action,
            "actor": actor,
            "at": at,
            "details": details,
            "id": id,
            "object_id": object_id,
            "object_type": object_type,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_event_details import AuditEventDetails # noqa: PLC0415
        d = dict(src_dict)
        action = d.pop("action")

        actor = d.pop("actor")

        at = datetime.datetime.fromisoformat(d.pop("at"))




        details = AuditEventDetails.from_dict(d.pop("details"))




        id = d.pop("id")

        object_id = d.pop("object_id")

        object_type = d.pop("object_type")

        object_ = cast(Literal['audit_event'] | Unset , d.pop("object", UNSET))
        if object_ != 'audit_event'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'audit_event', got '{object_}'")

        audit_event = cls(
            action=action,
            actor=actor,
            at=at,
            details=details,
            id=id,
            object_id=object_id,
            object_type=object_type,
            object_=object_,
        )


        audit_event.additional_properties = d
        return audit_event

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
