"""`@idempotent()`: `Idempotency-Key` with Stripe's semantics on a creating POST, in one line.

The wrapped endpoint gains the `Idempotency-Key` header (documented in OpenAPI). With a key,
the request is fingerprinted (method, route, path parameters, the parsed body; a multipart
upload's form fields and each file's SHA-256) and the key reserved before the endpoint runs
(`app/idempotency.py`): a retry with the same request replays the first response's status, body
and headers (`Location`, `Retry-After`) with `Idempotent-Replayed: true`; another request under
the key (another body, or another route: keys are the tenant's, not a route's) is a 422; a twin
arriving while the first runs is a 409; a first request that fails releases the key. The key is
claimed in the transaction that commits the endpoint's work, so work and key stand or fall
together; the work's effects (its jobs' enqueues, which wait for a Redis that is away) run
once the answer is stored on the key (`outbox.held`), so a process dying meanwhile leaves a key
that replays, not one "in progress" until it expires. A route whose answer is its caller's
own (`per_caller`: a label, which is the caller's and shows a judge's score only to a caller
with `read`; `sealed`: a secret shown once, to who made it) replays only to the same caller:
another caller's request under the key is the 422 of another request.
"""

import functools
import hashlib
import inspect
import json
import typing
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from fastapi import Request, Response, UploadFile
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel
from sqlalchemy import event
from sqlalchemy.orm import Session
from starlette.datastructures import UploadFile as StarletteUpload

from app import crypto, idempotency
from app.api.deps import IdempotencyKeyDep, RuntimeDep, SessionDep, TenantDep
from app.config import Settings
from app.outbox import held

F = TypeVar("F", bound=Callable[..., Any])

# The wrapper's own parameters, named so no endpoint's parameter collides with them.
_REQUEST, _KEY, _SESSION, _TENANT, _RUNTIME, _RESPONSE = (
    "idempotent_request",
    "idempotent_key",
    "idempotent_session",
    "idempotent_tenant",
    "idempotent_runtime",
    "idempotent_response",
)
# Headers the response framework writes; the rest (Location, Retry-After, ...) are replayed.
_NOT_STORED = frozenset({"content-length", "content-type"})


def idempotent(*, sealed: Iterable[str] = (), per_caller: bool = False) -> Callable[[F], F]:
    """Give a creating endpoint `Idempotency-Key` (see the module's docstring).

    Args:
        sealed: top-level response fields shown only once (a webhook endpoint's `secret`),
            stored encrypted with the app's key for the replay instead of in clear, and
            replayed only to the caller who made them.
        per_caller: the answer is the caller's own: replayed only to the same caller.
    """
    sealed_fields = tuple(sealed)
    # Who calls is part of the request when the answer is theirs alone.
    by_caller = per_caller or bool(sealed_fields)

    def wrap(endpoint: F) -> F:
        hints = typing.get_type_hints(endpoint, include_extras=True)
        own = [
            parameter.replace(
                kind=inspect.Parameter.KEYWORD_ONLY,
                annotation=hints.get(parameter.name, parameter.annotation),
            )
            for parameter in inspect.signature(endpoint).parameters.values()
        ]
        # FastAPI passes the request (and the response) to one parameter only: the endpoint's
        # own when it has one.
        by_type = {
            annotation: name
            for name, annotation in hints.items()
            if name != "return" and annotation in (Request, Response)
        }
        names = {
            _REQUEST: by_type.get(Request, _REQUEST),
            _RESPONSE: by_type.get(Response, _RESPONSE),
        }
        extra = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation)
            for name, annotation in (
                (_REQUEST, Request),
                (_KEY, IdempotencyKeyDep),
                (_SESSION, SessionDep),
                (_TENANT, TenantDep),
                (_RUNTIME, RuntimeDep),
                (_RESPONSE, Response),
            )
            if names.get(name, name) == name
        ]
        signature = inspect.Signature(own + extra, return_annotation=hints.get("return", Any))

        if inspect.iscoroutinefunction(endpoint):

            @functools.wraps(endpoint)
            async def wrapper(**arguments: Any) -> Any:
                call = _Call(arguments, names, sealed_fields, by_caller)
                if call.key is None:
                    return await endpoint(**arguments)
                form = await call.request.form() if _is_form(call.request) else None
                replay = call.reserve(form)
                if replay is not None:
                    return replay
                # The work's effects (its jobs' enqueues) wait for its answer to be stored.
                with held(call.session):
                    with call.guarded():
                        result = await endpoint(**arguments)
                    return call.complete(result)

        else:

            @functools.wraps(endpoint)
            def wrapper(**arguments: Any) -> Any:  # type: ignore[misc]
                call = _Call(arguments, names, sealed_fields, by_caller)
                if call.key is None:
                    return endpoint(**arguments)
                replay = call.reserve(None)
                if replay is not None:
                    return replay
                with held(call.session):
                    with call.guarded():
                        result = endpoint(**arguments)
                    return call.complete(result)

        wrapper.__signature__ = signature  # type: ignore[attr-defined]
        del wrapper.__wrapped__  # FastAPI must read the signature above, not the endpoint's
        return wrapper  # type: ignore[return-value]

    return wrap


def _is_form(request: Request) -> bool:
    content_type = request.headers.get("content-type", "")
    return content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded"))


