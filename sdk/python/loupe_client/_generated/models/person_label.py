from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PersonLabel")



@_attrs_define
class PersonLabel:
    """ One person's label of a disagreement's item.

        Attributes:
            actor (str):
            actor_name (None | str):
            passed (bool | None):
            rationale (None | str):
            selection (str): `direct`, `random` (a queue's audit share) or `routed`.
            value (float | None): On the metric's scale; null for a pass/fail label.
     """

    actor: str
    actor_name: None | str
    passed: bool | None
    rationale: None | str
    selection: str
    value: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        actor = self.actor

        actor_name: None | str
        actor_name = self.actor_name

        passed: bool | None
        passed = self.passed

        rationale: None | str
        rationale = self.rationale

        selection = self.selection

        value: float | None
        value = self.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "actor": actor,
            "actor_name": actor_name,
            "passed": passed,
            "rationale": rationale,
            "selection": selection,
            "value": value,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        actor = d.pop("actor")

        def _parse_actor_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        actor_name = _parse_actor_name(d.pop("actor_name"))


        def _parse_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        passed = _parse_passed(d.pop("passed"))


        def _parse_rationale(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rationale = _parse_rationale(d.pop("rationale"))


        selection = d.pop("selection")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))


        person_label = cls(
            actor=actor,
            actor_name=actor_name,
            passed=passed,
            rationale=rationale,
            selection=selection,
            value=value,
        )


        person_label.additional_properties = d
        return person_label

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
