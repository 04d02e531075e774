"""Decode, check and normalise images: what a judge receives is a valid, reasonably sized image."""

import binascii
import hashlib
import io
import math
import re
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, UnidentifiedImageError

# format -> media type; the only formats accepted, and the ones OpenAI-style judges take.
MEDIA_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif"}
_PILLOW_FORMATS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP", "gif": "GIF"}
_DATA_URL = re.compile(r"data:image/(png|jpeg|webp|gif);base64,", re.IGNORECASE)
# Modes sent as they are; anything else (CMYK, 16-bit, float, ...) is converted first.
_KEEP_MODES = {
    "png": {"RGB", "RGBA", "L", "LA", "P", "1"},
    "jpeg": {"RGB", "L"},
    "webp": {"RGB", "RGBA"},
    "gif": {"P", "L"},
}
_EXIF_ORIENTATION = 0x0112
# What Pillow raises on a file it cannot parse or decode.
_UNREADABLE = (
    UnidentifiedImageError,
    OSError,
    SyntaxError,
    ValueError,
    Image.DecompressionBombError,
)


class ImageError(ValueError):
    """An image Loupe refuses; `type` becomes the field error's type."""

    def __init__(self, message: str, type_: str) -> None:
        super().__init__(message)
        self.message = message
        self.type = type_


@dataclass(frozen=True)
class ImageLimits:
    max_bytes: int = 20 * 1024 * 1024
    max_pixels: int = 50_000_000
    max_side: int = 2048

    @classmethod
    def from_settings(cls, settings: Any) -> "ImageLimits":
        return cls(
            settings.max_image_bytes, settings.max_image_pixels, settings.judge_image_max_side
        )


def data_url_size(url: str) -> int:
    """The decoded size a base64 data URL announces, without decoding it."""
    payload = len(url) - url.index(",") - 1 if "," in url else 0
    return payload // 4 * 3


def decode_data_url(url: str, max_bytes: int) -> tuple[str, bytes]:
    """The declared format and bytes of a `data:image/<format>;base64,` URL."""
    match = _DATA_URL.match(url)
    if match is None:
        raise ImageError(
            "a data URL must be data:image/{png,jpeg,webp,gif};base64,<data>", "image_data_url"
        )
    # Check the length before decoding: the decoded size is 3/4 of the base64 text.
    if data_url_size(url) > max_bytes + 2:
        raise ImageError(
            f"the image is larger than {max_bytes} bytes (LOUPE_MAX_IMAGE_BYTES)",
            "image_too_large",
        )
    payload = url[match.end() :]
    tail = payload[-4:]
    if len(payload) % 4 or len(tail) - len(tail.rstrip("=")) > 2:
        # strict_mode lets padding after a complete quad through.
        raise ImageError("the data URL is not valid base64: bad length or padding", "image_base64")
    try:
        # Strict: only the base64 alphabet, correct padding, nothing after it.
        data = binascii.a2b_base64(payload, strict_mode=True)
    except (binascii.Error, ValueError) as exc:
        raise ImageError(f"the data URL is not valid base64: {exc}", "image_base64") from exc
    return match.group(1).lower(), data


