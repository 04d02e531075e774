"""The keywords of an eval's `item_schema` that jsonschema runs too slowly or unsafely, redone.

`pattern` and `patternProperties` run on RE2 (linear time) instead of Python's backtracking `re`;
`uniqueItems` and `enum` compare canonical forms in a set instead of pairwise; `properties` and
`dependent*` walk the smaller of the schema's names and the item's keys; and every keyword
applied, reference followed and regex searched counts against the budget of the run whose items
are being checked (`STEPS`), so that no schema makes a check cost more than time linear in the
items.
"""

import reprlib
from collections.abc import Hashable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

import re2
from jsonschema import Draft202012Validator, ValidationError, validators

# A schema whose references fan out (allOf of two refs to a def that does the same, 30 deep)
# asks for 2^30 checks of one item: refuse an item once its check has followed this many.
MAX_REFERENCE_STEPS = 20_000
# Nested allOf / unevaluatedProperties check the same value again at every level (about 2.6
# times more work per level: 18 levels took 281 s of CPU on an empty object), with no reference
# to count: every keyword applied counts too, against a floor plus a share per value in a run's
# items (about 5 us each), so that checking a run's items costs time linear in their size.
MIN_KEYWORD_STEPS = 100_000
KEYWORD_STEPS_PER_VALUE = 50

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False  # a refused pattern is the client's 400, not a line on stderr
# RE2 bounds each compiled pattern's memory (program and DFA cache; past it a search falls back
# to its NFA, still linear) to max_mem, 8 MiB by default: the cache of compiled patterns below
# holds at most 64 of them, and most take a few KiB.
_short = reprlib.Repr()
_short.maxstring = 80
_short.maxother = 80
# [references followed by this item, keywords applied by the run so far, keywords allowed].
STEPS: ContextVar[list[int]] = ContextVar("item_schema_steps")
# The references being followed now, each as (the schema holding it, the value it applies to)
# by identity (references resolve to the document's very objects): one met again while it is
# followed is a loop that never descends into the item.
FOLLOWING: ContextVar[set[tuple[int, int]]] = ContextVar("item_schema_following")
LOOP = "item_schema refers to itself without descending into the item"

REFERENCES = ("$ref", "$dynamicRef")


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


def shortened(value: Any) -> str:
    """`value`'s repr, cut to about 80 characters: error messages name values, not copy them."""
    return _short.repr(value)


def _search(pattern: str, text: str) -> bool:
    # Patterns times keys: 10,000 patternProperties against 10,000 keys is 10^8 searches.
    _charge()
    try:
        return _regex(pattern).search(text) is not None
    except re2.error as exc:
        raise SchemaRefused(f"item_schema pattern {pattern!r} cannot run on RE2") from exc


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
    for keyword in REFERENCES:
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
    steps = STEPS.get(None)
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
    steps = STEPS.get(None)
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
        following = FOLLOWING.get(None)
        if following is None:
            yield from follow(validator, value, instance, schema)
            return
        # Found here, not by running into Python's recursion limit: that limit may be met
        # inside a Rust extension (rpds, under `referencing`), which panics instead of raising.
        place = (id(schema), id(instance))
        if place in following:
            raise SchemaRefused(LOOP)
        following.add(place)
        try:
            yield from follow(validator, value, instance, schema)
        finally:
            following.discard(place)

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
