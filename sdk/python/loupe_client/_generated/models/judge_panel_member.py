from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="JudgePanelMember")



@_attrs_define
class JudgePanelMember:
    """ One judge of a metric's panel, as resolved at submit.

        Attributes:
            host (None | str): The judge endpoint's host.
            model (None | str): The model name sent to the judge endpoint.
            model_id (None | str): The tenant's registered model (/v1/models); null: the server's judge.
            weight (float): The member's weight in the panel's aggregate.
     """

    host: None | str
    model: None | str
    model_id: None | str
    weight: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        host: None | str
        host = self.host

        model: None | str
        model = self.model

        model_id: None | str
        model_id = self.model_id

        weight = self.weight


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "host": host,
            "model": model,
            "model_id": model_id,
            "weight": weight,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_host(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        host = _parse_host(d.pop("host"))


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


        weight = d.pop("weight")

        judge_panel_member = cls(
            host=host,
            model=model,
            model_id=model_id,
            weight=weight,
        )


        judge_panel_member.additional_properties = d
        return judge_panel_member

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
