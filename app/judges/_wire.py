"""The wire format of chat completions: request messages out, reply bodies in."""

from collections.abc import Mapping
from typing import Any

from app import jsonio
from app.judges._json import loads_shallow
from app.judges._types import JudgeUsage


def completion_body(raw: bytes, usage: JudgeUsage, *, whole: bool = True) -> dict[str, Any] | None:
    """A chat completion body as JSON (None when it is not an object); adds its token usage.

    Args:
        whole: check the whole body's depth (a caller that keeps the choice as it is); without
            it only the parse's own limit holds, for a caller that keeps nothing but strings
            and numbers it checks itself (the judge's content is parsed, and checked, again).
    """
    try:
        body = loads_shallow(raw) if whole else jsonio.loads(raw)
    except (ValueError, RecursionError):  # past the depth limit too: no completion is so deep
        return None
    if not isinstance(body, dict):
        return None
    reported = body.get("usage")
    if not isinstance(reported, dict):
        return body
    # Counts only: anything else a server writes there counts nothing.
    prompt = _count(reported.get("prompt_tokens"))
    usage.prompt_tokens += prompt
    usage.completion_tokens += _count(reported.get("completion_tokens"))
    details = reported.get("prompt_tokens_details")
    if isinstance(details, dict):
        # Prompt tokens a cache served: never more than the reply's prompt (a server saying
        # so would price another reply's prompt at the cached rate in every sum).
        usage.cached_prompt_tokens += min(_count(details.get("cached_tokens")), prompt)
    return body


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0
    return int(value) if 0 < value < 1e15 else 0


def first_choice(body: dict[str, Any]) -> dict[str, Any] | None:
    choices = body.get("choices") or []
    return choices[0] if choices and isinstance(choices[0], dict) else None


def digit_logprobs(choice: dict[str, Any]) -> list[dict[str, Any]] | None:
    logprobs = choice.get("logprobs")
    tokens = logprobs.get("content") if isinstance(logprobs, dict) else None
    if not tokens or not isinstance(tokens, list):
        return None
    # Strings and numbers only: nothing nested of the reply is kept (its depth is not checked).
    return [
        {
            "token": item["token"],
            "logprob": _number(item.get("logprob")),
            "top_logprobs": [
                {"token": _text(alt.get("token")), "logprob": _number(alt.get("logprob"))}
                for alt in _items(item.get("top_logprobs"))
            ],
        }
        for item in _items(tokens)
        # Only digit tokens can be the G-Eval score; the rest would only fill the cache.
        if isinstance(item.get("token"), str) and item["token"].isdecimal()
    ]


def _items(value: Any) -> list[dict[str, Any]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def text_content(content: Any) -> str:
    """A message's content as text; some compatible servers answer with a list of parts
    (`text`, or Responses-style `output_text`)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text") or ""
            for part in content
            if isinstance(part, Mapping) and part.get("type") in ("text", "output_text")
        )
    return ""


# Loupe's bookkeeping on image parts (content hash, place in the test case), never sent.
_BOOKKEEPING = frozenset({"sha256", "case_field"})


def wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as the API takes them: our bookkeeping on image parts removed."""
    wire = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any(_BOOKKEEPING & part.keys() for part in content):
            content = [{k: v for k, v in part.items() if k not in _BOOKKEEPING} for part in content]
            message = {**message, "content": content}
        wire.append(message)
    return wire


def embedding_vectors(raw: bytes, usage: JudgeUsage) -> list[list[float]] | None:
    """The vectors of an `/embeddings` reply in input order (None when malformed); adds usage."""
    body = completion_body(raw, usage)
    if body is None or not isinstance(body.get("data"), list):
        return None
    items = body["data"]
    if not all(
        isinstance(item, dict) and isinstance(item.get("embedding"), list) for item in items
    ):
        return None
    ordered = sorted(items, key=lambda item: item.get("index", 0))
    try:
        return [[float(value) for value in item["embedding"]] for item in ordered]
    except (TypeError, ValueError):
        return None
