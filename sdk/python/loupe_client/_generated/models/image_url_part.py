from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from typing import Literal, cast

if TYPE_CHECKING:
  from ..models.image_url import ImageUrl
  from ..models.image_url_part_blob_type_0 import ImageUrlPartBlobType0





T = TypeVar("T", bound="ImageUrlPart")



@_attrs_define
class ImageUrlPart:
    """ 
        Attributes:
            image_url (ImageUrl):
            type_ (Literal['image_url']):
            blob (ImageUrlPartBlobType0 | None | Unset): What Loupe did to a stored image, as read back; ignored when
                submitted.
     """

    image_url: ImageUrl
    type_: Literal['image_url']
    blob: ImageUrlPartBlobType0 | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.image_url import ImageUrl # noqa: PLC0415
        from ..models.image_url_part_blob_type_0 import ImageUrlPartBlobType0 # noqa: PLC0415
        image_url = self.image_url.to_dict()

        type_ = self.type_

        blob: dict[str, Any] | None | Unset
        if isinstance(self.blob, Unset):
            blob = UNSET
        elif isinstance(self.blob, ImageUrlPartBlobType0):
            blob = self.blob.to_dict()
        else:
            blob = self.blob


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "image_url": image_url,
            "type": type_,
        })
        if blob is not UNSET:
            field_dict["blob"] = blob

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.image_url import ImageUrl # noqa: PLC0415
        from ..models.image_url_part_blob_type_0 import ImageUrlPartBlobType0 # noqa: PLC0415
        d = dict(src_dict)
        image_url = ImageUrl.from_dict(d.pop("image_url"))




        type_ = cast(Literal['image_url'] , d.pop("type"))
        if type_ != 'image_url':
            raise ValueError(f"type must match const 'image_url', got '{type_}'")

        def _parse_blob(data: object) -> ImageUrlPartBlobType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                blob_type_0 = ImageUrlPartBlobType0.from_dict(data)



                return blob_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImageUrlPartBlobType0 | None | Unset, data)

        blob = _parse_blob(d.pop("blob", UNSET))


        image_url_part = cls(
            image_url=image_url,
            type_=type_,
            blob=blob,
        )

        return image_url_part

