"""Content parts and (later) image decoding, SSRF-safe fetching and the blob store."""

from app.media.parts import Content, ContextNode, ImageUrlPart, Part, TextPart, text_of

__all__ = ["Content", "ContextNode", "ImageUrlPart", "Part", "TextPart", "text_of"]
