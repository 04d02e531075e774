"""Turn a row's media reference into a URL a candidate model can be sent.

`data:` URLs are checked (base64, media type by magic number) and rewritten with the type the
bytes really have; `http(s)://` URLs are kept (fetching happens later, behind the SSRF guard,
but for this server's own `/v1/media` URLs, read from its store) and so are `blob:sha256:`
references (a row as Loupe stored it: read from the store, the tenant's own blobs only);
paths are read from the uploaded zip and become data URLs. The server's own disk is never read:
a path in a bare upload, a `file:` URL or any other scheme is refused.
"""

import base64
import binascii
import re
from typing import Literal
from urllib.parse import urlsplit

from app.datasets._archive import ArchiveError, is_absolute
from app.datasets._types import RowScope
from app.media.audio import FORMATS as AUDIO_TYPES
from app.media.audio import sniff_audio
from app.media.images import MEDIA_TYPES
from app.media.images import sniff as sniff_image

MediaKind = Literal["image", "audio"]

# Media types a data URL may declare; the bytes decide the type actually sent.
_AUDIO_DECLARED = {"audio/wav", "audio/x-wav", "audio/mpeg", "audio/mp3"}
_AUDIO_FORMATS = {"audio/wav": "wav", "audio/mpeg": "mp3"}
_EXPECTED = {"image": "a PNG, JPEG, GIF or WEBP image", "audio": "WAV or MP3 audio"}
# Two characters at least, so a Windows drive letter (C:/...) is not taken for a scheme.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]+):")
_REFERENCE = re.compile(r"blob:sha256:[0-9a-fA-F]{64}")


def sniff(content: bytes) -> str | None:
    """The media type the bytes' magic number announces, among those Loupe sends to models."""
    image = sniff_image(content)
    if image is not None:
        return MEDIA_TYPES[image]
    audio = sniff_audio(content)
    return AUDIO_TYPES[audio] if audio is not None else None


def _decode(payload: str) -> bytes:
    """Strict base64, tolerating the line breaks some encoders insert."""
    return base64.b64decode("".join(payload.split()), validate=True)


def _typed_data_url(
    content: bytes, kind: MediaKind, scope: RowScope, field: str
) -> tuple[str, str]:
    if not content:
        raise scope.error(field, f"the {kind} is empty")
    media_type = sniff(content)
    if media_type is None or not media_type.startswith(f"{kind}/"):
        raise scope.error(field, f"the data is not {_EXPECTED[kind]}")
    return f"data:{media_type};base64,{base64.b64encode(content).decode('ascii')}", media_type


def _checked_data_url(url: str, kind: MediaKind, scope: RowScope, field: str) -> tuple[str, str]:
    header, sep, payload = url.partition(",")
    params = header[len("data:") :].split(";")
    declared = params[0].strip().lower()
    if not sep or "base64" not in (p.strip().lower() for p in params[1:]):
        raise scope.error(field, "a data URL must be base64-encoded (data:<type>;base64,...)")
    if not (declared.startswith("image/") or declared in _AUDIO_DECLARED):
        raise scope.error(
            field, f"data URL type {declared or '(none)'!r} is not image/* or audio/wav|mpeg"
        )
    try:
        content = _decode(payload)
    except (binascii.Error, ValueError) as exc:
        raise scope.error(field, f"the data URL holds invalid base64: {exc}") from exc
    return _typed_data_url(content, kind, scope, field)


def _from_archive(
    path: str, kind: MediaKind, scope: RowScope, field: str, *, by_suffix: bool
) -> tuple[str, str]:
    if scope.archive is None:
        where = "an absolute path" if is_absolute(path) else "a relative path"
        raise scope.error(
            field,
            f"{path!r} is {where}; paths are only looked up inside an uploaded .zip "
            "(upload the data file and its media as a zip, or use a data: or https: URL)",
        )
    try:
        member = scope.archive.find(path, scope.file, by_suffix=by_suffix)
        cached = scope.archive.media_urls.get(member)
        if cached is None:
            cached = _typed_data_url(scope.archive.read(member), kind, scope, field)
            scope.archive.media_urls[member] = cached
    except ArchiveError as exc:
        raise scope.error(field, str(exc)) from exc
    if not cached[1].startswith(f"{kind}/"):
        raise scope.error(field, f"{path!r} is not {_EXPECTED[kind]}")
    return cached


def resolve(
    value: object, kind: MediaKind, scope: RowScope, field: str, *, by_suffix: bool = False
) -> tuple[str, str | None]:
    """The URL to send for a media reference, and its media type when known (not for http)."""
    if not isinstance(value, str):
        raise scope.error(field, f"expected a path or URL string, got {type(value).__name__}")
    reference = value.strip()
    if not reference:
        raise scope.error(field, "the media reference is empty")
    scheme = _SCHEME.match(reference)
    if scheme is None:
        return _from_archive(reference, kind, scope, field, by_suffix=by_suffix)
    name = scheme.group(1).lower()
    if name == "data":
        return _checked_data_url(reference, kind, scope, field)
    if name in ("http", "https"):
        if not urlsplit(reference).netloc:
            raise scope.error(field, f"{reference!r} has no host")
        return reference, None
    if name == "blob":
        if _REFERENCE.fullmatch(reference) is None:
            raise scope.error(field, "a stored media reference is blob:sha256:<64 hex digits>")
        return reference, None
    if name == "file":
        raise scope.error(field, "file: URLs are not accepted; put the file in the zip instead")
    raise scope.error(
        field,
        f"unsupported URL scheme {name!r}; use a path in the zip, data:, https: or a "
        "blob:sha256: reference",
    )


def image_url(value: object, scope: RowScope, field: str, *, by_suffix: bool = False) -> str:
    return resolve(value, "image", scope, field, by_suffix=by_suffix)[0]


def image_from_base64(value: str, scope: RowScope, field: str) -> str:
    """A data URL for a VLMEvalKit `image` cell: raw base64 without a `data:` prefix."""
    if value.lstrip().lower().startswith("data:"):
        return image_url(value, scope, field)
    try:
        content = _decode(value)
    except (binascii.Error, ValueError) as exc:
        raise scope.error(field, f"invalid base64: {exc}") from exc
    return _typed_data_url(content, "image", scope, field)[0]


def audio_source(
    value: object, declared_format: object, scope: RowScope, field: str, format_field: str
) -> tuple[str, str]:
    """The URL and format (wav or mp3) for an audio reference; the bytes win over the name."""
    if declared_format is not None and declared_format != "":
        if not isinstance(declared_format, str) or declared_format.lower() not in ("wav", "mp3"):
            raise scope.error(format_field, f"audio format {declared_format!r} is not wav or mp3")
        declared_format = declared_format.lower()
    else:
        declared_format = None
    url, media_type = resolve(value, "audio", scope, field)
    if media_type is None:
        suffix = urlsplit(url).path.rsplit(".", 1)[-1].lower()
        found = declared_format or (suffix if suffix in ("wav", "mp3") else None)
        if found is None:
            raise scope.error(format_field, "give the audio format (wav or mp3) for an audio URL")
        return url, found
    found = _AUDIO_FORMATS[media_type]
    if declared_format is not None and declared_format != found:
        raise scope.error(format_field, f"format {declared_format!r} but the data is {found}")
    return url, found
