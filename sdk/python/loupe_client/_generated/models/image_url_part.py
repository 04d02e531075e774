from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.image_url import ImageUrl





T = TypeVar("T", bound="ImageUrlPart")



@_attrs_define
class ImageUrlPart:
    """ 
        Attributes:
            image_url (ImageUrl):
            type_ (Literal['image_url']):
     """

    image_url: ImageUrl
    type_: Literal['image_url']





    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url import ImageUrl # noqa: PLC0415
        image_url = self.image_url.to_dict()

        type_ = self.type_


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "image_url": image_url,
            "type": type_,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_url import ImageUrl # noqa: PLC0415
        d = dict(src_dict)
        image_url = ImageUrl.from_dict(d.pop("image_url"))




        type_ = cast(Literal['image_url'] , d.pop("type"))
        if type_ != 'image_url':
            raise ValueError(f"type must match const 'image_url', got '{type_}'")

        image_url_part = cls(
            image_url=image_url,
            type_=type_,
        )

        return image_url_part

