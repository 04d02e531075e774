"""The Loupe API client: `Loupe` / `AsyncLoupe`, typed errors, metric and content-part classes.

The request and response models are generated from Loupe's OpenAPI document into
`loupe_client._generated` (`make sdk`); `loupe_client.models` is that module.
"""

from ._client import AsyncLoupe, Loupe
from ._errors import (
    AuthenticationError,
    ConflictError,
    LoupeError,
    NotFoundError,
    PayloadTooLargeError,
    RateLimitError,
    RequestError,
    ServerError,
    UnsupportedMediaTypeError,
    ValidationError,
)
from ._generated import models
from ._inputs import METRICS, ImageUrlPart, TestCase, TextPart, ToolCall, Turn
from ._version import __version__

globals().update(METRICS)

__all__ = [
    "AsyncLoupe",
    "AuthenticationError",
    "ConflictError",
    "ImageUrlPart",
    "Loupe",
    "LoupeError",
    "NotFoundError",
    "PayloadTooLargeError",
    "RateLimitError",
    "RequestError",
    "ServerError",
    "TestCase",
    "TextPart",
    "ToolCall",
    "Turn",
    "UnsupportedMediaTypeError",
    "ValidationError",
    "__version__",
    "models",
    *METRICS,
]