def sniff(data: bytes) -> str | None:
    """The format the bytes' magic number says, if it is one Loupe accepts."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


@dataclass(frozen=True)
class ImageFacts:
    format: str
    bytes: int
    width: int
    height: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "bytes": self.bytes,
            "width": self.width,
            "height": self.height,
        }


@dataclass(frozen=True)
class NormalisedImage:
    """The image a judge receives, and what was done to the one that was sent."""

    data: bytes = field(repr=False)
    sent: ImageFacts
    original: ImageFacts
    changes: tuple[str, ...] = ()

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.sent.format]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def check(data: bytes, declared: str | None, limits: ImageLimits) -> str:
    """The image's format, after checking size, magic bytes against `declared`, and that
    Pillow can read it without decoding more than `limits.max_pixels`."""
    return _inspect(data, declared, limits, verify=True).format


def header(data: bytes, declared: str | None, limits: ImageLimits) -> ImageFacts:
    """The image's format and size as its header states them, after the checks `check` makes
    short of reading the whole file: nothing is decoded, so this is cheap at any size."""
    return _inspect(data, declared, limits, verify=False)


def _inspect(data: bytes, declared: str | None, limits: ImageLimits, verify: bool) -> ImageFacts:
    if len(data) > limits.max_bytes:
        raise ImageError(
            f"the image is larger than {limits.max_bytes} bytes (LOUPE_MAX_IMAGE_BYTES)",
            "image_too_large",
        )
    found = sniff(data)
    if found is None:
        raise ImageError("the bytes are not a PNG, JPEG, WebP or GIF image", "image_type")
    if declared is not None and declared != found:
        raise ImageError(
            f"declared {MEDIA_TYPES[declared]} but the bytes are {MEDIA_TYPES[found]}",
            "image_type_mismatch",
        )
    try:
        with Image.open(io.BytesIO(data), formats=[_PILLOW_FORMATS[found]]) as image:
            _check_pixels(image, limits)
            facts = ImageFacts(found, len(data), image.width, image.height)
            if verify:
                image.verify()
    except ImageError:
        raise
    except Image.DecompressionBombError as exc:
        # Pillow's own cap (far above ours) fires while parsing the header.
        raise ImageError(f"the image has too many pixels: {exc}", "image_too_many_pixels") from exc
    except _UNREADABLE as exc:
        raise ImageError(f"the image cannot be read: {exc}", "image_unreadable") from exc
    return facts


def _check_pixels(image: Image.Image, limits: ImageLimits) -> None:
    # Only the header is parsed so far: refuse decompression bombs before decoding a pixel.
    width, height = image.size
    if width < 1 or height < 1 or width * height > limits.max_pixels:
        raise ImageError(
            f"the image is {width}x{height} pixels; at most {limits.max_pixels} are accepted",
            "image_too_many_pixels",
        )


def normalise(data: bytes, declared: str | None, limits: ImageLimits) -> NormalisedImage:
    """The image as a judge should receive it: checked, upright, in a mode judges accept, its
    long side at most `limits.max_side`; re-encoded only when one of those needed a change."""
    fmt = check(data, declared, limits)
    try:
        with Image.open(io.BytesIO(data), formats=[_PILLOW_FORMATS[fmt]]) as image:
            _check_pixels(image, limits)
            original = ImageFacts(fmt, len(data), image.width, image.height)
            changes = _needed_changes(image, fmt, limits)
            if not changes:
                image.load()  # a truncated file fails here, not at the judge
                return NormalisedImage(data, original, original)
            encoded, sent_format, size = _reencode(image, fmt, changes, limits)
    except ImageError:
        raise
    except _UNREADABLE as exc:
        raise ImageError(f"the image cannot be read: {exc}", "image_unreadable") from exc
    sent = ImageFacts(sent_format, len(encoded), *size)
    return NormalisedImage(encoded, sent, original, tuple(changes))


def _needed_changes(image: Image.Image, fmt: str, limits: ImageLimits) -> list[str]:
    changes = []
    if getattr(image, "n_frames", 1) > 1:
        changes.append("first_frame")  # judges take still images only
    if image.getexif().get(_EXIF_ORIENTATION, 1) not in (0, 1):
        changes.append("exif_orientation")
    if image.mode not in _KEEP_MODES[fmt]:
        changes.append(f"mode_{image.mode}")
    if max(image.size) > limits.max_side:
        changes.append("downscaled")
    return changes


def _judge_mode(image: Image.Image) -> Image.Image:
    """The image in RGB, RGBA, L or LA: modes every judge decodes and LANCZOS can resize."""
    mode = image.mode
    if mode.startswith("I;16") or mode == "I":
        # 16-bit grey: keep the high byte rather than clipping everything above 255 to white.
        return image.convert("I").point(lambda v: v * (1 / 256)).convert("L")
    if mode == "F":
        return image.convert("L")
    if mode in ("RGBA", "LA", "L", "RGB"):
        return image
    if mode in ("PA", "RGBa", "La") or "transparency" in image.info:
        return image.convert("RGBA")
    if mode == "1":
        return image.convert("L")
    return image.convert("RGB")


# EXIF orientation -> the transposition that makes the image upright (as ImageOps.exif_transpose).
_UPRIGHT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
_SWAPS_SIDES = {Image.Transpose.TRANSPOSE, Image.Transpose.TRANSVERSE}
_SWAPS_SIDES |= {Image.Transpose.ROTATE_90, Image.Transpose.ROTATE_270}
# Resize in two steps when the image is over this many times too large: a whole-factor reduce
# (box average), then LANCZOS; Pillow's own default for thumbnails, close to a fair resample.
_REDUCING_GAP = 2.0


def _fitted(size: tuple[int, int], max_side: int) -> tuple[int, int]:
    """`size` scaled to a long side of `max_side`, rounded as Pillow's thumbnail rounds it."""
    width, height = size
    aspect = width / height
    if aspect <= 1:
        return max(_nearest(max_side * aspect, lambda n: abs(aspect - n / max_side)), 1), max_side
    height = _nearest(max_side / aspect, lambda n: 0 if n == 0 else abs(aspect - max_side / n))
    return max_side, max(height, 1)


