from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast






T = TypeVar("T", bound="FileObject")



@_attrs_define
class FileObject:
    """ 
        Attributes:
            bytes_ (int):
            created_at (int):
            filename (str):
            id (str):
            purpose (str):
            expires_at (int | None | Unset):
            object_ (Literal['file'] | Unset):  Default: 'file'.
            status (Literal['processed'] | Unset):  Default: 'processed'.
            status_details (None | str | Unset):
     """

    bytes_: int
    created_at: int
    filename: str
    id: str
    purpose: str
    expires_at: int | None | Unset = UNSET
    object_: Literal['file'] | Unset = 'file'
    status: Literal['processed'] | Unset = 'processed'
    status_details: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        bytes_ = self.bytes_

        created_at = self.created_at

        filename = self.filename

        id = self.id

        purpose = self.purpose

        expires_at: int | None | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at

        object_ = self.object_

        status = self.status

        status_details: None | str | Unset
        if isinstance(self.status_details, Unset):
            status_details = UNSET
        else:
            status_details = self.status_details


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bytes": bytes_,
            "created_at": created_at,
            "filename": filename,
            "id": id,
            "purpose": purpose,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if object_ is not UNSET:
            field_dict["object"] = object_
        if status is not UNSET:
            field_dict["status"] = status
        if status_details is not UNSET:
            field_dict["status_details"] = status_details

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bytes_ = d.pop("bytes")

        created_at = d.pop("created_at")

        filename = d.pop("filename")

        id = d.pop("id")

        purpose = d.pop("purpose")

        def _parse_expires_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        object_ = cast(Literal['file'] | Unset , d.pop("object", UNSET))
        if object_ != 'file'and not isinstance(object_, Unset):
            raise ValueError(f"object must match const 'file', got '{object_}'")

        status = cast(Literal['processed'] | Unset , d.pop("status", UNSET))
        if status != 'processed'and not isinstance(status, Unset):
            raise ValueError(f"status must match const 'processed', got '{status}'")

        def _parse_status_details(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status_details = _parse_status_details(d.pop("status_details", UNSET))


        file_object = cls(
            bytes_=bytes_,
            created_at=created_at,
            filename=filename,
            id=id,
            purpose=purpose,
            expires_at=expires_at,
            object_=object_,
            status=status,
            status_details=status_details,
        )


        file_object.additional_properties = d
        return file_object

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
