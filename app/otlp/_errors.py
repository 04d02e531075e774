"""What goes wrong reading an OTLP export request: a plain message naming what failed."""


class OtlpDecodeError(ValueError):
    """The body cannot be read as an OTLP export request (HTTP 400 at the receiver)."""


class BodyTooLarge(OtlpDecodeError):
    """The body, once decompressed, is over the limit (HTTP 413 at the receiver)."""


class UnsupportedContentType(OtlpDecodeError):
    """Neither application/x-protobuf nor application/json (HTTP 415 at the receiver)."""


class UnsupportedContentEncoding(OtlpDecodeError):
    """A Content-Encoding other than gzip, deflate or identity (HTTP 415 at the receiver)."""
