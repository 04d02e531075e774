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
import reprlib
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

import re2
from jsonschema import Draft202012Validator, ValidationError, validators
from jsonschema.exceptions import SchemaError
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource, Unresolvable
from referencing.jsonschema import DRAFT202012

from app.problems import bad_request

FIELD: list[str | int] = ["data_source_config", "item_schema"]
# A schema whose references fan out (allOf of two refs to a def that does the same, 30 deep)
# asks for 2^30 checks of one item: refuse an item once its check has followed this many.
MAX_REFERENCE_STEPS = 20_000
# Nested allOf / unevaluatedProperties check the same value again at every level (about 2.6
# times more work per level: 18 levels took 281 s of CPU on an empty object), with no reference
# to count: every keyword applied counts too, against a floor plus a share per value in a run's
# items (about 5 us each), so that checking a run's items costs time linear in their size.
MIN_KEYWORD_STEPS = 100_000
KEYWORD_STEPS_PER_VALUE = 50
# jsonschema checks a schema against the metaschema at about 70 us per JSON value in it (a
# 64 MiB body would hold the request for minutes): bigger schemas are refused, and the verdict
# on a schema is cached, since every run of an eval checks it again.
MAX_SCHEMA_VALUES = 50_000

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a refused pattern is the client's 400, not a line on stderr
# RE2 bounds each compiled pattern's memory (program and DFA cache; past it a search falls back
# to its NFA, still linear) to max_mem, 8 MiB by default: the cache of compiled patterns below
# holds at most 64 of them, and most take a few KiB.
_short = reprlib.Repr()
_short.maxstring = 80
_short.maxother = 80
# [references followed, keywords applied, keywords allowed] for the item being checked.
_steps: ContextVar[list[int]] = ContextVar("item_schema_steps")

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
_REFERENCES = ("$ref", "$dynamicRef")


class SchemaRefused(Exception):
    """item_schema cannot be applied to an item: a reference outside it or in a loop, too many
    references followed, or a pattern RE2 cannot run (in an eval stored before these checks)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@lru_cache(maxsize=64)
def _regex(pattern: str) -> Any:
    return re2.compile(pattern, _OPTIONS)


def regex_problem(pattern: str) -> str | None:
    """Why RE2 cannot run `pattern`, or None when it can."""
    try:
        _regex(pattern)
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "invalid"
        return reason.decode(errors="replace") if isinstance(reason, bytes) else str(reason)
    return None


def _search(pattern: str, text: str) -> bool:
    # Patterns times keys: 10,000 patternProperties against 10,000 keys is 10^8 searches.
    _charge()
    try:
        return _regex(pattern).search(text) is not None
    except re2.error as exc:
        raise SchemaRefused(f"item_schema pattern {pattern!r} cannot run on RE2") from exc


def _refuse_retrieval(uri: str) -> Resource[Any]:
    raise NoSuchResource(ref=uri)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{_short.repr(instance)} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: dict[str, Any], instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key
        for key in instance
        if key not in properties and not any(_search(p, key) for p in patterns)
    ]


def _additional_properties(
    validator: Any, additional: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    extras = _additional(instance, schema)
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif not additional and extras:
        names = ", ".join(_short.repr(extra) for extra in sorted(extras))
        yield ValidationError(f"Additional properties are not allowed ({names} unexpected)")


def _present(keyed: dict[str, Any], instance: dict[str, Any]) -> list[str]:
    """The names both in a keyword's object and in `instance`, walking the smaller of the two:
    jsonschema walks the schema's, so 100,000 properties cost every row of a run 100,000 steps."""
    if len(instance) < len(keyed):
        return [name for name in instance if name in keyed]
    return [name for name in keyed if name in instance]


def _properties(validator: Any, properties: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "object"):
        for name in _present(properties, instance):
            yield from validator.descend(
                instance[name], properties[name], path=name, schema_path=name
            )


