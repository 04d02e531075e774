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






T = TypeVar("T", bound="CandidateModel")



@_attrs_define
class CandidateModel:
    """ 
        Attributes:
            base_url (str):
            created_at (datetime.datetime):
            has_api_key (bool):
            id (str):
            model (str):
            name (None | str):
            object_ (Literal['model'] | Unset):  Default: 'model'.
     """

    base_url: str
    created_at: datetime.datetime
    has_api_key: bool
    id: str
    model: str
    name: None | str
    object_: Literal['model'] | Unset = 'model'
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        base_url = self.base_url

        created_at = self.created_at.isoformat()

        has_api_key = self.has_api_key

        id = self.id

        model = self.model

        name: None | str
        name = self.name

        object_ = self.object_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "base_url": base_url,
            "created_at": created_at,
            "has_api_key": has_api_key,
            "id": id,
            "model": model,
            "name": name,
        })
        if object_ is not UNSET:
            field_dict["object"] = object_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        base_url = d.pop("base_url")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))




        has_api_key = d.pop("has_api_key")

        id = d.pop("id")

        model = d.pop("model")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))


        object_ = cast(Literal['model'] | Unset , d.pop("object", UNSET))
        if object_ != 'model'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'model', got '{object_}'")

        candidate_model = cls(
            base_url=base_url,
            created_at=created_at,
            has_api_key=has_api_key,
            id=id,
            model=model,
            name=name,
            object_=object_,
        )


        candidate_model.additional_properties = d
        return candidate_model

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
