from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="PanelMember")



@_attrs_define
class PanelMember:
    """ One judge of a panel: a model the tenant registered, or the server's judge.

        Attributes:
            model (None | str | Unset): The model name to ask at that endpoint; defaults to the registered model's, or
                LOUPE_JUDGE_MODEL for the server's judge.
            model_id (None | str | Unset): A model from /v1/models; omitted: the server's judge (LOUPE_JUDGE_*).
            weight (float | Unset): Its share in the panel's aggregate. Default: 1.0.
     """

    model: None | str | Unset = UNSET
    model_id: None | str | Unset = UNSET
    weight: float | Unset = 1.0





    def to_dict(self) -> dict[str, Any]:
        model: None | str | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        else:
            model = self.model

        model_id: None | str | Unset
        if isinstance(self.model_id, Unset):
            model_id = UNSET
        else:
            model_id = self.model_id

        weight = self.weight


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if model is not UNSET:
            field_dict["model"] = model
        if model_id is not UNSET:
            field_dict["model_id"] = model_id
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_model(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model = _parse_model(d.pop("model", UNSET))


        def _parse_model_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        model_id = _parse_model_id(d.pop("model_id", UNSET))


        weight = d.pop("weight", UNSET)

        panel_member = cls(
            model=model,
            model_id=model_id,
            weight=weight,
        )

        return panel_member