def _dependent_required(
    validator: Any, dependencies: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if validator.is_type(instance, "object"):
        for name in _present(dependencies, instance):
            for each in dependencies[name]:
                if each not in instance:
                    yield ValidationError(f"{each!r} is a dependency of {name!r}")


def _dependent_schemas(
    validator: Any, dependencies: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if validator.is_type(instance, "object"):
        for name in _present(dependencies, instance):
            yield from validator.descend(instance, dependencies[name], schema_path=name)


def _is_valid(errors: Iterator[Any]) -> bool:
    return next(errors, None) is None


def _evaluated_keys(validator: Any, instance: dict[str, Any], schema: Any) -> set[str]:
    """The keys of `instance` some keyword of `schema` evaluates (jsonschema's own walk, with
    patternProperties matched by RE2)."""
    if validator.is_type(schema, "boolean"):
        return set()
    keys: set[str] = set()
    for keyword in _REFERENCES:
        if (reference := schema.get(keyword)) is not None:
            _spend()
            resolved = validator._resolver.lookup(reference)
            inner = validator.evolve(schema=resolved.contents, _resolver=resolved.resolver)
            keys |= _evaluated_keys(inner, instance, resolved.contents)
    properties = schema.get("properties")
    if validator.is_type(properties, "object"):
        keys |= properties.keys() & instance.keys()
    for keyword in ("additionalProperties", "unevaluatedProperties"):
        if (subschema := schema.get(keyword)) is not None:
            valid = (_is_valid(validator.descend(value, subschema)) for value in instance.values())
            keys |= {key for key, ok in zip(instance, valid, strict=True) if ok}
    for pattern in schema.get("patternProperties", {}):
        keys |= {key for key in instance if _search(pattern, key)}
    for key, subschema in schema.get("dependentSchemas", {}).items():
        if key in instance:
            keys |= _evaluated_keys(validator, instance, subschema)
    for keyword in ("allOf", "oneOf", "anyOf"):
        for subschema in schema.get(keyword, []):
            if _is_valid(validator.descend(instance, subschema)):
                keys |= _evaluated_keys(validator, instance, subschema)
    if "if" in schema:
        if validator.evolve(schema=schema["if"]).is_valid(instance):
            keys |= _evaluated_keys(validator, instance, schema["if"])
            if "then" in schema:
                keys |= _evaluated_keys(validator, instance, schema["then"])
        elif "else" in schema:
            keys |= _evaluated_keys(validator, instance, schema["else"])
    return keys


def _unevaluated_properties(
    validator: Any, unevaluated: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    evaluated = _evaluated_keys(validator, instance, schema)
    refused = [
        key
        for key in instance
        if key not in evaluated
        and not _is_valid(validator.descend(instance[key], unevaluated, path=key, schema_path=key))
    ]
    if refused:
        names = ", ".join(_short.repr(key) for key in sorted(refused))
        if unevaluated is False:
            yield ValidationError(f"Unevaluated properties are not allowed ({names} unexpected)")
        else:
            yield ValidationError(
                f"Unevaluated properties are not valid under the given schema ({names} unexpected)"
            )


def _canonical(value: Any) -> Hashable:
    """A hashable stand-in for a JSON value, equal to another's exactly when JSON Schema calls
    the two values equal: 1 and 1.0 alike, true and 1 (false and 0) not, objects whatever the
    order of their keys, arrays element by element."""
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, list):
        return ("array", tuple(_canonical(each) for each in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, _canonical(each)) for key, each in value.items()))
    # Strings, numbers and null: Python's equality and hashing already agree with JSON Schema's
    # (hash(1) == hash(1.0)), and none of them equals a tagged tuple.
    return value


def _unique_items(validator: Any, unique: Any, instance: Any, schema: Any) -> Iterator[Any]:
    # jsonschema compares unhashable elements pairwise (3,000 objects: 15 s of CPU); one set of
    # canonical forms is linear in the item's size.
    if (
        unique
        and validator.is_type(instance, "array")
        and len({_canonical(each) for each in instance}) < len(instance)
    ):
        yield ValidationError(f"{_short.repr(instance)} has non-unique elements")


# The canonical forms of recent `enum` arrays, by identity, so that each row of a run looks its
# item up in a set instead of comparing it with every member (rows times members).
_enum_members: dict[int, tuple[list[Any], frozenset[Hashable]]] = {}


def _members(enums: list[Any]) -> frozenset[Hashable]:
    entry = _enum_members.get(id(enums))
    if entry is None or entry[0] is not enums:
        if len(_enum_members) >= 64:
            _enum_members.clear()
        entry = (enums, frozenset(_canonical(each) for each in enums))
        _enum_members[id(enums)] = entry
    return entry[1]


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if _canonical(instance) not in _members(enums):
        yield ValidationError(f"{_short.repr(instance)} is not one of {_short.repr(enums)}")


def _spend() -> None:
    steps = _steps.get(None)
    if steps is None:
        return
    steps[0] += 1
    if steps[0] > MAX_REFERENCE_STEPS:
        raise SchemaRefused(
            f"checking one item against item_schema followed more than {MAX_REFERENCE_STEPS} "
            "references; simplify the schema's $ref / allOf fan-out"
        )


def _charge() -> None:
    """Count one keyword applied (or one regex search) against the run's budget."""
    steps = _steps.get(None)
    if steps is None:
        return
    steps[1] += 1
    if steps[1] > steps[2]:
        raise SchemaRefused(
            "checking the items up to this one against item_schema applied more than "
            f"{steps[2]} keywords ({KEYWORD_STEPS_PER_VALUE} per JSON value they hold); "
            "simplify the schema's nesting (allOf, anyOf, oneOf, unevaluatedProperties, "
            "unevaluatedItems inside one another) or its number of patternProperties"
        )


def _metered(apply: Any) -> Any:
    def keyword(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        _charge()
        yield from apply(validator, value, instance, schema)

    return keyword


def _counted(keyword: str) -> Any:
    follow = Draft202012Validator.VALIDATORS[keyword]

    def reference(validator: Any, value: Any, instance: Any, schema: Any) -> Iterator[Any]:
        _spend()
        yield from follow(validator, value, instance, schema)

    return reference


_KEYWORDS = {
    **Draft202012Validator.VALIDATORS,
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
    "unevaluatedProperties": _unevaluated_properties,
    "uniqueItems": _unique_items,
    "enum": _enum,
    "properties": _properties,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "$ref": _counted("$ref"),
    "$dynamicRef": _counted("$dynamicRef"),
}
ItemValidator = validators.extend(
    Draft202012Validator,
    {keyword: _metered(apply) for keyword, apply in _KEYWORDS.items()},
)


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
        return f"{_kind(target)} ({_short.repr(target)}), not a schema (an object or a boolean)"
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
        for keyword in _REFERENCES:
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
    token = _steps.set(steps)
    try:
        return next(iter(checker.validator.iter_errors(item)), None)
    except Unresolvable as exc:
        raise SchemaRefused(
            "item_schema refers to something outside it; Loupe never fetches schemas"
        ) from exc
    except RecursionError as exc:
        raise SchemaRefused(
            "item_schema refers to itself without descending into the item"
        ) from exc
    except SchemaRefused:
        raise
    except Exception as exc:
        # A schema stored before Loupe checked what its references reach can still break
        # jsonschema (a $ref to a number: TypeError); that is the schema's fault, a 400.
        raise SchemaRefused(
            f"item_schema cannot be applied to this item ({type(exc).__name__}: "
            f"{_short.repr(str(exc))}); create a new eval with a valid schema"
        ) from exc
    finally:
        checker.applied = steps[1]
        _steps.reset(token)
