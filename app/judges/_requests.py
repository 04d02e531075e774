"""One endpoint's request loop: in-flight limit, pacing, retries with backoff and Retry-After.

Every failure leaves it as a JudgeError whose message names the endpoint's host, never its key.
"""

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import openai

from app import jsonio
from app.judges._errors import (
    MAX_RETRY_AFTER_SECONDS,
    FailureKind,
    connection_kind,
    connection_message,
    endpoint_host,
    endpoint_message,
    error_code,
    retry_after,
)
from app.judges._http import LeanOpenAI, ReplyRefused, ReplyTooLarge
from app.judges._pacing import Pacer, rate_limit_headers, total_tokens
from app.judges._resolver import refusal_in
from app.judges._telemetry import EndpointMeter
from app.judges._types import JudgeEndpoint, JudgeError, JudgeUsage
from app.telemetry import logs

_request_numbers = itertools.count(1)
_JSON_HEADERS = {"Content-Type": "application/json"}


class RequestLoop:
    """Sends one endpoint's requests: at most `concurrency` in flight, at the pace its limits
    allow, each retried within the endpoint's bounds; shared by every call of its client."""

    def __init__(
        self,
        endpoint: JudgeEndpoint,
        http: LeanOpenAI,
        pacer: Pacer,
        meter: EndpointMeter,
    ) -> None:
        self.endpoint = endpoint
        # Named in every failure message; the key never is.
        self.host = endpoint_host(endpoint.base_url)
        self._openai = http
        self._pacer = pacer
        self.meter = meter
        self._in_flight = asyncio.Semaphore(
            max(endpoint.concurrency, endpoint.max_concurrency or 0)
        )
        # The limit as /metrics last counted it.
        self._counted_limit = pacer.limit
        meter.limit_moved(pacer.limit)

    def error(
        self, type_: str, message: str, usage: JudgeUsage | None = None, kind: str | None = None
    ) -> JudgeError:
        """A JudgeError whose message (stored on results, exported, logged) holds no key."""
        return JudgeError(type_, logs.redact(message, self.endpoint.api_key), usage, kind=kind)

    def forget(self) -> None:
        """Take this endpoint's in-flight limit off /metrics (its client is closed)."""
        self.meter.limit_moved(-self._counted_limit)
        self._counted_limit = 0.0

    async def post(
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
                raise self.error(
                    f"{role}_bad_request",
                    f"the {role} endpoint {self.host} refused the request: "
                    f"{endpoint_message(error, self.endpoint.api_key)}",
                    usage,
                    kind="bad_request",
                ) from error
            except ReplyRefused as error:
                # Not retried: asking again would download the same again. The call was made
                # (and is billed), so it counts.
                usage.calls += 1
                said = (
                    f"answered with more than {error.limit} bytes "
                    "(LOUPE_MAX_MODEL_RESPONSE_BYTES); the rest was not read"
                    if isinstance(error, ReplyTooLarge)
                    else f"answered with a body Loupe does not read: {error.why}"
                )
                raise self.error(
                    f"{role}_malformed",
                    f"the {role} endpoint {self.host} {said}",
                    usage,
                    kind="malformed",
                ) from error
            except openai.AuthenticationError as error:
                raise self.error(
                    f"{role}_auth",
                    f"the {role} endpoint {self.host} refused the API key",
                    usage,
                    kind="auth",
                ) from error
            except openai.RateLimitError as error:
                if error_code(error) == "insufficient_quota":
                    raise self.error(
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
                    raise self.error(
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
                raise self.error(
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
        self.meter.in_flight(1)
        started = time.perf_counter()
        headers: dict[str, str] | None = None
        limited, wait, tokens = False, None, 0
        try:
            # The raw endpoint with plain-dict bodies: the SDK's typed request transform and
            # response models cost more CPU than the rest of a judge call.
            response = await self._openai.post_bytes(
                path,
                # Serialised here: the SDK would deep-copy the body (images included).
                jsonio.dumps(body),
                _JSON_HEADERS,
                # The SDK would make a uuid4 per request for this header.
                f"loupe-{next(_request_numbers)}",
            )
            headers = rate_limit_headers(response.headers.raw)
            raw = response.content
            if self._pacer.counts_tokens:
                tokens = total_tokens(raw)
            return raw
        except ReplyRefused:
            self.meter.answered(body["model"], usable=False, prompt_tokens=0, completion_tokens=0)
            raise
        except asyncio.CancelledError:
            # Cut off by a cancel (its evaluation's): a request sent that got no answer to read,
            # as one that timed out. Whether the provider billed it, and for how many tokens,
            # is never known.
            usage.failed_calls += 1
            raise
        except openai.APIError as error:
            self.meter.failed(body["model"], error)
            # The policy's refusal of the address comes before any request is sent.
            if refusal_in(error) is None:
                usage.failed_calls += 1
            if isinstance(error, openai.APIStatusError):
                headers = rate_limit_headers(error.response.headers.raw)
                limited = isinstance(error, openai.RateLimitError) and (
                    error_code(error) != "insufficient_quota"
                )
                wait = retry_after(error) if limited else None
            raise
        finally:
            self.meter.timed(body["model"], time.perf_counter() - started)
            try:
                await self._pacer.release(
                    headers=headers, rate_limited=limited, retry_after=wait, tokens=tokens
                )
            finally:
                self.meter.in_flight(-1)
                limit = self._pacer.limit
                self.meter.limit_moved(limit - self._counted_limit)
                self._counted_limit = limit

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
            raise self.error(
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
