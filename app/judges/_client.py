"""The judge client: one long-lived AsyncOpenAI per endpoint, bounded, retried, cached.

Its parts: the request loop (`_requests.py`), structured output and its step downs
(`_structured.py`), the connections' trust and close (`_connections.py`).
"""

import asyncio
import weakref
from typing import Any

from pydantic import BaseModel

from app.judges import _cut_off
from app.judges._cache import JudgeCache, cache_key
from app.judges._connections import close_later, trust
from app.judges._errors import describe, misfit
from app.judges._http import LeanAioHttpClient, LeanOpenAI
from app.judges._pace_stores import LOCAL_STORE, RedisPaceStore
from app.judges._pacing import Pacer, endpoint_key
from app.judges._requests import RequestLoop
from app.judges._shared import SharedAnswers, answer_once
from app.judges._structured import JudgeCompletions, from_store, task_name
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
    embedding_vectors,
    first_choice,
    text_content,
    wire_messages,
)
from app.telemetry import logs
from app.telemetry.metrics import JUDGE_CACHE_LOOKUPS

# Body fields a caller's generation params may not set: Loupe owns them (and reads one
# non-streamed body).
_RESERVED_PARAMS = frozenset({"model", "messages", "stream"})
# What a judge call's sampling params may not set besides: its structured output and logprobs.
_JUDGE_OWNED = frozenset({"response_format", "logprobs", "top_logprobs"})


class JudgeClient:
    """Calls one OpenAI-compatible endpoint; safe to share by every coroutine on one loop.

    `call` asks a judge for validated JSON; `generate` asks a candidate model for a plain
    completion. Both go through one request loop: in-flight limit, retries, Retry-After.
    """

    def __init__(self, endpoint: JudgeEndpoint) -> None:
        self.endpoint = endpoint
        # The SDK's own retries are off: ours honour Retry-After and know insufficient_quota.
        self._openai = LeanOpenAI(
            base_url=endpoint.base_url,
            api_key=endpoint.api_key or "unset",
            max_retries=0,
            timeout=endpoint.timeout_seconds,
            # Its pool (`_lean_http.py`) hands out connections in O(1); httpcore's scanned
            # every pooled connection per request, which dominated our CPU at 64 in flight.
            http_client=LeanAioHttpClient(
                timeout=endpoint.timeout_seconds,
                verify=trust(endpoint.ca_bundle),
                address_policy=endpoint.address_policy,
                max_response_bytes=endpoint.max_response_bytes,
            ),
        )
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
            grow_to=endpoint.max_concurrency,
        )
        self._requests = RequestLoop(endpoint, self._openai, self._pacer, self._meter)
        # Named in every failure message; the key never is.
        self.host = self._requests.host
        self._completions = JudgeCompletions(endpoint, self._requests)
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
            self,
            close_later,
            loop,
            self._openai,
            self._pacer,
            endpoint.api_key,
            self._requests.forget,
        )
        # At exit, close_clients closes the shared ones in order; the rest go with the process.
        self._finalizer.atexit = False

    async def close(self) -> None:
        if self._finalizer.detach() is not None:
            logs.release_secret(self.endpoint.api_key)
        await self._openai.close()
        await self._pacer.close()
        self._requests.forget()

    @property
    def response_format(self) -> ResponseFormatMode:
        """The structured-output mode judge calls use now (stepped down after a refusal)."""
        return self._completions.response_format

    def _error(
        self, type_: str, message: str, usage: JudgeUsage | None = None, kind: str | None = None
    ) -> JudgeError:
        return self._requests.error(type_, message, usage, kind)

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
        if self.endpoint.tenant_owned:
            # A tenant's model is its server as well as its name: two registered "llama"s on
            # two hosts answer differently. The operator's judge keeps its keys as they were.
            key_params["endpoint"] = self.endpoint.base_url
        key = None
        if cache is not None or shared is not None:
            key = cache_key(model, messages, task_name(schema), key_params)
        if shared is not None and key is not None:
            return await self._call_shared(
                shared, key, messages, schema, model, top_logprobs, sampling
            )
        if cache is not None and key is not None:
            hit = from_store(await cache.get(key), schema)
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
        reply = from_store(stored, schema)
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
        try:
            return await self._answered(messages, schema, model, top_logprobs, sampling, usage)
        except asyncio.CancelledError:
            # No reply or error will carry what the call used: its caller collects it.
            _cut_off.note(usage)
            raise

    async def _answered(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        sampling: dict[str, Any] | None,
        usage: JudgeUsage,
    ) -> JudgeReply:
        sampling = sampling or {}
        completion = await self._completions.complete(
            messages, schema, model, top_logprobs, usage, sampling
        )
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
            completion = await self._completions.complete(
                repair, schema, model, top_logprobs, usage, sampling
            )
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
        try:
            raw = await self._requests.post(lambda: request, usage)
        except asyncio.CancelledError:
            # No Generation or error will carry what the call used: its caller collects it.
            _cut_off.note(usage)
            raise
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
        raw = await self._requests.post(lambda: request, usage, path="/embeddings")
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
