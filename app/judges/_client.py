"""The judge client: one long-lived AsyncOpenAI per endpoint, bounded, retried, cached."""

import asyncio
import contextlib
import itertools
import json
import logging
import random
import ssl
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import certifi
import httpx
import openai
from pydantic import BaseModel, ValidationError

from app.judges._cache import JudgeCache, cache_key
from app.judges._errors import (
    MAX_RETRY_AFTER_SECONDS,
    FailureKind,
    connection_kind,
    connection_message,
    describe,
    endpoint_host,
    endpoint_message,
    error_code,
    misfit,
    retry_after,
    stated_limit,
)
from app.judges._http import LeanAioHttpClient, ReplyTooLarge
from app.judges._json import JSONExtractionError, extract_json_object
from app.judges._pacing import LOCAL_STORE, Pacer, RedisPaceStore, endpoint_key, total_tokens
from app.judges._resolver import refusal_in
from app.judges._shared import SharedAnswers, answer_once
from app.judges._telemetry import EndpointMeter
from app.judges._types import (
    Embeddings,
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
    embedding_vectors,
    first_choice,
    text_content,
    wire_messages,
)
from app.telemetry import logs
from app.telemetry.metrics import JUDGE_CACHE_LOOKUPS

logger = logging.getLogger("loupe.judges")

_DOWNGRADE: dict[ResponseFormatMode, ResponseFormatMode] = {
    "json_schema": "json_object",
    "json_object": "text",
}
# The top_logprobs tried when a model refuses more and does not say how many it takes.
_FALLBACK_TOP_LOGPROBS = 5
# Body fields a caller's generation params may not set: Loupe owns them (and reads one
# non-streamed body).
_RESERVED_PARAMS = frozenset({"model", "messages", "stream"})
# What a judge call's sampling params may not set besides: its structured output and logprobs.
_JUDGE_OWNED = frozenset({"response_format", "logprobs", "top_logprobs"})
_request_numbers = itertools.count(1)
_JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass
class _Completion:
    content: str | None
    # The content validated against the judge's schema, or why it could not be.
    data: dict[str, Any] | None = None
    problem: JSONExtractionError | ValidationError | None = None
    logprobs: list[dict[str, Any]] | None = None
    # What the request asked for (None: no logprobs), and why the endpoint gets none.
    top_logprobs: int | None = None
    logprobs_refusal: str | None = None


