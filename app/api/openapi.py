"""What the generated OpenAPI document adds to FastAPI's: links, request examples and the
problems every /v1 route can answer.

Links (OpenAPI 3 `links`) say which operations take the `id` a response returns: a create's id
goes to the operations under `<collection>/{id}`, a list's first item to its read. Clients and
stateful fuzzers (tests/test_schemathesis.py) follow them, which is how an operation that needs
an existing id is reached with one. Request examples are bodies the API accepts as they stand
(Swagger UI's "Example Value", the fuzzer's first cases); URLs in them are on loopback, where a
self-hosted model or receiver listens. Problems that come from the app rather than a route (an
unknown query parameter, a missing key, a body that is not JSON) are documented on every route
they apply to, so a response's status is always one its operation lists.
"""

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI

from app.api.deps import route_scopes
from app.tenants.scopes import SCOPE_EXTENSION

_PARAM = re.compile(r"^\{([^}]+)\}$")
_METHODS = ("get", "put", "post", "delete", "patch")

_SKY_ROW = {
    "messages": [{"role": "user", "content": "What colour is a clear sky?"}],
    "answer": "Blue",
}


@dataclass(frozen=True)
class BodyLink:
    """A link a path cannot imply: from `source`'s `status` response to `target`, with the
    request body to send (`$response.body#/...` expressions take values from the response)."""

    source: str
    status: str
    target: str
    body: dict[str, Any]


@dataclass(frozen=True)
class ParamLink:
    """A link a path cannot imply, filling the target's path parameters: from `source`'s
    `status` response to `target`, each parameter an expression (`$response.body#/id`,
    `$request.path.<name>`)."""

    source: str
    status: str
    target: str
    parameters: dict[str, str]


@dataclass(frozen=True)
class Extras:
    """What a part of the API adds to its operations' documentation (each kind brings its own
    from its folder, through the registry in app/kinds.py).

    `enums`: the values of fields and parameters typed `str` in code whose choices are known
    only at start-up (the registered kinds), by `schemas/<Schema>/<field>` or
    `<operationId>/<parameter>`. `examples`: operationId -> a request body it accepts as it
    stands (multipart: the form's fields). `links`: links a path cannot imply.
    """

    enums: Mapping[str, list[str]] = field(default_factory=dict)
    examples: Mapping[str, Any] = field(default_factory=dict)
    links: Sequence[BodyLink | ParamLink] = ()


# The operations no kind owns.
COMMON = Extras(
    examples={
        "create_webhook_endpoint": {
            "url": "http://127.0.0.1:8002/loupe-events",
            "description": "CI notifications",
        },
        "create_model": {
            "name": "local-vlm",
            "base_url": "http://127.0.0.1:8001/v1",
            "model": "qwen2.5-vl-7b-instruct",
        },
        "create_dataset": {
            "file": json.dumps(_SKY_ROW) + "\n",
            "format": "general_vqa",
            "name": "sky",
        },
        "create_file": {
            "purpose": "evals",
            "file": json.dumps({"item": {"question": "Capital of France?", "answer": "Paris"}})
            + "\n",
        },
    },
    links=[
        BodyLink(
            "create_evaluation",
            "202",
            "create_comparison",
            {"baseline_id": "$response.body#/id", "candidate_id": "$response.body#/id"},
        ),
        # A version's agreement is read below the version, deeper than a list links.
        ParamLink(
            "list_metric_versions",
            "200",
            "get_metric_version_agreement",
            {"version_id": "$response.body#/data/0/id"},
        ),
        # A claimed item is labelled or given back under its queue.
        *(
            ParamLink(
                "claim_review_item",
                "200",
                target,
                {"queue_id": "$request.path.queue_id", "item_id": "$response.body#/id"},
            )
            for target in ("label_review_item", "release_review_item")
        ),
        # Only a finished evaluation can be compared: a listed one has had time to finish.
        BodyLink(
            "list_evaluations",
            "200",
            "create_comparison",
            {
                "baseline_id": "$response.body#/data/0/id",
                "candidate_id": "$response.body#/data/0/id",
            },
        ),
    ],
)

