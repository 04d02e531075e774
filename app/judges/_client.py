"""The judge client: one long-lived AsyncOpenAI per endpoint, bounded, retried, cached."""

import asyncio
import email.utils
import itertools
import json
import logging
import random
import time
from functools import lru_cache
from typing import Any

import openai
from pydantic import BaseModel, ValidationError

from app.judges._cache import JudgeCache, cache_key
from app.judges._json import JSONExtractionError, extract_json_object
from app.judges._types import (
    JudgeEndpoint,
    JudgeError,
    JudgeReply,
    JudgeUsage,
    ResponseFormatMode,
)

logger = logging.getLogger("loupe.judges")

_DOWNGRADE: dict[ResponseFormatMode, ResponseFormatMode] = {
    "json_schema": "json_object",
    "json_object": "text",
}
_MAX_RETRY_AFTER_SECONDS = 60.0
_request_numbers = itertools.count(1)


def _retry_after(error: openai.APIStatusError) -> float | None:
    value = error.response.headers.get("retry-after") if error.response is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value)
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def _error_code(error: openai.APIStatusError) -> str | None:
    code = getattr(error, "code", None)
    if code:
        return str(code)
    body = error.body if isinstance(error.body, dict) else {}
    inner = body.get("error", body) if isinstance(body, dict) else {}
    return inner.get("code") if isinstance(inner, dict) else None


def _read_completion(
    raw: bytes, usage: JudgeUsage
) -> tuple[str | None, list[dict[str, Any]] | None]:
    """Content and logprob tokens of a chat completion body; adds its token usage."""
    try:
        body = json.loads(raw)
    except ValueError:
        return raw.decode("utf-8", "replace"), None
    reported = body.get("usage") or {}
    usage.prompt_tokens += reported.get("prompt_tokens") or 0
    usage.completion_tokens += reported.get("completion_tokens") or 0
    choices = body.get("choices") or []
    if not choices:
        return None, None
    choice = choices[0]
    content = (choice.get("message") or {}).get("content")
    tokens = ((choice.get("logprobs") or {}).get("content")) or None
    logprobs = None
    if tokens:
        logprobs = [
            {
                "token": item.get("token", ""),
                "logprob": item.get("logprob"),
                "top_logprobs": [
                    {"token": alt.get("token", ""), "logprob": alt.get("logprob")}
                    for alt in item.get("top_logprobs") or []
                ],
            }
            for item in tokens
            # Only digit tokens matter (the G-Eval score); the rest would only fill the cache.
            if item.get("token", "").strip().isdecimal()
        ]
    return content, logprobs


