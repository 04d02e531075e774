"""The judge client: one long-lived AsyncOpenAI per endpoint, bounded, retried, cached."""

import asyncio
import email.utils
import itertools
import json
import logging
import random
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import openai
from pydantic import BaseModel, ValidationError

from app.judges._cache import JudgeCache, cache_key
from app.judges._json import JSONExtractionError, extract_json_object
from app.judges._types import (
    Generation,
    JudgeEndpoint,
    JudgeError,
    JudgeReply,
    JudgeUsage,
    ResponseFormatMode,
)
from app.judges._wire import (
    completion_body,
    digit_logprobs,
    first_choice,
    text_content,
    wire_messages,
)

logger = logging.getLogger("loupe.judges")

_DOWNGRADE: dict[ResponseFormatMode, ResponseFormatMode] = {
    "json_schema": "json_object",
    "json_object": "text",
}
_MAX_RETRY_AFTER_SECONDS = 60.0
# Body fields a caller's generation params may not set: Loupe owns them (and reads one
# non-streamed body).
_RESERVED_PARAMS = frozenset({"model", "messages", "stream"})
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


class JudgeClient:
    """Calls one OpenAI-compatible endpoint; safe to share by every coroutine on one loop.

    `call` asks a judge for validated JSON; `generate` asks a candidate model for a plain
    completion. Both go through one request loop: in-flight limit, retries, Retry-After.
    """

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

    async def generate(
        self,
        messages: list[dict[str, Any]],
        *,
        model: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Generation:
        """The model's plain chat completion of `messages` (no structured output, no logprobs).

        Args:
            params: body fields such as temperature, max_tokens, top_p, seed or stop, merged over
                the endpoint's defaults; a None value leaves the field out of the request.

        Raises JudgeError when the endpoint keeps failing or does not answer with a chat
        completion; `usage` on the error counts the calls that were made. Empty content is
        not an error: it is the model's answer.
        """
        role = self.endpoint.role
        usage = JudgeUsage()
        reserved = _RESERVED_PARAMS.intersection(params or {})
        if reserved:
            raise JudgeError(
                f"{role}_bad_request",
                f"generation params may not set {', '.join(sorted(reserved))}",
                usage,
            )
        fields = {
            "model": model or self.endpoint.default_model,
            "messages": wire_messages(messages),
            "temperature": self.endpoint.temperature,
            **(params or {}),
        }
        request = {name: value for name, value in fields.items() if value is not None}
        raw = await self._post(lambda: request, usage)
        body = completion_body(raw, usage)
        choice = first_choice(body) if body is not None else None
        if choice is None:
            raise JudgeError(
                f"{role}_error",
                f"the {role} endpoint's reply is not a chat completion with a choice",
                usage,
            )
        return Generation(
            content=text_content((choice.get("message") or {}).get("content")),
            usage=usage,
            finish_reason=choice.get("finish_reason"),
        )

    async def _complete(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        usage: JudgeUsage,
    ) -> tuple[str | None, list[dict[str, Any]] | None]:
        """One judge completion in the best structured-output mode the endpoint takes."""
        wire = wire_messages(messages)

        def request() -> dict[str, Any]:
            # Rebuilt per attempt: a refusal may have stepped the mode or logprobs down.
            body: dict[str, Any] = {
                "model": model,
                "messages": wire,
                "temperature": self.endpoint.temperature,
            }
            if self.response_format == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": task_name(schema), "schema": _json_schema(schema)},
                }
            elif self.response_format == "json_object":
                body["response_format"] = {"type": "json_object"}
            if top_logprobs is not None and self.logprobs_supported:
                body["logprobs"] = True
                body["top_logprobs"] = top_logprobs
            return body

        raw = await self._post(request, usage, self._step_down)
        body = completion_body(raw, usage)
        if body is None:
            # Not JSON at all: extraction and the repair round deal with the text.
            return raw.decode("utf-8", "replace"), None
        choice = first_choice(body)
        if choice is None:
            return None, None
        return (choice.get("message") or {}).get("content"), digit_logprobs(choice)

    def _step_down(self, request: dict[str, Any], refusal: str) -> bool:
        """True when a refused judge request asked for what this endpoint lacks; stops asking.

        The step down is remembered by the client, so later calls start at the lower mode.
        """
        fmt: ResponseFormatMode = (request.get("response_format") or {}).get("type", "text")
        if fmt in _DOWNGRADE and ("response_format" in refusal or "json_schema" in refusal):
            self.response_format = _DOWNGRADE[fmt]
            logger.info("judge endpoint rejects %s; using %s", fmt, self.response_format)
            return True
        if request.get("logprobs") and "logprob" in refusal:
            self.logprobs_supported = False
            return True
        return False

    async def _post(
        self,
        request: Callable[[], dict[str, Any]],
        usage: JudgeUsage,
        step_down: Callable[[dict[str, Any], str], bool] | None = None,
    ) -> bytes:
        """The raw body of a successful chat completion, retried within the endpoint's bounds.

        Args:
            request: builds the body for each attempt.
            step_down: told of a 400 (the request and the lower-cased error); True when it
                changed what `request` builds, so the refusal is retried and not counted.
        """
        role = self.endpoint.role
        attempt = 0
        while True:
            attempt += 1
            body = request()
            try:
                async with self._in_flight:
                    # The raw endpoint with plain-dict bodies: the SDK's typed request transform
                    # and response models cost more CPU than the rest of a judge call.
                    raw = await self._openai.post(
                        "/chat/completions",
                        # Serialised here: the SDK would deep-copy the body (images included).
                        content=json.dumps(body, ensure_ascii=False).encode(),
                        cast_to=bytes,
                        options={
                            "headers": {"Content-Type": "application/json"},
                            # The SDK would make a uuid4 per request for this header.
                            "idempotency_key": f"loupe-{next(_request_numbers)}",
                        },
                    )
            except openai.BadRequestError as error:
                if step_down is not None and step_down(body, str(error).lower()):
                    attempt -= 1
                    continue
                raise JudgeError(f"{role}_bad_request", _short(error), usage) from error
            except openai.AuthenticationError as error:
                raise JudgeError(
                    f"{role}_auth", f"the {role} endpoint refused the API key", usage
                ) from error
            except openai.RateLimitError as error:
                if _error_code(error) == "insufficient_quota":
                    raise JudgeError(
                        f"{role}_quota", f"the {role} account is out of quota", usage
                    ) from error
                await self._backoff(
                    attempt, error, f"{role}_rate_limited", usage, _retry_after(error)
                )
                continue
            except openai.InternalServerError as error:
                await self._backoff(
                    attempt, error, f"{role}_unavailable", usage, _retry_after(error)
                )
                continue
            except openai.APITimeoutError as error:
                await self._backoff(attempt, error, f"{role}_timeout", usage, None)
                continue
            except openai.APIConnectionError as error:
                await self._backoff(attempt, error, f"{role}_connection", usage, None)
                continue
            except openai.APIStatusError as error:
                raise JudgeError(f"{role}_error", _short(error), usage) from error
            usage.calls += 1
            return raw

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