# Status -> what app-wide machinery answers it with, on /v1 routes: app.api.query (unknown query
# parameters, every router main.py includes), the tenant key (and its throttle on guessing: 429),
# JSON body parsing, and the database or Redis away (503, with Retry-After).
_APP_WIDE = {
    "400": "Bad Request",
    "401": "Unauthorized",
    "415": "Unsupported Media Type",
    "429": "Too Many Requests",
    "503": "Service Unavailable",
}
_PROBLEM = {"schema": {"$ref": "#/components/schemas/Problem"}}

# What a POST's `Location` names (RFC 9110): the object it created, or where the work it
# accepted is followed.
_LOCATION = {
    "201": "The path of the created object: GET it to read it again.",
    "202": "The path where the accepted work is followed: GET it until it is done.",
}

# Multipart uploads: the file part's name, whose extension says its format.
UPLOAD_NAMES = {"create_dataset": "sky.jsonl", "create_file": "capitals.jsonl"}


def install(app: FastAPI, parts: Sequence[Extras] = ()) -> None:
    """Make `app.openapi()` return FastAPI's document with links and request examples: the
    common ones and what each of `parts` adds, and each authenticated route's `x-loupe-scope`."""
    build: Callable[[], dict[str, Any]] = app.openapi
    every = (COMMON, *parts)
    extras = Extras(
        enums={k: v for part in every for k, v in part.enums.items()},
        examples={k: v for part in every for k, v in part.examples.items()},
        links=[link for part in every for link in part.links],
    )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = _with_scopes(document(build(), extras), route_scopes(app))
            app.openapi_schema = _with_enums(spec, extras.enums)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def document(spec: dict[str, Any], extras: Extras = COMMON) -> dict[str, Any]:
    """`spec` with links from ids to the operations taking them, and request examples."""
    operations = _operations(spec)
    for (method, path), operation in operations.items():
        if method == "post":
            _link_created(path, operation, operations)
            _add_location(operation)
        elif method == "get":
            _link_listed(spec, path, operation, operations)
        _add_example(operation, extras.examples)
        if path.startswith("/v1/"):
            _add_app_wide_problems(operation)
    by_id = {op["operationId"]: op for op in operations.values()}
    for link in extras.links:
        links = by_id[link.source]["responses"][link.status].setdefault("links", {})
        if isinstance(link, ParamLink):
            links[link.target] = {"operationId": link.target, "parameters": link.parameters}
            continue
        name = f"{link.target}_example" if link.target in links else link.target
        # The body as given: a fuzzer adding generated fields to it would only be refused.
        links[name] = {
            "operationId": link.target,
            "requestBody": link.body,
            "x-schemathesis": {"merge_body": False},
        }
        parameters = links.get(link.target, {}).get("parameters")
        if parameters and name != link.target:
            links[name]["parameters"] = parameters
    return spec


def _with_scopes(spec: dict[str, Any], scopes: Mapping[tuple[str, str], str]) -> dict[str, Any]:
    """Each authenticated operation's scope (`x-loupe-scope`), and the 403 a key without it
    gets."""
    for (method, path), scope in scopes.items():
        operation = spec["paths"].get(path, {}).get(method)
        if operation is None:
            continue
        operation[SCOPE_EXTENSION] = scope
        operation["responses"].setdefault(
            "403",
            {"description": "Forbidden", "content": {"application/problem+json": _PROBLEM}},
        )
    return spec


def _with_enums(spec: dict[str, Any], enums: Mapping[str, list[str]]) -> dict[str, Any]:
    """`spec` with each named field's or parameter's `enum` set (KeyError for a name that is
    not there: a renamed schema must not silently lose its enum)."""
    by_id = {op["operationId"]: op for op in _operations(spec).values()}
    for where, values in enums.items():
        first, name, *rest = where.split("/")
        if first == "schemas":
            target = spec["components"]["schemas"][name]["properties"][rest[0]]
        else:
            params = by_id[first].get("parameters", [])
            target = next(p for p in params if p["name"] == name)["schema"]
        target["enum"] = list(values)
    return spec


def _operations(spec: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method, path): operation
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in _METHODS
    }