def _wire_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages as the API takes them: our `sha256` bookkeeping on image parts removed."""
    wire = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list) and any("sha256" in part for part in content):
            content = [{k: v for k, v in part.items() if k != "sha256"} for part in content]
            message = {**message, "content": content}
        wire.append(message)
    return wire


class JudgeClient:
    """Calls one OpenAI-compatible endpoint; safe to share by every coroutine on one loop."""

    def __init__(self, endpoint: JudgeEndpoint) -> None:
        self.endpoint = endpoint
        self.response_format: ResponseFormatMode = endpoint.response_format
        self.logprobs_supported = True
        # The SDK's own retries are off: ours honour Retry-After and know insufficient_quota.
        self._openai = openai.AsyncOpenAI(
            base_url=endpoint.base_url,
            api_key=endpoint.api_key or "unset",
            max_retries=0,
            timeout=endpoint.timeout_seconds,
            # aiohttp's pool hands out connections in O(1); httpcore's scans every pooled
            # connection per request, which dominated our CPU at 64 requests in flight.
            http_client=openai.DefaultAioHttpClient(timeout=endpoint.timeout_seconds),
        )
        self._in_flight = asyncio.Semaphore(endpoint.concurrency)

    async def close(self) -> None:
        await self._openai.close()

    async def call(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        *,
        model: str | None = None,
        top_logprobs: int | None = None,
        cache: JudgeCache | None = None,
    ) -> JudgeReply:
        """Ask the judge and return its JSON validated against `schema`.

        Raises JudgeError when the endpoint keeps failing or the JSON stays broken after one
        repair request; `usage` on the error counts the calls that were made.
        """
        model = model or self.endpoint.default_model
        schema_name = task_name(schema)
        params = {"temperature": self.endpoint.temperature, "top_logprobs": top_logprobs}
        key = cache_key(model, messages, schema_name, params) if cache is not None else None
        if cache is not None and key is not None:
            hit = await cache.get(key)
            if hit is not None:
                try:
                    data = schema.model_validate(extract_json_object(hit["content"])).model_dump()
                    return JudgeReply(
                        data=data,
                        content=hit["content"],
                        logprobs=hit.get("logprobs"),
                        usage=JudgeUsage(),
                        cached=True,
                    )
                except (JSONExtractionError, ValidationError):
                    pass  # a stale entry from an older schema: ask again
        usage = JudgeUsage()
        content, logprobs = await self._complete(messages, schema, model, top_logprobs, usage)
        repaired = False
        try:
            data = schema.model_validate(extract_json_object(content)).model_dump()
        except (JSONExtractionError, ValidationError) as first_error:
            # One repair round: show the judge its reply and the problem, ask for JSON only.
            repaired = True
            repair = [
                *messages,
                {"role": "assistant", "content": content or ""},
                {
                    "role": "user",
                    "content": "Your reply could not be used: "
                    f"{_describe(first_error)}. Reply again with only the JSON object, "
                    f"with exactly these fields: {', '.join(schema.model_fields)}.",
                },
            ]
            content, logprobs = await self._complete(repair, schema, model, top_logprobs, usage)
            try:
                data = schema.model_validate(extract_json_object(content)).model_dump()
            except (JSONExtractionError, ValidationError) as second_error:
                raise JudgeError(
                    "invalid_json",
                    f"the judge returned unusable JSON twice: {_describe(second_error)}",
                    usage,
                ) from second_error
        if cache is not None and key is not None:
            await cache.put(key, {"content": content, "logprobs": logprobs})
        return JudgeReply(
            data=data,
            content=content or "",
            logprobs=logprobs,
            usage=usage,
            repaired=repaired,
            response_format=self.response_format,
        )

    async def _complete(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        usage: JudgeUsage,
    ) -> tuple[str | None, list[dict[str, Any]] | None]:
        endpoint = self.endpoint
        attempt = 0
        while True:
            attempt += 1
            request: dict[str, Any] = {
                "model": model,
                "messages": _wire_messages(messages),
                "temperature": endpoint.temperature,
            }
            fmt = self.response_format
            if fmt == "json_schema":
                request["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": task_name(schema), "schema": _json_schema(schema)},
                }
            elif fmt == "json_object":
                request["response_format"] = {"type": "json_object"}
            wants_logprobs = top_logprobs is not None and self.logprobs_supported
            if wants_logprobs:
                request["logprobs"] = True
                request["top_logprobs"] = top_logprobs
            try:
                async with self._in_flight:
                    # The raw endpoint with plain-dict bodies: the SDK's typed request transform
                    # and response models cost more CPU than the rest of a judge call.
                    raw = await self._openai.post(
                        "/chat/completions",
                        # Serialised here: the SDK would deep-copy the body (images included).
                        content=json.dumps(request, ensure_ascii=False).encode(),
                        cast_to=bytes,
                        options={
                            "headers": {"Content-Type": "application/json"},
                            # The SDK would make a uuid4 per request for this header.
                            "idempotency_key": f"loupe-{next(_request_numbers)}",
                        },
                    )
            except openai.BadRequestError as error:
                text = str(error).lower()
                if fmt in _DOWNGRADE and ("response_format" in text or "json_schema" in text):
                    # The endpoint does not do this structured-output mode; remember and step down.
                    self.response_format = _DOWNGRADE[fmt]
                    logger.info("judge endpoint rejects %s; using %s", fmt, self.response_format)
                    attempt -= 1
                    continue
                if wants_logprobs and "logprob" in text:
                    self.logprobs_supported = False
                    attempt -= 1
                    continue
                raise JudgeError("judge_bad_request", _short(error), usage) from error
            except openai.AuthenticationError as error:
                raise JudgeError(
                    "judge_auth", "the judge endpoint refused the API key", usage
                ) from error
            except openai.RateLimitError as error:
                if _error_code(error) == "insufficient_quota":
                    raise JudgeError(
                        "judge_quota", "the judge account is out of quota", usage
                    ) from error
                await self._backoff(
                    attempt, error, "judge_rate_limited", usage, _retry_after(error)
                )
                continue
            except openai.InternalServerError as error:
                await self._backoff(attempt, error, "judge_unavailable", usage, _retry_after(error))
                continue
            except openai.APITimeoutError as error:
                await self._backoff(attempt, error, "judge_timeout", usage, None)
                continue
            except openai.APIConnectionError as error:
                await self._backoff(attempt, error, "judge_connection", usage, None)
                continue
            except openai.APIStatusError as error:
                raise JudgeError("judge_error", _short(error), usage) from error
            usage.calls += 1
            return _read_completion(raw, usage)

    async def _backoff(
        self,
        attempt: int,
        error: Exception,
        type_: str,
        usage: JudgeUsage,
        retry_after: float | None,
    ) -> None:
        endpoint = self.endpoint
        if attempt >= endpoint.max_attempts:
            raise JudgeError(
                type_, f"{_short(error)} (gave up after {attempt} attempts)", usage
            ) from error
        if retry_after is not None:
            delay = min(retry_after, _MAX_RETRY_AFTER_SECONDS)
        else:
            # Exponential backoff with full jitter, so a burst of 429s does not retry in lockstep.
            ceiling = min(
                endpoint.backoff_cap_seconds, endpoint.backoff_base_seconds * 2 ** (attempt - 1)
            )
            delay = random.uniform(0, ceiling)
        await asyncio.sleep(delay)


@lru_cache(maxsize=256)
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def task_name(schema: type[BaseModel]) -> str:
    """The schema's task name (its `title`), sent as the json_schema name."""
    return schema.model_config.get("title") or schema.__name__


def _short(error: Exception) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= 300 else text[:297] + "..."


def _describe(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        return f"field {where or '(root)'}: {first.get('msg')}"
    return str(error)