class JudgeClient:
    """Calls one OpenAI-compatible endpoint; safe to share by every coroutine on one loop.

    `call` asks a judge for validated JSON; `generate` asks a candidate model for a plain
    completion. Both go through one request loop: in-flight limit, retries, Retry-After.
    """

    def __init__(self, endpoint: JudgeEndpoint) -> None:
        self.endpoint = endpoint
        # Named in every failure message; the key never is.
        self.host = endpoint_host(endpoint.base_url)
        self.response_format: ResponseFormatMode = endpoint.response_format
        # Per model: the most top_logprobs it takes (0: no logprobs), and why it took none.
        self._top_logprobs_caps: dict[str, int] = {}
        self._logprobs_refusals: dict[str, str] = {}
        # The SDK's own retries are off: ours honour Retry-After and know insufficient_quota.
        self._openai = openai.AsyncOpenAI(
            base_url=endpoint.base_url,
            api_key=endpoint.api_key or "unset",
            max_retries=0,
            timeout=endpoint.timeout_seconds,
            # aiohttp's pool hands out connections in O(1); httpcore's scans every pooled
            # connection per request, which dominated our CPU at 64 requests in flight.
            http_client=LeanAioHttpClient(
                timeout=endpoint.timeout_seconds,
                verify=trust(endpoint.ca_bundle),
                address_policy=endpoint.address_policy,
                max_response_bytes=endpoint.max_response_bytes,
            ),
        )
        self._in_flight = asyncio.Semaphore(endpoint.concurrency)
        self._meter = EndpointMeter(
            endpoint.role,
            endpoint.base_url,
            tenant_owned=endpoint.tenant_owned,
            labelled_models=endpoint.labelled_models | {endpoint.default_model},
        )
        self._pacer = Pacer(
            endpoint_key(endpoint.base_url, endpoint.api_key),
            endpoint.concurrency,
            RedisPaceStore(endpoint.pace_url) if endpoint.pace_url else LOCAL_STORE,
        )
        # A provider's error may quote the key (exception chains, library lines): no log line
        # shows it while the client lives.
        logs.hold_secret(endpoint.api_key)
        # Once nothing refers to the client any more (dropped from the shared cache, its last
        # job done), its connections are closed on its loop. Until then a running coroutine
        # may still use it, so it is never closed under one.
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        self._finalizer = weakref.finalize(
            self, _close_later, loop, self._openai, self._pacer, endpoint.api_key
        )
        # At exit, close_clients closes the shared ones in order; the rest go with the process.
        self._finalizer.atexit = False

    async def close(self) -> None:
        if self._finalizer.detach() is not None:
            logs.release_secret(self.endpoint.api_key)
        await self._openai.close()
        await self._pacer.close()

    def _error(
        self, type_: str, message: str, usage: JudgeUsage | None = None, kind: str | None = None
    ) -> JudgeError:
        """A JudgeError whose message (stored on results, exported, logged) holds no key."""
        return JudgeError(type_, logs.redact(message, self.endpoint.api_key), usage, kind=kind)

    async def call(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        *,
        model: str | None = None,
        top_logprobs: int | None = None,
        cache: JudgeCache | None = None,
        shared: SharedAnswers | None = None,
        params: dict[str, Any] | None = None,
    ) -> JudgeReply:
        """Ask the judge and return its JSON validated against `schema`.

        Args:
            params: sampling fields (temperature, top_p, seed, max_completion_tokens, ...)
                set over the endpoint's defaults; a None value leaves the field as it was.
            shared: makes the answer once for every job asking the same request (G-Eval steps,
                faithfulness truths): one caller asks the judge, the others wait for its answer.

        Raises JudgeError when the endpoint keeps failing or the JSON stays broken after one
        repair request; `usage` on the error counts the calls that were made.
        """
        model = model or self.endpoint.default_model
        sampling = {name: value for name, value in (params or {}).items() if value is not None}
        reserved = _RESERVED_PARAMS.union(_JUDGE_OWNED).intersection(sampling)
        if reserved:
            raise self._error(
                "judge_bad_request", f"judge params may not set {', '.join(sorted(reserved))}"
            )
        key_params: dict[str, Any] = {
            "temperature": self.endpoint.temperature,
            "top_logprobs": top_logprobs,
        }
        if sampling:
            # Only calls with sampling fields key on them: other keys stay as they were.
            key_params["sampling"] = sampling
        key = None
        if cache is not None or shared is not None:
            key = cache_key(model, messages, task_name(schema), key_params)
        if shared is not None and key is not None:
            return await self._call_shared(
                shared, key, messages, schema, model, top_logprobs, sampling
            )
        if cache is not None and key is not None:
            hit = _from_store(await cache.get(key), schema)
            JUDGE_CACHE_LOOKUPS.labels("miss" if hit is None else "hit").inc()
            if hit is not None:
                return hit
        reply = await self._answer(messages, schema, model, top_logprobs, sampling)
        if cache is not None and key is not None:
            await cache.put(key, {"content": reply.content, "logprobs": reply.logprobs})
        return reply

    async def _call_shared(
        self,
        shared: SharedAnswers,
        key: str,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        sampling: dict[str, Any],
    ) -> JudgeReply:
        made: JudgeReply | None = None

        async def make() -> dict[str, Any]:
            nonlocal made
            made = await self._answer(messages, schema, model, top_logprobs, sampling)
            return {"content": made.content, "logprobs": made.logprobs}

        stored, mine = await answer_once(shared, key, make)
        if mine and made is not None and stored.get("content") == made.content:
            return made
        reply = _from_store(stored, schema)
        if reply is None:
            # An entry an older schema wrote: ask without sharing rather than fail.
            return await self._answer(messages, schema, model, top_logprobs, sampling)
        if made is not None:
            # Our claim went stale and another answer was stored first: use it, as everyone
            # else does, but count the calls we made.
            reply.usage, reply.cached = made.usage, False
        return reply

    async def _answer(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        sampling: dict[str, Any] | None = None,
    ) -> JudgeReply:
        """The judge's validated answer, with one repair request when the JSON is unusable."""
        usage = JudgeUsage()
        sampling = sampling or {}
        completion = await self._complete(messages, schema, model, top_logprobs, usage, sampling)
        repaired = False
        if completion.problem is not None:
            first_error = completion.problem
            # One repair round: show the judge its reply and the problem, ask for JSON only.
            repaired = True
            unfit = misfit(first_error)
            problem = (
                f"Your reply does not fit the question: {unfit}."
                if unfit is not None
                else f"Your reply could not be used: {describe(first_error)}."
            )
            repair = [
                *messages,
                {"role": "assistant", "content": completion.content or ""},
                {
                    "role": "user",
                    "content": f"{problem} Reply again with only the JSON object, "
                    f"with exactly these fields: {', '.join(schema.model_fields)}.",
                },
            ]
            completion = await self._complete(repair, schema, model, top_logprobs, usage, sampling)
            if completion.problem is not None:
                second_error = completion.problem
                unfit = misfit(second_error)
                if unfit is not None:
                    # Well-formed but not an answer to what was asked: scoring it anyway (a
                    # clamp, verdicts left out) would turn it into a pass.
                    raise self._error(
                        "invalid_answer",
                        f"the judge at {self.host} answered twice with an answer that does not "
                        f"fit the question: {unfit}",
                        usage,
                        kind="malformed",
                    ) from second_error
                raise self._error(
                    f"{self.endpoint.role}_malformed",
                    f"the judge at {self.host} returned unusable JSON twice: "
                    f"{describe(second_error)}",
                    usage,
                    kind="malformed",
                ) from second_error
        assert completion.data is not None
        return JudgeReply(
            data=completion.data,
            content=completion.content or "",
            logprobs=completion.logprobs,
            usage=usage,
            repaired=repaired,
            response_format=self.response_format,
            top_logprobs=completion.top_logprobs,
            logprobs_refusal=completion.logprobs_refusal,
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
            raise self._error(
                f"{role}_bad_request",
                f"generation params may not set {', '.join(sorted(reserved))}",
                usage,
                kind="bad_request",
            )
        fields = {
            "model": model or self.endpoint.default_model,
            "messages": wire_messages(messages),
            "temperature": self.endpoint.temperature,
            **(params or {}),
        }
        request = {name: value for name, value in fields.items() if value is not None}
        raw = await self._post(lambda: request, usage)
        tokens = (usage.prompt_tokens, usage.completion_tokens)
        body = completion_body(raw, usage)
        choice = first_choice(body) if body is not None else None
        self._meter.answered(
            request["model"],
            usable=choice is not None,
            prompt_tokens=usage.prompt_tokens - tokens[0],
            completion_tokens=usage.completion_tokens - tokens[1],
        )
        if choice is None:
            raise self._error(
                f"{role}_malformed",
                f"the {role} endpoint {self.host} answered with something that is not a chat "
                "completion with a choice",
                usage,
                kind="malformed",
            )
        return Generation(
            content=text_content((choice.get("message") or {}).get("content")),
            usage=usage,
            finish_reason=choice.get("finish_reason"),
            choice=choice,
            model=body.get("model") if isinstance(body.get("model"), str) else None,
        )

    async def embed(self, texts: list[str], *, model: str) -> Embeddings:
        """The embedding of each text, in order (`/embeddings`, same limits and retries).

        Raises JudgeError when the endpoint keeps failing or its reply holds no vector per text.
        """
        role = self.endpoint.role
        usage = JudgeUsage()
        request = {"model": model, "input": texts, "encoding_format": "float"}
        raw = await self._post(lambda: request, usage, path="/embeddings")
        tokens = (usage.prompt_tokens, usage.completion_tokens)
        vectors = embedding_vectors(raw, usage)
        self._meter.answered(
            model,
            usable=vectors is not None and len(vectors) == len(texts),
            prompt_tokens=usage.prompt_tokens - tokens[0],
            completion_tokens=usage.completion_tokens - tokens[1],
        )
        if vectors is None or len(vectors) != len(texts):
            raise self._error(
                f"{role}_error",
                f"the {role} endpoint's reply is not a list of {len(texts)} embeddings",
                usage,
            )
        return Embeddings(vectors=vectors, usage=usage)

    async def _complete(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        usage: JudgeUsage,
        sampling: dict[str, Any],
    ) -> _Completion:
        """One judge completion in the best structured-output mode the endpoint takes."""
        wire = wire_messages(messages)
        sent: dict[str, int | None] = {"top_logprobs": None}

        def request() -> dict[str, Any]:
            # Rebuilt per attempt: a refusal may have stepped the mode or logprobs down.
            body: dict[str, Any] = {
                "model": model,
                "messages": wire,
                "temperature": self.endpoint.temperature,
                **sampling,
            }
            if self.response_format == "json_schema":
                body["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": task_name(schema), "schema": _json_schema(schema)},
                }
            elif self.response_format == "json_object":
                body["response_format"] = {"type": "json_object"}
            sent["top_logprobs"] = None
            if top_logprobs is not None:
                cap = self._top_logprobs_caps.get(model)
                count = top_logprobs if cap is None else min(top_logprobs, cap)
                if count > 0:
                    body["logprobs"] = True
                    body["top_logprobs"] = sent["top_logprobs"] = count
            return body

        raw = await self._post(request, usage, self._step_down)
        refusal = None
        if top_logprobs is not None and sent["top_logprobs"] is None:
            refusal = self._logprobs_refusals.get(model)
        completion = _Completion(
            content=None, top_logprobs=sent["top_logprobs"], logprobs_refusal=refusal
        )
        tokens = (usage.prompt_tokens, usage.completion_tokens)
        body = completion_body(raw, usage)
        if body is None:
            # Not the model's words but no chat completion at all (a proxy's page, garbage):
            # asking the model to repair it would make no sense.
            self._meter.answered(
                model,
                usable=False,
                prompt_tokens=usage.prompt_tokens - tokens[0],
                completion_tokens=usage.completion_tokens - tokens[1],
            )
            raise self._error(
                f"{self.endpoint.role}_malformed",
                f"the {self.endpoint.role} endpoint {self.host} answered with something that "
                "is not a chat completion (not JSON)",
                usage,
                kind="malformed",
            )
        choice = first_choice(body)
        if choice is not None:
            completion.content = (choice.get("message") or {}).get("content")
            completion.logprobs = digit_logprobs(choice)
        try:
            completion.data = schema.model_validate(
                extract_json_object(completion.content)
            ).model_dump()
        except (JSONExtractionError, ValidationError) as problem:
            completion.problem = problem
        self._meter.answered(
            model,
            usable=completion.problem is None,
            prompt_tokens=usage.prompt_tokens - tokens[0],
            completion_tokens=usage.completion_tokens - tokens[1],
        )
        return completion

    def _step_down(self, request: dict[str, Any], error: openai.BadRequestError) -> bool:
        """True when a refused judge request asked for what this endpoint lacks; stops asking.

        The step down is remembered by the client (logprobs: per model), so later calls start
        at the lower mode.
        """
        refusal = str(error).lower()
        fmt: ResponseFormatMode = (request.get("response_format") or {}).get("type", "text")
        if fmt in _DOWNGRADE and ("response_format" in refusal or "json_schema" in refusal):
            self.response_format = _DOWNGRADE[fmt]
            logger.info("judge endpoint rejects %s; using %s", fmt, self.response_format)
            return True
        if request.get("logprobs") and "logprob" in refusal:
            model, sent = request["model"], request.get("top_logprobs") or 0
            # Models cap top_logprobs (deepeval: min(top_logprobs, the model's max_log_probs));
            # try the stated limit, else a common cap, before giving up on logprobs.
            stated = stated_limit(refusal)
            if stated is not None and 0 < stated < sent:
                cap = stated
            elif sent > _FALLBACK_TOP_LOGPROBS:
                cap = _FALLBACK_TOP_LOGPROBS
            else:
                cap = 0
                self._logprobs_refusals[model] = endpoint_message(error, self.endpoint.api_key)
            self._top_logprobs_caps[model] = cap
            logger.info("judge model %s refused top_logprobs=%d; now %d", model, sent, cap)
            return True
        return False

    async def _post(
        self,
        request: Callable[[], dict[str, Any]],
        usage: JudgeUsage,
        step_down: Callable[[dict[str, Any], openai.BadRequestError], bool] | None = None,
        path: str = "/chat/completions",
    ) -> bytes:
        """The raw body of a successful request to `path`, retried within the endpoint's bounds.

        Args:
            request: builds the body for each attempt.
            step_down: told of a 400 (the request and the error); True when it changed what
                `request` builds, so the refusal is retried and not counted.
        """
        role = self.endpoint.role
        attempt = 0
        while True:
            attempt += 1
            body = request()
            try:
                async with self._in_flight:
                    raw = await self._send(path, body, usage)
            except openai.BadRequestError as error:
                if step_down is not None and step_down(body, error):
                    attempt -= 1
                    continue
                raise self._error(
                    f"{role}_bad_request",
                    f"the {role} endpoint {self.host} refused the request: "
                    f"{endpoint_message(error, self.endpoint.api_key)}",
                    usage,
                    kind="bad_request",
                ) from error
            except ReplyTooLarge as error:
                # Not retried: asking again would download the same again. The call was made
                # (and is billed), so it counts.
                usage.calls += 1
                raise self._error(
                    f"{role}_malformed",
                    f"the {role} endpoint {self.host} answered with more than {error.limit} "
                    "bytes (LOUPE_MAX_MODEL_RESPONSE_BYTES); the rest was not read",
                    usage,
                    kind="malformed",
                ) from error
            except openai.AuthenticationError as error:
                raise self._error(
                    f"{role}_auth",
                    f"the {role} endpoint {self.host} refused the API key",
                    usage,
                    kind="auth",
                ) from error
            except openai.RateLimitError as error:
                if error_code(error) == "insufficient_quota":
                    raise self._error(
                        f"{role}_quota",
                        f"the {role} account at {self.host} is out of quota",
                        usage,
                        kind="quota",
                    ) from error
                message = f"the {role} endpoint {self.host} rate-limited the request (429)"
                await self._backoff(
                    attempt, error, "rate_limited", message, usage, retry_after(error)
                )
                continue
            except openai.InternalServerError as error:
                message = (
                    f"the {role} endpoint {self.host} answered {error.status_code}: "
                    f"{endpoint_message(error, self.endpoint.api_key)}"
                )
                await self._backoff(
                    attempt, error, "server_error", message, usage, retry_after(error)
                )
                continue
            except openai.APIConnectionError as error:
                refused = refusal_in(error)
                if refused is not None:
                    # The policy's verdict on this address: asking again would not change it.
                    raise self._error(
                        f"{role}_blocked",
                        f"the {role} endpoint {self.host} is {refused}",
                        usage,
                        kind="blocked",
                    ) from error
                # APITimeoutError included: a refused connection arrives as one (see
                # connection_kind).
                kind = connection_kind(error)
                message = connection_message(
                    kind,
                    role,
                    self.host,
                    error,
                    self.endpoint.timeout_seconds,
                    self.endpoint.api_key,
                )
                await self._backoff(attempt, error, kind, message, usage, None)
                continue
            except openai.APIStatusError as error:
                raise self._error(
                    f"{role}_error",
                    f"the {role} endpoint {self.host} answered {error.status_code}: "
                    f"{endpoint_message(error, self.endpoint.api_key)}",
                    usage,
                    kind="error",
                ) from error
            usage.calls += 1
            return raw

    async def _send(self, path: str, body: dict[str, Any], usage: JudgeUsage) -> bytes:
        """POST one request to `path` when the endpoint's pace allows; its outcome and time
        are counted (a request that got no answer in `usage.failed_calls`), and what it says
        about the limits adapts the pace."""
        await self._pacer.acquire()
        started = time.perf_counter()
        headers: httpx.Headers | None = None
        limited, wait, tokens = False, None, 0
        try:
            # The raw endpoint with plain-dict bodies: the SDK's typed request transform and
            # response models cost more CPU than the rest of a judge call.
            response = await self._openai.post(
                path,
                # Serialised here: the SDK would deep-copy the body (images included).
                content=json.dumps(body, ensure_ascii=False).encode(),
                # The response itself (read already): its rate-limit headers pace the next ones.
                cast_to=httpx.Response,
                options={
                    "headers": _JSON_HEADERS,
                    # The SDK would make a uuid4 per request for this header.
                    "idempotency_key": f"loupe-{next(_request_numbers)}",
                    # The client's own values, given so the SDK does not deep-copy its
                    # placeholder defaults for them on every request.
                    "max_retries": 0,
                    "timeout": self._openai.timeout,
                    "params": {},
                },
            )
            headers = response.headers
            raw = response.content
            if self._pacer.counts_tokens:
                tokens = total_tokens(raw)
            return raw
        except ReplyTooLarge:
            self._meter.answered(body["model"], usable=False, prompt_tokens=0, completion_tokens=0)
            raise
        except openai.APIError as error:
            self._meter.failed(body["model"], error)
            # The policy's refusal of the address comes before any request is sent.
            if refusal_in(error) is None:
                usage.failed_calls += 1
            if isinstance(error, openai.APIStatusError):
                headers = error.response.headers
                limited = isinstance(error, openai.RateLimitError) and (
                    error_code(error) != "insufficient_quota"
                )
                wait = retry_after(error) if limited else None
            raise
        finally:
            self._meter.timed(body["model"], time.perf_counter() - started)
            await self._pacer.release(
                headers=headers, rate_limited=limited, retry_after=wait, tokens=tokens
            )

    async def _backoff(
        self,
        attempt: int,
        error: Exception,
        kind: FailureKind,
        message: str,
        usage: JudgeUsage,
        retry_after: float | None,
    ) -> None:
        endpoint = self.endpoint
        if attempt >= endpoint.max_attempts:
            raise self._error(
                f"{endpoint.role}_{kind}",
                f"{message} (gave up after {attempt} attempts)",
                usage,
                kind=kind,
            ) from error
        if retry_after is not None:
            delay = min(retry_after, MAX_RETRY_AFTER_SECONDS)
        else:
            # Exponential backoff with full jitter, so a burst of 429s does not retry in lockstep.
            ceiling = min(
                endpoint.backoff_cap_seconds, endpoint.backoff_base_seconds * 2 ** (attempt - 1)
            )
            delay = random.uniform(0, ceiling)
        await asyncio.sleep(delay)


