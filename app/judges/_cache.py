"""Cache keys for judge requests, and the interface a cache store implements."""

import hashlib
import json
from typing import Any, Protocol

import orjson


class JudgeCache(Protocol):
    """Where identical judge requests find their earlier answers (the database, in Loupe)."""

    async def get(self, key: str) -> dict[str, Any] | None: ...

    async def put(self, key: str, value: dict[str, Any]) -> None: ...


def _image_digest(url: str) -> str:
    # Images are keyed by content: the same picture sent twice is the same request. Parts from
    # stored test cases carry their blob's `sha256`; hashing the rest each time keeps no
    # reference to data URLs that can be megabytes each.
    return hashlib.sha256(url.encode()).hexdigest()


def _keyable(messages: list[dict[str, Any]]) -> list[Any]:
    out: list[Any] = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if part.get("type") == "image_url":
                    image = part["image_url"]
                    parts.append(
                        {
                            "image": part.get("sha256") or _image_digest(image["url"]),
                            "detail": image.get("detail"),
                        }
                    )
                else:
                    parts.append(part)
            out.append({"role": message.get("role"), "content": parts})
        else:
            out.append(message)
    return out


def cache_key(
    model: str, messages: list[dict[str, Any]], schema_name: str, params: dict[str, Any]
) -> str:
    """SHA-256 over model, messages (images by content hash), expected schema and parameters.

    The hashed text is the standard library's `json.dumps(material, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False)`: stored keys stay valid across versions. The
    messages, most of its length, are written by orjson, whose text is the same but for
    floats (which the messages hardly ever hold: then `json` writes them).
    """
    keyable = _keyable(messages)
    if _floatless(keyable):
        try:
            canonical = b"".join(
                (
                    b'{"messages":',
                    orjson.dumps(keyable, option=orjson.OPT_SORT_KEYS),
                    b',"model":',
                    orjson.dumps(model),
                    b',"params":',
                    _canonical_params(params),
                    b',"schema":',
                    orjson.dumps(schema_name),
                    b"}",
                )
            )
            return hashlib.sha256(canonical).hexdigest()
        except TypeError:  # orjson.JSONEncodeError: keys that are not strings, big integers
            pass
    material = {"model": model, "messages": keyable, "schema": schema_name, "params": params}
    return hashlib.sha256(_canonical(material).encode()).hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The parameters' text by their items (and each value's type: 1, 1.0 and True are equal keys
# of a dict): a call's few parameters take a handful of values in a process.
_PARAMS_TEXT: dict[tuple[Any, ...], bytes] = {}
_PARAMS_TEXT_MAX = 1024


def _canonical_params(params: dict[str, Any]) -> bytes:
    try:
        key = tuple((name, type(value), value) for name, value in params.items())
        text = _PARAMS_TEXT.get(key)
    except TypeError:  # a value that cannot be hashed (a dict of sampling fields)
        return _canonical(params).encode()
    if text is None:
        if len(_PARAMS_TEXT) >= _PARAMS_TEXT_MAX:
            _PARAMS_TEXT.clear()
        text = _PARAMS_TEXT[key] = _canonical(params).encode()
    return text


def _floatless(value: Any) -> bool:
    """Whether no float is anywhere in `value` (strings are not looked into)."""
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str or kind is int or item is None:
            continue
        if kind is dict:
            stack.extend(item.values())
        elif kind is list or kind is tuple:
            stack.extend(item)
        elif isinstance(item, float):
            return False
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return True
