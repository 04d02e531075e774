"""JSON request bodies parsed as they stream in, never held whole.

Starlette would join the body's chunks (two copies of it), keep those bytes for the whole
request, and `json.loads` would decode them to one more string and make a separate string for
every repeat of the same data URL. A submission of hundreds of test cases sharing a few large
images would cost several times its size. Here each chunk goes straight into an incremental
parser (ijson's C backend) and long strings that repeat become one object, so memory holds
the parsed values and each distinct image once. The parser's events also go through a guard,
so a body nested past `nesting.MAX_DEPTH`, or holding U+0000 in a string or key, is a 422 naming
the first value at fault (400 on the OpenAI routes, as every 422 there).
"""

import json
from collections.abc import Callable, Coroutine
from typing import Any

import ijson
from fastapi import Request, Response
from fastapi.routing import APIRoute
from ijson.common import ObjectBuilder

from app.api.deps import authenticates, check_before_body
from app.api.nesting import JsonGuard, NumberTooLarge, RefusedJson
from app.api.surrogates import LoneSurrogate, SurrogateScan
from app.api.withheld import withheld
from app.problems import ProblemError, ProblemHTTPError, field_error

# Strings this long are worth de-duplicating (data URLs, long documents); shorter ones are not.
_SHARED_STRING_MIN = 256
# What FastAPI sees as "the body" once it is parsed: it only checks that one was sent.
_PARSED = b"{}"


class _SharingBuilder(ObjectBuilder):
    """Builds the document from parser events; repeated long strings share one object."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: dict[str, str] = {}
        self._guard = JsonGuard()

    def next_path(self) -> list[str | int]:
        """The path of the value being read (a number too large to read, when it fails)."""
        return self._guard.next_path()

    def send(self, item: tuple[str, Any]) -> None:
        event, value = item
        self._guard.event(event, value)
        if event == "string" and len(value) >= _SHARED_STRING_MIN:
            value = self._seen.setdefault(value, value)
        self.event(event, value)


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


def _refused(error: RefusedJson) -> ProblemHTTPError:
    """A 422 naming the value at fault, raised while FastAPI reads the body, where only
    HTTPExceptions get through."""
    field = field_error(error.path or ["body"], str(error), error.code)
    problem = ProblemError(
        422,
        "Invalid request",
        f"{field.loc}: {field.msg}",
        slug=error.code.replace("_", "-"),
        errors=[field],
    )
    return ProblemHTTPError(problem)


class LeanRequest(Request):
    async def body(self) -> bytes:
        if hasattr(self, "_body"):
            return self._body
        if not _is_json(self.headers.get("content-type", "")):
            return await super().body()
        builder = _SharingBuilder()
        parser = ijson.basic_parse_coro(builder, use_float=True)
        surrogates = SurrogateScan()
        received = 0
        try:
            async for chunk in self.stream():
                if chunk:
                    received += len(chunk)
                    surrogates.feed(chunk)
                    parser.send(chunk)
            if received:
                surrogates.close()
                parser.close()
        except ijson.JSONError as error:
            # FastAPI answers a JSONDecodeError with 400 (problem+json via our handler).
            reason = str(error).splitlines()[0]
            if reason.endswith("overflow"):
                # Valid JSON all the same: a 422 naming the number's field, as for a value out
                # of range, not a 400 naming the body.
                raise _refused(NumberTooLarge(builder.next_path())) from error
            raise json.JSONDecodeError(reason, "", 0) from error
        except UnicodeDecodeError as error:
            # A \u escape naming a lone low surrogate (`"\udfff"`) in a key: no text in UTF-8.
            # FastAPI would answer any other exception with a bare 400 naming no field.
            raise json.JSONDecodeError(f"undecodable text: {error.reason}", "", 0) from error
        except LoneSurrogate as error:
            # The parser would store `?` in its place: the text kept would not be the text sent.
            raise json.JSONDecodeError(str(error), "", error.offset) from error
        except RefusedJson as error:
            raise _refused(error) from error
        if not received:
            self._body = b""
            return self._body
        self._json = builder.value
        self._body = _PARSED
        return self._body


class LeanRoute(APIRoute):
    """An APIRoute whose handlers see a LeanRequest; one that takes a body and a key checks
    the key and its scope before reading the body (`deps.check_before_body`): a body FastAPI
    reads, or one the route reads itself and declares in `openapi_extra` (a label import)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        takes_body = self.body_field is not None or "requestBody" in (self.openapi_extra or {})
        key_first = takes_body and authenticates(self)

        async def lean_handler(request: Request) -> Response:
            lean = LeanRequest(request.scope, request.receive)
            if key_first:
                await check_before_body(lean)
            response = await handler(lean)
            # A change's answer shows a caller without `read` no score (app/api/withheld.py).
            if getattr(lean.state, "withhold_scores", False):
                return withheld(response)
            return response

        return lean_handler


class OpenAIRoute(LeanRoute):
    """A route of the OpenAI-compatible API (`/v1/evals`, `/v1/files`): its errors carry
    OpenAI's `error` member beside the problem's fields, and a bad body answers 400, never 422
    (`app.problems.ErrorDialect`)."""

    error_dialect = "openai"


async def post_only_refusal(request: Request) -> Response:
    """The 405 of a POST-only path's other methods (the same for any id in the path)."""
    raise ProblemError(
        405,
        "Method Not Allowed",
        f"{request.method} {request.url.path}: method not allowed; this path takes POST.",
        headers={"Allow": "POST"},
    )


def post_only(router: Any, path: str) -> None:
    """Answer the other methods on a POST-only path (an estimate) with 405 and `Allow: POST`,
    where a `/{id}` route of the same router would otherwise take the path for an id (a 404
    "No evaluation 'estimate'"). Register it before that route."""
    # A plain route: no operation of the API (no key, no scope, not in the document).
    router.add_route(
        router.prefix + path,
        post_only_refusal,
        methods=["GET", "PUT", "PATCH", "DELETE"],
        include_in_schema=False,
    )
