"""An eval's `item_schema`, checked and applied without fetching anything or backtracking.

jsonschema's defaults would fetch any remote `$ref` (http://, file://) with urllib, on create
and on every run, and run `pattern` with Python's backtracking `re`, where `^(a+)+$` against a
few dozen `a`s holds the process for minutes. Here references resolve inside the document only
(a registry whose retrieval refuses everything), every regex runs on RE2 (linear time; patterns
RE2 cannot compile, such as backreferences and lookarounds, are refused at create), and the
schema is validated as JSON Schema 2020-12 throughout: `$schema` is ignored, since a known
dialect URI would switch a subschema to jsonschema's stock validator with Python's `re`.
"""

import json
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from jsonschema.exceptions import SchemaError
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from app.evals._item_keywords import (
    FOLLOWING,
    KEYWORD_STEPS_PER_VALUE,
    LOOP,
    MIN_KEYWORD_STEPS,
    REFERENCES,
    STEPS,
    ItemValidator,
    SchemaRefused,
    regex_problem,
    shortened,
)
from app.problems import bad_request

__all__ = ["SchemaRefused", "check", "first_error", "refusal", "validator"]

FIELD: list[str | int] = ["data_source_config", "item_schema"]
# jsonschema checks a schema against the metaschema at about 70 us per JSON value in it (a
# 64 MiB body would hold the request for minutes): bigger schemas are refused, and the verdict
# on a schema is cached, since every run of an eval checks it again.
MAX_SCHEMA_VALUES = 50_000