def _params(path: str) -> list[str]:
    return [match.group(1) for part in path.split("/") if (match := _PARAM.match(part))]


def _under(path: str, collection: str) -> str | None:
    """The one new path parameter of `path` right under `collection` (`/things/{thing_id}`,
    `/things/{thing_id}/parts`), or None."""
    if not path.startswith(collection + "/"):
        return None
    rest = path[len(collection) + 1 :].split("/")
    first = _PARAM.match(rest[0])
    if first is None or any(_PARAM.match(part) for part in rest[1:]):
        return None
    return first.group(1)


def _success(operation: dict[str, Any]) -> str | None:
    codes = sorted(code for code in operation.get("responses", {}) if code.startswith("2"))
    return codes[0] if codes else None


def _link(
    source_path: str,
    response: dict[str, Any],
    targets: list[tuple[str, dict[str, Any]]],
    new_param: Callable[[str], str],
) -> None:
    if not targets:
        return
    known = set(_params(source_path))
    links = response.setdefault("links", {})
    for target_path, target in targets:
        parameters = {}
        for name in _params(target_path):
            parameters[name] = f"$request.path.{name}" if name in known else new_param(name)
        links[target["operationId"]] = {
            "operationId": target["operationId"],
            "parameters": parameters,
        }


def _link_created(
    path: str,
    operation: dict[str, Any],
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    status = _success(operation)
    if status is None or "content" not in operation["responses"][status]:
        return
    targets = [
        (target_path, target)
        for (_, target_path), target in operations.items()
        if _under(target_path, path) is not None
    ]
    _link(path, operation["responses"][status], targets, lambda name: "$response.body#/id")


def _link_listed(
    spec: dict[str, Any],
    path: str,
    operation: dict[str, Any],
    operations: dict[tuple[str, str], dict[str, Any]],
) -> None:
    # A list's first item goes to the read of one (GET <list path>/{id}) and nothing else:
    # changing or deleting what a list shows is for links from a create.
    response = operation.get("responses", {}).get("200")
    if response is None or not _is_page(spec, response):
        return
    depth = path.count("/") + 1
    targets = [
        (item_path, target)
        for (method, item_path), target in operations.items()
        if method == "get" and item_path.count("/") == depth and _under(item_path, path)
    ]
    _link(path, response, targets, lambda name: "$response.body#/data/0/id")


def _is_page(spec: dict[str, Any], response: dict[str, Any]) -> bool:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    ref = schema.get("$ref", "")
    if not ref.startswith("#/components/schemas/"):
        return False
    component = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return "data" in component.get("properties", {})


def _add_example(operation: dict[str, Any], examples: Mapping[str, Any]) -> None:
    example = examples.get(operation.get("operationId", ""))
    body = operation.get("requestBody")
    if example is None or body is None:
        return
    for media_type, content in body["content"].items():
        # A named example (`examples`), not `example`: generated SDK code carries no copy of it.
        content["examples"] = {"accepted": {"summary": "Accepted as it stands", "value": example}}
        upload = UPLOAD_NAMES.get(operation["operationId"])
        if upload is not None and media_type == "multipart/form-data":
            content["encoding"] = {
                "file": {
                    "headers": {
                        "Content-Disposition": {
                            "schema": {"type": "string"},
                            "example": f'form-data; name="file"; filename="{upload}"',
                        }
                    },
                }
            }


def _add_location(operation: dict[str, Any]) -> None:
    """The `Location` header every POST's 201 and 202 carries (tests/api/test_created_location.py
    reads each 201's)."""
    for status, description in _LOCATION.items():
        response = operation.get("responses", {}).get(status)
        if response is not None:
            response.setdefault("headers", {})["Location"] = {
                "description": description,
                "required": True,
                "schema": {"type": "string"},
            }


def _add_app_wide_problems(operation: dict[str, Any]) -> None:
    responses = operation.setdefault("responses", {})
    takes_json = "application/json" in operation.get("requestBody", {}).get("content", {})
    for status, title in _APP_WIDE.items():
        if status in responses or (status == "415" and not takes_json):
            continue
        responses[status] = {
            "description": title,
            "content": {"application/json": _PROBLEM, "application/problem+json": _PROBLEM},
        }
