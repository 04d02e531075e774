from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.image_url_detail_type_0 import check_image_url_detail_type_0
from ..models.image_url_detail_type_0 import ImageUrlDetailType0
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ImageUrl")



@_attrs_define
class ImageUrl:
    """ 
        Attributes:
            url (str):
            detail (ImageUrlDetailType0 | None | Unset):
     """

    url: str
    detail: ImageUrlDetailType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        url = self.url

        detail: None | str | Unset
        if isinstance(self.detail, Unset):
            detail = UNSET
        elif isinstance(self.detail, str):
            detail = self.detail
        else:
            detail = self.detail


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "url": url,
        })
        if detail is not UNSET:
            field_dict["detail"] = detail

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_detail(data: object) -> ImageUrlDetailType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                detail_type_0 = check_image_url_detail_type_0(data)



                return detail_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImageUrlDetailType0 | None | Unset, data)

        detail = _parse_detail(d.pop("detail", UNSET))


        image_url = cls(
            url=url,
            detail=detail,
        )

        return image_url

