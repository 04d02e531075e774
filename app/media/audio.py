"""Audio clips for candidate models: `data:audio/{wav,mpeg};base64,` checked and stored as blobs.

OpenAI-compatible endpoints take `input_audio` as raw base64 with a `format` of wav or mp3, so
that is all Loupe accepts; the bytes' magic number must agree with the declared format.
"""

import binascii
import hashlib
import re
from dataclasses import dataclass, field

from app.media.images import ImageError, ImageFacts

_DATA_URL = re.compile(r"data:audio/(wav|x-wav|wave|mpeg|mp3);base64,", re.IGNORECASE)
FORMATS = {"wav": "audio/wav", "mp3": "audio/mpeg"}


@dataclass(frozen=True)
class AudioClip:
    """An audio clip as stored: the blob store treats it like an image without pixels."""

    data: bytes = field(repr=False)
    format: str

    @property
    def media_type(self) -> str:
        return FORMATS[self.format]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @property
    def sent(self) -> ImageFacts:
        return ImageFacts(format=self.format, bytes=len(self.data), width=0, height=0)

    original = sent
    changes: tuple[str, ...] = ()


def sniff_audio(data: bytes) -> str | None:
    """`wav` or `mp3` from the bytes' magic number, else None."""
    if data[:4] == b"RIFF" and data[8:12] == b"WAVE":
        return "wav"
    if data[:3] == b"ID3" or (len(data) > 1 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0):
        return "mp3"
    return None


def decode_audio_url(url: str, max_bytes: int) -> AudioClip:
    """The clip in a `data:audio/...;base64,` URL; raises ImageError (a field error) if bad."""
    match = _DATA_URL.match(url)
    if match is None:
        raise ImageError(
            "audio must be a data:audio/{wav,mpeg};base64 URL (or a file in the uploaded archive)",
            "audio_data_url",
        )
    payload = url[match.end() :]
    if len(payload) // 4 * 3 > max_bytes + 2:
        raise ImageError(f"the audio is larger than {max_bytes} bytes", "audio_too_large")
    try:
        data = binascii.a2b_base64(payload, strict_mode=True)
    except (binascii.Error, ValueError) as exc:
        raise ImageError(f"the audio data URL is not valid base64: {exc}", "audio_base64") from exc
    found = sniff_audio(data)
    declared = "mp3" if match.group(1).lower() in ("mpeg", "mp3") else "wav"
    if found is None:
        raise ImageError("the bytes are not a WAV or MP3 file", "audio_format")
    if found != declared:
        raise ImageError(f"declared {declared} but the bytes are {found}", "audio_type_mismatch")
    return AudioClip(data=data, format=found)


def stored_clip(data: bytes) -> AudioClip:
    """A stored blob as a clip; raises ImageError (a field error) if it is not WAV or MP3."""
    found = sniff_audio(data)
    if found is None:
        raise ImageError("the stored media is not a WAV or MP3 file", "audio_format")
    return AudioClip(data=data, format=found)