# Closes of dropped clients in progress: the loop keeps only weak references to its tasks.
_closing: set["asyncio.Task[None]"] = set()


def _close_later(
    loop: asyncio.AbstractEventLoop | None, http: openai.AsyncOpenAI, pacer: Pacer, key: str
) -> None:
    """Close a client nothing refers to any more; runs in whichever thread dropped it."""
    logs.release_secret(key)
    if loop is None or loop.is_closed():
        return

    async def close() -> None:
        await http.close()
        await pacer.close()

    def start() -> None:
        task = loop.create_task(close())
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    # RuntimeError: the loop closed meanwhile, its process is exiting.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(start)


@lru_cache(maxsize=8)
def trust(ca_bundle: str | None) -> ssl.SSLContext:
    """The TLS trust for an endpoint: the public CAs, plus a private bundle when given.

    One context per bundle, shared by every client: loading the CA store takes about 30 ms,
    which a client per tenant endpoint would otherwise pay each.
    """
    if ca_bundle is None:
        # What httpx would build for verify=True (SSL_CERT_FILE / SSL_CERT_DIR honoured).
        return httpx.create_ssl_context(verify=True, trust_env=True)
    context = ssl.create_default_context(cafile=certifi.where())
    context.load_verify_locations(cafile=ca_bundle)
    return context


@lru_cache(maxsize=256)
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def task_name(schema: type[BaseModel]) -> str:
    """The schema's task name (its `title`), sent as the json_schema name."""
    return schema.model_config.get("title") or schema.__name__


def _from_store(entry: dict[str, Any] | None, schema: type[BaseModel]) -> JudgeReply | None:
    """A stored answer as a cached reply; None when absent or no longer valid for `schema`."""
    if entry is None:
        return None
    try:
        data = schema.model_validate(extract_json_object(entry["content"])).model_dump()
    except (JSONExtractionError, ValidationError):
        return None  # a stale entry from an older schema: ask again
    return JudgeReply(
        data=data,
        content=entry["content"],
        logprobs=entry.get("logprobs"),
        usage=JudgeUsage(),
        cached=True,
    )
