"""Checks of single setting values that the API makes too (a secret key, an http(s) URL) and
the shape of a model's price (`LOUPE_MODEL_PRICES`)."""

from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, ConfigDict, Field

# LOUPE_SECRET_KEY's shortest length: 256 bits, as much as the Fernet key derived from it.
SECRET_KEY_MIN_BYTES = 32
SECRET_KEY_MIN_DISTINCT = 8


def secret_key_problem(value: str) -> str | None:
    """Why `value` is no usable secret key (too short, too few distinct characters), or None."""
    size = len(value.encode())
    if size < SECRET_KEY_MIN_BYTES:
        return (
            f"must be at least {SECRET_KEY_MIN_BYTES} bytes, this one has {size} "
            "(make one with `openssl rand -base64 32`)"
        )
    # 32 spaces, or one letter 32 times, is long but no secret.
    distinct = len(set(value))
    if distinct < SECRET_KEY_MIN_DISTINCT:
        return (
            f"has only {distinct} distinct characters, at least {SECRET_KEY_MIN_DISTINCT} "
            "are needed (make one with `openssl rand -base64 32`)"
        )
    return None


def check_http_url(value: str) -> None:
    """Raise ValueError unless `value` is an http(s) URL with a host."""
    parts = urlsplit(value)
    try:
        parts.port  # noqa: B018 - raises on a port that is not a number
    except ValueError:
        raise ValueError("its port is not a number") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            "not an http:// or https:// URL with a host "
            "(e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1)"
        )


def otlp_headers(value: str) -> dict[str, str]:
    """`key=value` pairs, comma-separated with URL-encoded values, as OTEL_EXPORTER_OTLP_HEADERS
    writes them; raises ValueError naming the pair's position, never its value (a secret)."""
    headers = {}
    for position, pair in enumerate(value.split(","), start=1):
        if not pair.strip():
            continue
        name, equals, raw = pair.partition("=")
        name = unquote(name).strip()
        if not equals or not name or not name.isascii() or any(c in name for c in " :\r\n"):
            raise ValueError(
                f"pair {position} is no `name=value` (e.g. `Authorization=Bearer%20x`, "
                "comma-separated)"
            )
        text = unquote(raw).strip()
        if "\r" in text or "\n" in text:
            raise ValueError(f"pair {position}'s value holds a line break")
        headers[name] = text
    return headers


class ModelPrice(BaseModel):
    """What a model costs, in USD per million tokens (`LOUPE_MODEL_PRICES`)."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0, description="USD per million prompt tokens.")
    output: float = Field(ge=0, description="USD per million completion tokens.")
    cached_input: float | None = Field(
        default=None,
        ge=0,
        description="USD per million prompt tokens the provider reports as cached "
        "(`usage.prompt_tokens_details.cached_tokens`); unset: they cost `input`.",
    )