class _Call:
    """One keyed request through the wrapper: its fingerprint, reservation and response."""

    def __init__(
        self,
        arguments: dict[str, Any],
        names: dict[str, str],
        sealed: tuple[str, ...],
        by_caller: bool,
    ) -> None:
        self.request: Request = _take(arguments, names[_REQUEST], mine=_REQUEST)
        self.key: str | None = arguments.pop(_KEY)
        self.session: Session = arguments.pop(_SESSION)
        self.tenant_id: str = arguments.pop(_TENANT).id
        self.settings: Settings = arguments.pop(_RUNTIME).settings
        self.sub_response: Response = _take(arguments, names[_RESPONSE], mine=_RESPONSE)
        self.arguments = arguments
        self.sealed = sealed
        self.by_caller = by_caller
        self.reservation_id: int | None = None

    def reserve(self, form: Any) -> Response | None:
        """Reserve the key (None: go ahead) or the first response to replay."""
        stored = idempotency.reserve(
            self.session,
            self.tenant_id,
            self.key or "",
            idempotency.fingerprint(self._request_shape(form)),
            self.settings.idempotency_retention_hours,
            self._body_alone(),
        )
        if stored.status_code is None:
            self.reservation_id = stored.id
            return None
        body = self._unseal(stored.response_body or {})
        return JSONResponse(
            body,
            status_code=stored.status_code,
            headers={**stored.response_headers, "Idempotent-Replayed": "true"},
        )

    @contextmanager
    def guarded(self) -> Iterator[None]:
        """Run the endpoint: its first commit claims the key; its failure releases the key."""
        reservation_id = self.reservation_id
        assert reservation_id is not None
        claimed = False

        def claim(session: Session) -> None:
            nonlocal claimed
            if not claimed:
                claimed = True
                idempotency.claim(session, reservation_id)

        event.listen(self.session, "before_commit", claim)
        try:
            yield
        except BaseException:
            event.remove(self.session, "before_commit", claim)
            # Nothing was stored, so the key must not replay anything: a retry starts afresh
            # (a key whose work did commit stays claimed: that work is never done twice).
            idempotency.release(self.session, reservation_id)
            raise
        event.remove(self.session, "before_commit", claim)

    def complete(self, result: Any) -> Response:
        """Store the endpoint's response on the key and answer it."""
        assert self.reservation_id is not None
        response = result if isinstance(result, Response) else self._serialize(result)
        headers = {
            name: value
            for name, value in {**self.sub_response.headers, **response.headers}.items()
            if name.lower() not in _NOT_STORED
        }
        if response.status_code >= 400:
            idempotency.release(self.session, self.reservation_id)
            return response
        body = json.loads(bytes(response.body)) if response.body else {}
        idempotency.complete(
            self.session, self.reservation_id, response.status_code, self._seal(body), headers
        )
        self.session.commit()
        return JSONResponse(body, status_code=response.status_code, headers=headers)

    def _serialize(self, result: Any) -> Response:
        """What FastAPI would have answered for `result`: the route's model and status."""
        route = self.request.scope.get("route")
        content = jsonable_encoder(result)
        if isinstance(route, APIRoute) and route.response_field is not None:
            value, errors = route.response_field.validate(result, {}, loc=("response",))
            if not errors:
                content = route.response_field.serialize(
                    value,
                    by_alias=route.response_model_by_alias,
                    exclude_unset=route.response_model_exclude_unset,
                    exclude_defaults=route.response_model_exclude_defaults,
                    exclude_none=route.response_model_exclude_none,
                )
        status = self.sub_response.status_code or getattr(route, "status_code", None) or 200
        return JSONResponse(content, status_code=status)

    def _request_shape(self, form: Any) -> dict[str, Any]:
        route = self.request.scope.get("route")
        shape: dict[str, Any] = {
            "method": self.request.method,
            "route": getattr(route, "path_format", self.request.url.path),
            "path": dict(self.request.path_params),
            "arguments": {
                name: _canonical(value)
                for name, value in sorted(self.arguments.items())
                if _fingerprinted(value)
            },
        }
        if self.by_caller:
            # `key:<id>`, noted by the authentication (app/api/deps.py `get_caller`).
            shape["caller"] = getattr(self.request.state, "actor", None)
        if form is not None:
            shape["form"] = sorted([name, _canonical(value)] for name, value in form.multi_items())
        return shape

    def _body_alone(self) -> tuple[str, ...]:
        """The fingerprint `POST /v1/evaluations` stored before keys covered every route: its
        JSON body alone. Keys kept from then still replay (until they expire, a day later); never
        on a route whose answer is its caller's, whom a body alone does not name."""
        if self.by_caller:
            return ()
        bodies = [value for value in self.arguments.values() if isinstance(value, BaseModel)]
        if len(bodies) != 1:
            return ()
        return (idempotency.fingerprint(bodies[0].model_dump(mode="json")),)

    def _seal(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            name: crypto.encrypt(self.settings, value).decode()
            if name in self.sealed and isinstance(value, str)
            else value
            for name, value in body.items()
        }

    def _unseal(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            name: crypto.decrypt(self.settings, value.encode())
            if name in self.sealed and isinstance(value, str)
            else value
            for name, value in body.items()
        }


def _take(arguments: dict[str, Any], name: str, mine: str) -> Any:
    """The wrapper's own argument (removed) or the endpoint's of that type (left in place)."""
    return arguments.pop(name) if name == mine else arguments[name]


def _fingerprinted(value: Any) -> bool:
    """Whether an endpoint argument is part of the request (body, form, path, query)."""
    if isinstance(value, list | tuple):
        return all(_fingerprinted(item) for item in value)
    return value is None or isinstance(
        value, BaseModel | StarletteUpload | str | int | float | bool
    )


def _canonical(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, StarletteUpload | UploadFile):
        return {"filename": value.filename, "sha256": _digest(value)}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    return value


def _digest(upload: StarletteUpload) -> str:
    """SHA-256 of an uploaded file's bytes, read from its spooled file and rewound."""
    digest = hashlib.sha256()
    upload.file.seek(0)
    for chunk in iter(lambda: upload.file.read(1 << 20), b""):
        digest.update(chunk)
    upload.file.seek(0)
    return digest.hexdigest()