# Keywords whose values are schemas (draft 2020-12, as `referencing` lists them).
_IN_VALUE = frozenset(
    {
        "additionalProperties",
        "contains",
        "contentSchema",
        "else",
        "if",
        "items",
        "not",
        "propertyNames",
        "then",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_IN_SUBARRAY = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_IN_SUBVALUES = frozenset(
    {"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
)


def _refuse_retrieval(uri: str) -> Resource[Any]:
    raise NoSuchResource(ref=uri)


def _without_dialect(node: Any) -> Any:
    """A copy of `node` without `$schema` anywhere: every subschema is read as 2020-12."""
    if isinstance(node, dict):
        return {key: _without_dialect(value) for key, value in node.items() if key != "$schema"}
    if isinstance(node, list):
        return [_without_dialect(value) for value in node]
    return node


def _subschemas(schema: dict[str, Any]) -> Iterator[tuple[list[str | int], Any]]:
    for keyword, value in schema.items():
        if keyword in _IN_VALUE:
            yield [keyword], value
        elif keyword in _IN_SUBARRAY and isinstance(value, list):
            yield from (([keyword, index], each) for index, each in enumerate(value))
        elif keyword in _IN_SUBVALUES and isinstance(value, dict):
            yield from (([keyword, name], each) for name, each in value.items())


def _places(schema: Any) -> dict[int, list[str | int]]:
    """Where each object and array inside `schema` sits, by identity (references resolve to
    the very objects of the document)."""
    places: dict[int, list[str | int]] = {}
    pending: list[tuple[list[str | int], Any]] = [([], schema)]
    while pending:
        path, node = pending.pop()
        if isinstance(node, dict):
            places[id(node)] = path
            pending.extend(([*path, key], each) for key, each in node.items())
        elif isinstance(node, list):
            places[id(node)] = path
            pending.extend(([*path, index], each) for index, each in enumerate(node))
    return places


def _schema_nodes(schema: Any) -> set[int]:
    """The identities of `schema` and of every subschema in it (not those its references reach)."""
    nodes: set[int] = set()
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict) and id(node) not in nodes:
            nodes.add(id(node))
            pending.extend(each for _, each in _subschemas(node))
    return nodes


def _kind(value: Any) -> str:
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "null" if value is None else "a number"


def _not_a_schema(target: Any) -> str | None:
    """Why a reference's target cannot be applied as a schema, or None."""
    if not isinstance(target, dict | bool):
        return f"{_kind(target)} ({shortened(target)}), not a schema (an object or a boolean)"
    try:
        ItemValidator.check_schema(target, format_checker=None)
    except SchemaError as exc:
        return f"not a valid JSON Schema ({exc.message})"
    return None


def _reference_problem(schema: Any) -> tuple[list[str | int], str] | None:
    """The first `$ref` / `$dynamicRef` that cannot be followed at run (its path, why): one that
    does not resolve inside `schema`, or whose target is not a valid schema. References are
    followed into their targets, wherever in the document they sit, as a run would."""
    registry: Registry[Any] = Registry(retrieve=_refuse_retrieval)  # type: ignore[call-arg]
    places = _places(schema)
    root = registry.resolver_with_root(DRAFT202012.create_resource(schema))
    # (path, node, resolver, whether the resolver is already the node's own: a reference's)
    pending: list[tuple[list[str | int], Any, Any, bool]] = [([], schema, root, False)]
    seen: set[int] = set()
    # Subschemas the root's check against the metaschema already covered.
    valid = _schema_nodes(schema)
    while pending:
        path, node, resolver, entered = pending.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        if not entered:
            resolver = resolver.in_subresource(DRAFT202012.create_resource(node))
        for keyword in REFERENCES:
            reference = node.get(keyword)
            if not isinstance(reference, str):
                continue
            try:
                resolved = resolver.lookup(reference)
            except Unresolvable:
                return [*path, keyword], (
                    f"item_schema refers to {reference!r}, which does not resolve inside "
                    "item_schema: Loupe never fetches schemas, so only in-document references "
                    "may be used ('#/$defs/...', or an $id / $anchor defined in item_schema)"
                )
            target = resolved.contents
            if id(target) not in valid:
                if (problem := _not_a_schema(target)) is not None:
                    return [*path, keyword], (
                        f"item_schema refers to {reference!r}, which is {problem}: a reference "
                        "must point at a schema"
                    )
                valid |= _schema_nodes(target)
            where = places.get(id(target), [*path, keyword])
            pending.append((where, target, resolved.resolver, True))
        pending.extend(([*path, *step], each, resolver, False) for step, each in _subschemas(node))
    return None


def _bad_pattern(node: Any, path: list[str | int]) -> tuple[list[str | int], str, str] | None:
    """The first regex RE2 cannot run, anywhere a `$ref` could make it a schema's pattern."""
    pending = [(path, node)]
    while pending:
        where, value = pending.pop()
        if isinstance(value, list):
            pending.extend(([*where, index], each) for index, each in enumerate(value))
            continue
        if not isinstance(value, dict):
            continue
        pattern = value.get("pattern")
        if isinstance(pattern, str) and (problem := regex_problem(pattern)) is not None:
            return [*where, "pattern"], pattern, problem
        patterns = value.get("patternProperties")
        if isinstance(patterns, dict):
            for key in patterns:
                if (problem := regex_problem(key)) is not None:
                    return [*where, "patternProperties", key], key, problem
        pending.extend(([*where, key], each) for key, each in value.items())
    return None


def refusal(schema: Any) -> tuple[list[str | int], str] | None:
    """Why Loupe will not apply `schema` (path inside it, message), or None."""
    if _values(schema, MAX_SCHEMA_VALUES + 1) > MAX_SCHEMA_VALUES:
        return [], (
            f"item_schema holds more than {MAX_SCHEMA_VALUES} JSON values (keywords, "
            "subschemas and their values); Loupe checks every one on create and on each run"
        )
    return _refusal(json.dumps(schema))


@lru_cache(maxsize=64)
def _refusal(text: str) -> tuple[list[str | int], str] | None:
    schema = json.loads(text)
    try:
        ItemValidator.check_schema(schema, format_checker=None)
    except SchemaError as exc:
        return list(exc.absolute_path), f"item_schema is not a valid JSON Schema: {exc.message}"
    if not isinstance(schema, dict):
        return None
    schema = _without_dialect(schema)
    reference = _reference_problem(schema)
    if reference is not None:
        return reference
    bad = _bad_pattern(schema, [])
    if bad is not None:
        path, pattern, problem = bad
        return path, (
            f"item_schema pattern {pattern!r} cannot run on RE2 ({problem}): Loupe matches "
            "patterns in linear time, which rules out backreferences and lookarounds"
        )
    return None


def check(schema: Any) -> None:
    """Refuse (400 naming the place inside item_schema) a schema Loupe will not apply."""
    refused = refusal(schema)
    if refused is not None:
        path, message = refused
        raise bad_request(message, [*FIELD, *path], "invalid_item_schema")


class ItemChecker:
    """A run's items checked against one schema, sharing one budget of keyword applications."""

    def __init__(self, schema: dict[str, Any]) -> None:
        registry: Registry[Any] = Registry(retrieve=_refuse_retrieval)  # type: ignore[call-arg]
        self.validator = ItemValidator(_without_dialect(schema), registry=registry)
        self.applied = 0
        self.allowed = MIN_KEYWORD_STEPS


def validator(schema: dict[str, Any]) -> ItemChecker:
    """A checker of items against `schema` that never fetches, never backtracks and spends at
    most time linear in the size of the items it is given."""
    return ItemChecker(schema)


def _values(item: Any, up_to: int | None = None) -> int:
    """How many JSON values `item` holds, itself included (counting stops at `up_to`)."""
    count, pending = 0, [item]
    while pending and count != up_to:
        value = pending.pop()
        count += 1
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return count


def first_error(checker: ItemChecker, item: Any) -> Any:
    """The item's first error against `checker`'s schema, or None; raises SchemaRefused when the
    schema cannot be applied (an unresolvable reference, too many references followed, any
    other failure of a broken schema)."""
    checker.allowed += KEYWORD_STEPS_PER_VALUE * _values(item)
    steps = [0, checker.applied, checker.allowed]
    token = STEPS.set(steps)
    following = FOLLOWING.set(set())
    try:
        return next(iter(checker.validator.iter_errors(item)), None)
    except Unresolvable as exc:
        raise SchemaRefused(
            "item_schema refers to something outside it; Loupe never fetches schemas"
        ) from exc
    except RecursionError as exc:
        raise SchemaRefused(LOOP) from exc
    except SchemaRefused:
        raise
    except Exception as exc:
        # A schema stored before Loupe checked what its references reach can still break
        # jsonschema (a $ref to a number: TypeError); that is the schema's fault, a 400.
        raise SchemaRefused(
            f"item_schema cannot be applied to this item ({type(exc).__name__}: "
            f"{shortened(str(exc))}); create a new eval with a valid schema"
        ) from exc
    finally:
        checker.applied = steps[1]
        STEPS.reset(token)
        FOLLOWING.reset(following)
