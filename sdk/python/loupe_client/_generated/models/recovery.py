from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.recovery_state import check_recovery_state
from ..models.recovery_state import RecoveryState
from typing import cast
import datetime






T = TypeVar("T", bound="Recovery")



@_attrs_define
class Recovery:
    """ A running evaluation whose jobs went quiet, or that runs again after they did.

        Attributes:
            dispatch_attempts (int):
            last_heartbeat_at (datetime.datetime):
            state (RecoveryState): `stalled`: no job has reported for several heartbeats (its worker may have died); the
                ticker re-enqueues it once the heartbeat is LOUPE_STUCK_AFTER_SECONDS old. `recovering`: it was re-enqueued and
                runs again; stored results are kept and skipped.
     """

    dispatch_attempts: int
    last_heartbeat_at: datetime.datetime
    state: RecoveryState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        dispatch_attempts = self.dispatch_attempts

        last_heartbeat_at = self.last_heartbeat_at.isoformat()

        state: str = self.state


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "dispatch_attempts": dispatch_attempts,
            "last_heartbeat_at": last_heartbeat_at,
            "state": state,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dispatch_attempts = d.pop("dispatch_attempts")

        last_heartbeat_at = datetime.datetime.fromisoformat(d.pop("last_heartbeat_at"))




        state = check_recovery_state(d.pop("state"))




        recovery = cls(
            dispatch_attempts=dispatch_attempts,
            last_heartbeat_at=last_heartbeat_at,
            state=state,
        )


        recovery.additional_properties = d
        return recovery

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
