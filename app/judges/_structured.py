"""Judge completions in the best structured-output mode an endpoint takes.

`json_schema`, then `json_object`, then plain text, and top_logprobs down to what the model
takes: each step down is remembered by the endpoint's client (logprobs: per model).
"""

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import openai
from pydantic import BaseModel, ValidationError

from app.judges._errors import endpoint_message, stated_limit
from app.judges._json import JSONExtractionError, extract_json_object, whole_characters
from app.judges._requests import RequestLoop
from app.judges._types import JudgeEndpoint, JudgeReply, JudgeUsage, ResponseFormatMode
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
# The top_logprobs tried when a model refuses more and does not say how many it takes.
_FALLBACK_TOP_LOGPROBS = 5


@dataclass
class Completion:
    content: str | None
    # The content validated against the judge's schema, or why it could not be.
    data: dict[str, Any] | None = None
    problem: JSONExtractionError | ValidationError | None = None
    logprobs: list[dict[str, Any]] | None = None
    # What the request asked for (None: no logprobs), and why the endpoint gets none.
    top_logprobs: int | None = None
    logprobs_refusal: str | None = None


class JudgeCompletions:
    """One endpoint's judge completions: the structured-output mode it takes and, per model,
    the most top_logprobs it takes (0: no logprobs) and why it took none."""

    def __init__(self, endpoint: JudgeEndpoint, requests: RequestLoop) -> None:
        self.endpoint = endpoint
        self.requests = requests
        self.response_format: ResponseFormatMode = endpoint.response_format
        self._top_logprobs_caps: dict[str, int] = {}
        self._logprobs_refusals: dict[str, str] = {}

    async def complete(
        self,
        messages: list[dict[str, Any]],
        schema: type[BaseModel],
        model: str,
        top_logprobs: int | None,
        usage: JudgeUsage,
        sampling: dict[str, Any],
    ) -> Completion:
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

        raw = await self.requests.post(request, usage, self.step_down)
        refusal = None
        if top_logprobs is not None and sent["top_logprobs"] is None:
            refusal = self._logprobs_refusals.get(model)
        completion = Completion(
            content=None, top_logprobs=sent["top_logprobs"], logprobs_refusal=refusal
        )
        tokens = (usage.prompt_tokens, usage.completion_tokens)
        # Only the content (parsed and checked again below) and the digits' logprobs are kept.
        body = completion_body(raw, usage, whole=False)
        choice = first_choice(body) if body is not None else None
        if choice is None:
            # Not the model's words but no chat completion at all (a proxy's page, garbage,
            # JSON without choices): asking the model to repair it would make no sense.
            self.requests.meter.answered(
                model,
                usable=False,
                prompt_tokens=usage.prompt_tokens - tokens[0],
                completion_tokens=usage.completion_tokens - tokens[1],
            )
            raise self.requests.error(
                f"{self.endpoint.role}_malformed",
                f"the {self.endpoint.role} endpoint {self.requests.host} answered with "
                "something that is not a chat completion "
                + ("(not JSON)" if body is None else "(JSON without choices)"),
                usage,
                kind="malformed",
            )
        message = choice.get("message")
        if not isinstance(message, dict):
            message = {}
        # Text only (a list of parts joined): nothing nested of the reply is kept. Whole
        # characters only: it is stored (the judge cache, a grader's sample).
        completion.content = whole_characters(text_content(message.get("content")))
        completion.logprobs = digit_logprobs(choice)
        refusal = whole_characters(message.get("refusal"))
        try:
            if not completion.content and isinstance(refusal, str) and refusal.strip():
                # The model declined (structured outputs' `refusal`): its words say why.
                raise JSONExtractionError(f"the model refused: {refusal.strip()[:300]}")
            completion.data = schema.model_validate(
                extract_json_object(completion.content)
            ).model_dump()
        except (JSONExtractionError, ValidationError) as problem:
            completion.problem = problem
        self.requests.meter.answered(
            model,
            usable=completion.problem is None,
            prompt_tokens=usage.prompt_tokens - tokens[0],
            completion_tokens=usage.completion_tokens - tokens[1],
        )
        return completion

    def step_down(self, request: dict[str, Any], error: openai.BadRequestError) -> bool:
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


@lru_cache(maxsize=256)
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def task_name(schema: type[BaseModel]) -> str:
    """The schema's task name (its `title`), sent as the json_schema name."""
    return schema.model_config.get("title") or schema.__name__


def from_store(entry: dict[str, Any] | None, schema: type[BaseModel]) -> JudgeReply | None:
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
