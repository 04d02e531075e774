"""Content parts; image checks and normalisation, SSRF-safe fetching and the blob store live in
its modules (ingest, images, fetch, netguard, store, resolve), imported where used."""

from app.media.parts import Content, ContextNode, ImageUrlPart, Part, TextPart, text_of

__all__ = ["Content", "ContextNode", "ImageUrlPart", "Part", "TextPart", "text_of"]
