from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CandidateModelCreate")



@_attrs_define
class CandidateModelCreate:
    """ 
        Attributes:
            base_url (str): The OpenAI-compatible API root, e.g. `https://api.openai.com/v1`.
            model (str): The model name to request.
            api_key (None | str | Unset): Stored encrypted; never returned. Omit for endpoints without auth.
            name (None | str | Unset):
     """

    base_url: str
    model: str
    api_key: None | str | Unset = UNSET
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        model = self.model

        api_key: None | str | Unset
        if isinstance(self.api_key, Unset):
            api_key = UNSET
        else:
            api_key = self.api_key

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "base_url": base_url,
            "model": model,
        })
        if api_key is not UNSET:
            field_dict["api_key"] = api_key
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_url = d.pop("base_url")

        model = d.pop("model")

        def _parse_api_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        api_key = _parse_api_key(d.pop("api_key", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        candidate_model_create = cls(
            base_url=base_url,
            model=model,
            api_key=api_key,
            name=name,
        )

        return candidate_model_create

