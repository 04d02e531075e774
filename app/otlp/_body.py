"""Decompressing a request body with a cap on what it may grow to (no decompression bomb)."""

import zlib

from app.otlp._errors import BodyTooLarge, OtlpDecodeError, UnsupportedContentEncoding

# Output is produced in slices of this size, so a bomb never holds more than the limit plus
# one slice in memory before it is refused.
_SLICE = 1 << 16


def content_encoding(value: str | None) -> str:
    """A Content-Encoding header as the decoders name it (lower case, "" for none), refusing
    one they do not read: checked before the body is read, decompressed later."""
    encoding = (value or "").strip().lower()
    _decompressor(encoding)
    return encoding


def _decompressor(encoding: str) -> "zlib._Decompress | None":
    if encoding in ("", "identity"):
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        # HTTP's deflate is the zlib format (the Python exporter's zlib.compress); a raw
        # deflate stream is accepted too, as some clients send one.
        return zlib.decompressobj(wbits=0)
    raise UnsupportedContentEncoding(
        f"Content-Encoding {encoding[:64]!r} is not supported: send gzip, deflate or identity"
    )


class Decompressor:
    """Feeds body chunks in and returns the decoded body, refusing one past `limit` bytes.

    Args:
        encoding: the request's Content-Encoding (case-insensitive; empty for none).
        limit: the most bytes the decompressed body may hold.
    """

    def __init__(self, encoding: str | None, limit: int) -> None:
        self._encoding = (encoding or "").strip().lower()
        self._limit = limit
        self._out = bytearray()
        self._raw_deflate = False
        self._fed = False
        self._engine = _decompressor(self._encoding)

    def feed(self, chunk: bytes) -> None:
        """Decompresses one chunk of the body as it arrives."""
        self._fed = self._fed or bool(chunk)
        if self._engine is None:
            self._append(chunk)
            return
        data = chunk
        while data:
            try:
                produced = self._engine.decompress(data, _SLICE)
            except zlib.error as exc:
                if self._retry_as_raw_deflate(data):
                    continue
                raise OtlpDecodeError(
                    f"the {self._encoding} body does not decompress: {exc}"
                ) from None
            self._append(produced)
            data = self._engine.unconsumed_tail
            if self._engine.eof:
                rest = self._engine.unused_data
                if rest and self._encoding in ("gzip", "x-gzip"):
                    # gzip allows concatenated members: each one is decompressed in turn.
                    self._engine = _decompressor(self._encoding)
                    data = rest
                elif rest:
                    raise OtlpDecodeError(f"the {self._encoding} body has data after its end")

    def finish(self) -> bytearray:
        """The whole decompressed body (not copied to bytes: a body near the limit is held
        once); raises if the compressed stream stopped short."""
        if self._engine is not None:
            # What zlib still buffers is under one window (32 KiB); _append checks it all the same.
            self._append(self._engine.flush())
            if self._fed and not self._engine.eof:
                raise OtlpDecodeError(f"the {self._encoding} body is truncated")
        return self._out

    def _retry_as_raw_deflate(self, data: bytes) -> bool:
        if self._encoding != "deflate" or self._raw_deflate or self._out:
            return False
        self._raw_deflate = True
        self._engine = zlib.decompressobj(wbits=-zlib.MAX_WBITS)
        return True

    def _append(self, produced: bytes) -> None:
        if len(self._out) + len(produced) > self._limit:
            raise BodyTooLarge(
                f"the request body is larger than {self._limit} bytes once decompressed"
            )
        self._out += produced


def decompress(body: bytes | bytearray, encoding: str | None, limit: int) -> bytes | bytearray:
    """`body` decoded per its Content-Encoding, refused past `limit` bytes decompressed (an
    identity body is returned as it is, not copied)."""
    if (encoding or "").strip().lower() in ("", "identity"):
        if len(body) > limit:
            raise BodyTooLarge(f"the request body is larger than {limit} bytes once decompressed")
        return body
    reader = Decompressor(encoding, limit)
    # Fed a slice at a time, as a body arriving is: zlib's unconsumed input is copied at each
    # slice of output, so a whole body fed at once was copied once per 64 KiB it gave.
    for start in range(0, len(body), _SLICE):
        reader.feed(bytes(body[start : start + _SLICE]))
    return reader.finish()
