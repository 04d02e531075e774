from typing import Literal

ImageUrlDetailType0 = Literal['auto', 'high', 'low']

IMAGE_URL_DETAIL_TYPE_0_VALUES: set[ImageUrlDetailType0] = { 'auto', 'high', 'low',  }

def check_image_url_detail_type_0(value: str) -> ImageUrlDetailType0:
    if value in IMAGE_URL_DETAIL_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {IMAGE_URL_DETAIL_TYPE_0_VALUES!r}")