def _nearest(number: float, key: Any) -> int:
    return min(math.floor(number), math.ceil(number), key=key)


def _target(
    size: tuple[int, int], upright: Image.Transpose | None, max_side: int
) -> tuple[int, int] | None:
    """The size to resize to before turning upright, such that the upright image fits
    `max_side` as Pillow's thumbnail of it would; None when it fits already."""
    if max(size) <= max_side:
        return None
    swapped = upright in _SWAPS_SIDES
    width, height = _fitted(size[::-1] if swapped else size, max_side)
    return (height, width) if swapped else (width, height)


def _shrunk(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`image` resized to `size` (LANCZOS) with at most one full-size copy: alpha is
    premultiplied once and the reduce and resize run on that copy (Pillow's resize of RGBA would
    premultiply without its reducing step, and reduce would premultiply again)."""
    premultiplied = {"RGBA": "RGBa", "LA": "La"}.get(image.mode)
    working = image.convert(premultiplied) if premultiplied else image
    resized = working.resize(size, Image.Resampling.LANCZOS, reducing_gap=_REDUCING_GAP)
    return resized.convert(image.mode) if premultiplied else resized


def _reencode(
    image: Image.Image, fmt: str, changes: list[str], limits: ImageLimits
) -> tuple[bytes, str, tuple[int, int]]:
    image.seek(0)
    orientation = image.getexif().get(_EXIF_ORIENTATION, 1)
    upright = _UPRIGHT.get(orientation) if "exif_orientation" in changes else None
    target = _target(image.size, upright, limits.max_side)
    if target is not None:
        # A JPEG decodes at 1/2, 1/4 or 1/8 scale if that is still at least the size sent.
        image.draft(None, target)
    image.load()
    icc_profile = image.info.get("icc_profile")
    # Resize first, in the decoded mode where LANCZOS takes it, so the conversion and the
    # transposition work on the small image; other modes are converted first.
    converted = image if image.mode in ("RGB", "RGBA", "L", "LA") else _judge_mode(image)
    if target is not None and converted.size != target:
        converted = _shrunk(converted, target)
    converted = _judge_mode(converted)
    if upright is not None:
        converted = converted.transpose(upright)
    if converted.mode != image.mode:
        icc_profile = None  # a CMYK or 16-bit profile does not describe the converted pixels
    out = io.BytesIO()
    # JPEG stays JPEG (photos); everything else becomes PNG so text and edges stay sharp.
    if fmt == "jpeg" and converted.mode in ("RGB", "L"):
        converted.save(out, "JPEG", quality=90, icc_profile=icc_profile)
        sent_format = "jpeg"
    else:
        converted.save(out, "PNG", icc_profile=icc_profile)
        sent_format = "png"
    return out.getvalue(), sent_format, converted.size
