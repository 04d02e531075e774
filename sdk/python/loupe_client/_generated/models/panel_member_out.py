from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="PanelMemberOut")



@_attrs_define
class PanelMemberOut:
    """ A panel member's own verdict over its samples.

        Attributes:
            errored (int):
            host (None | str):
            member (int):
            model (None | str):
            model_id (None | str): Its registered model; null: the server's judge.
            passed (bool | None):
            reason (None | str): The reason of its sample nearest its score.
            score (float | None): Its samples' aggregate.
            weight (float):
     """

    errored: int
    host: None | str
    member: int
    model: None | str
    model_id: None | str
    passed: bool | None
    reason: None | str
    score: float | None
    weight: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        errored = self.errored

        host: None | str
        host = self.host

        member = self.member

        model: None | str
        model = self.model

        model_id: None | str
        model_id = self.model_id

        passed: bool | None
        passed = self.passed

        reason: None | str
        reason = self.reason

        score: float | None
        score = self.score

        weight = self.weight


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "errored": errored,
            "host": host,
            "member": member,
            "model": model,
            "model_id": model_id,
            "passed": passed,
            "reason": reason,
            "score": score,
            "weight": weight,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        errored = d.pop("errored")

        def _parse_host(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        host = _parse_host(d.pop("host"))


        member = d.pop("member")

        def _parse_model(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model = _parse_model(d.pop("model"))


        def _parse_model_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        model_id = _parse_model_id(d.pop("model_id"))


        def _parse_passed(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        passed = _parse_passed(d.pop("passed"))


        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))


        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))


        weight = d.pop("weight")

        panel_member_out = cls(
            errored=errored,
            host=host,
            member=member,
            model=model,
            model_id=model_id,
            passed=passed,
            reason=reason,
            score=score,
            weight=weight,
        )


        panel_member_out.additional_properties = d
        return panel_member_out

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
