"""tool_correctness: the tool calls made against the calls expected, without a judge.

The calls made are a single-turn case's `tools_called`, or a conversation's assistant turns'
`tools_called` in turn order. A made call matches an expected one when the names are equal and,
per the options, the arguments (`exact`: equal; `subset`: each expected argument present with
a value containing the expected one, nested objects compared the same way, lists item by item)
and the output (`check_output`) are too. Values compare as JSON: 1 equals 1.0,
`true` never equals 1.

Score, with E calls expected, M made and k matched:
- default: k / E, k the largest one-to-one matching, so each made call answers at most one
  expected call (two identical expected calls need two made ones: deepeval's value-equality set
  scored two against two 0.5, #3141);
- `consider_ordering`: k is the longest common subsequence of matching calls;
- `exact_match`: 1 when M = E and the i-th call matches the i-th expected call for every i;
- `penalize_extra_calls`: the divisor is max(E, M), so unexpected calls lower the score (off by
  default, as in deepeval, where expected [a] against made [a, b, c] scores 1).
Nothing expected and nothing made: 1. Nothing expected but calls made: 0 with or without
`penalize_extra_calls`, as in deepeval: an empty `expected_tools` is how a case says "call
nothing" (k / E is otherwise 0 / 0).
"""

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

from pydantic import Field

from app.metrics import _conversation as conversation
from app.metrics._types import (
    MetricContext,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    Shape,
    TestCaseField,
)

ArgumentsMode = Literal["ignore", "exact", "subset"]
# Calls each list of the reason names before "and N more" (logs hold them all).
_SHOWN = 10


class ToolCorrectnessSpec(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("expected_tools",)
    shape: ClassVar[Shape] = "either"

    type: Literal["tool_correctness"]
    arguments: ArgumentsMode = Field(
        default="ignore",
        description="`ignore`: names only; `exact`: input_parameters equal too; `subset`: "
        "every expected argument present with an equal value, extra arguments allowed at any "
        "depth (a nested object may hold more keys; lists match item by item, same length).",
    )
    check_output: bool = Field(
        default=False,
        strict=True,
        description="A call matches only when its output equals the expected one.",
    )
    consider_ordering: bool = Field(
        default=False,
        strict=True,
        description="Count only calls made in the expected order (the longest common "
        "subsequence of matching calls); the others are listed as out of order.",
    )
    exact_match: bool = Field(
        default=False,
        strict=True,
        description="1 only when the calls match the expected ones position by position, "
        "same length; else 0 (ordering is then considered).",
    )
    penalize_extra_calls: bool = Field(
        default=False,
        strict=True,
        description="Divide by max(expected, made) instead of expected, so calls nobody "
        "expected lower the score (deepeval never penalises them).",
    )


def same_value(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value, booleans only with booleans, dicts and lists deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[key], b[key]) for key in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def contains(wanted: Any, given: Any) -> bool:
    """`subset` equality: every key of an expected object is present in the made one with a
    value that contains the expected value, at any depth (a filter object with one more key
    still matches); lists have the same length and contain item by item; anything else is
    `same_value`."""
    if isinstance(wanted, dict) and isinstance(given, dict):
        return all(key in given and contains(value, given[key]) for key, value in wanted.items())
    if isinstance(wanted, list) and isinstance(given, list):
        return len(wanted) == len(given) and all(
            contains(x, y) for x, y in zip(wanted, given, strict=True)
        )
    return same_value(wanted, given)


def _arguments(call: Mapping[str, Any]) -> dict[str, Any]:
    return call.get("input_parameters") or {}


def matches(
    spec: ToolCorrectnessSpec, expected: Mapping[str, Any], made: Mapping[str, Any]
) -> bool:
    """True when the made call answers the expected one under the spec's options."""
    if expected.get("name") != made.get("name"):
        return False
    wanted, given = _arguments(expected), _arguments(made)
    if spec.arguments == "exact" and not same_value(wanted, given):
        return False
    if spec.arguments == "subset" and not contains(wanted, given):
        return False
    return not spec.check_output or same_value(expected.get("output"), made.get("output"))


def _edges(spec: ToolCorrectnessSpec, expected: list[dict], made: list[dict]) -> list[list[int]]:
    """For each expected call, the made calls (indices, in order) that match it."""
    names = {call.get("name") for call in expected}
    # A made call whose name nobody expects matches nothing: skip it before comparing arguments.
    candidates = [j for j, call in enumerate(made) if call.get("name") in names]
    return [[j for j in candidates if matches(spec, want, made[j])] for want in expected]


def _in_order(edges: list[list[int]]) -> dict[int, int]:
    """The longest common subsequence of matching calls, as expected index -> made index."""
    rows = len(edges)
    linked = [set(row) for row in edges]
    columns = sorted(set().union(*linked)) if linked else []
    # best[i][c]: the longest subsequence of expected[i:] and the candidate columns[c:].
    best = [[0] * (len(columns) + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for c in range(len(columns) - 1, -1, -1):
            if columns[c] in linked[i]:
                row[c] = below[c + 1] + 1
            else:
                row[c] = max(below[c], row[c + 1])
    pairs: dict[int, int] = {}
    i = c = 0
    while i < rows and c < len(columns):
        if columns[c] in linked[i]:
            pairs[i] = columns[c]
            i, c = i + 1, c + 1
        elif best[i + 1][c] >= best[i][c + 1]:
            i += 1
        else:
            c += 1
    return pairs


def _one_to_one(edges: list[list[int]], fixed: dict[int, int]) -> dict[int, int]:
    """The largest matching of the expected calls `fixed` leaves unmatched to made calls it
    leaves unused (augmenting paths), as expected index -> made index."""
    used = set(fixed.values())
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        for j in edges[i]:
            if j in used or j in seen:
                continue
            seen.add(j)
            if j not in owner or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(edges)):
        if i not in fixed:
            augment(i, set())
    return {i: j for j, i in owner.items()}


def _listed(items: list[str]) -> str:
    shown = "; ".join(items[:_SHOWN])
    return shown + (f"; and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def _calls(count: int, what: str = "tool call") -> str:
    """ "1 tool call", "2 tool calls"."""
    return f"{count} {what}" + ("" if count == 1 else "s")


def _was(count: int) -> str:
    return "was" if count == 1 else "were"


def _summary(spec: ToolCorrectnessSpec, expected: int, made: int, matched: int) -> str:
    """The reason's first sentence, in the words its counts call for."""
    if not expected:
        if not made:
            return "No tool call was expected and none was made"
        return f"No tool call was expected but {made} {_was(made)} made"
    if spec.exact_match:
        if made == expected and matched == expected:
            verb, ones = ("matches", "one") if made == 1 else ("match", "ones")
            return f"The {_calls(made)} made {verb} the expected {ones} position by position"
        return (
            "The tool calls do not match the expected ones position by position "
            f"({made} made, {expected} expected, {matched} in order)"
        )
    ordered = " in order" if spec.consider_ordering else ""
    if expected == 1:
        said = f"The expected tool call was {'' if matched else 'not '}made{ordered}"
    else:
        said = f"{matched} of {expected} expected tool calls {_was(matched)} made{ordered}"
    return said + (f", out of {_calls(made)} made" if spec.penalize_extra_calls else "")


def _compared(spec: ToolCorrectnessSpec) -> str:
    what = {"ignore": "names", "exact": "names and arguments", "subset": "names and arguments"}
    words = what[spec.arguments]
    if spec.arguments == "subset":
        words += " (expected arguments a subset)"
    if spec.check_output:
        words += ", outputs"
    return words + " compared"


async def measure(
    spec: ToolCorrectnessSpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """The share of expected tool calls made (per the options); logs list the missing, extra
    and out-of-order calls, and for a conversation pin each made call to its turn."""
    expected = list(case.expected_tools or [])
    made_with_turns = conversation.tool_calls(case)
    made = [call for _, call in made_with_turns]
    ordered = spec.consider_ordering or spec.exact_match
    edges = _edges(spec, expected, made)
    in_order = _in_order(edges) if ordered else {}
    others = _one_to_one(edges, in_order)
    answered = {j: i for i, j in (in_order | others).items()}

    def where(j: int) -> str:
        turn = made_with_turns[j][0]
        text = f"call {j + 1}, {conversation.tool_call_text(made[j])}"
        return f"turn {turn}: {text}" if turn is not None else text

    missing = [i for i in range(len(expected)) if i not in in_order and i not in others]
    extra = [j for j in range(len(made)) if j not in answered]
    late = sorted(others.values()) if ordered else []
    logs: dict[str, Any] = {
        "expected_count": len(expected),
        "made_count": len(made),
        "missing": [
            {
                "expected": i + 1,
                "name": expected[i].get("name"),
                "text": conversation.tool_call_text(expected[i]),
            }
            for i in missing
        ],
        "extra": [
            {
                "call": j + 1,
                "turn": made_with_turns[j][0],
                "name": made[j].get("name"),
                "text": conversation.tool_call_text(made[j]),
            }
            for j in extra
        ],
    }
    if ordered:
        logs["out_of_order"] = [
            {
                "call": j + 1,
                "turn": made_with_turns[j][0],
                "expected": answered[j] + 1,
                "name": made[j].get("name"),
                "text": conversation.tool_call_text(made[j]),
            }
            for j in late
        ]
    if case.turns is not None:
        logs["turns"] = [
            conversation.pin(
                turn,
                "extra" if j not in answered else "out_of_order" if j in late else "expected",
                f"call {j + 1}, {conversation.tool_call_text(call)}"
                + (f" (expected call {answered[j] + 1})" if j in answered else ""),
                call=j + 1,
                expected=answered[j] + 1 if j in answered else None,
            )
            for j, (turn, call) in enumerate(made_with_turns)
        ]

    matched = len(in_order) if ordered else len(others)
    if not expected:
        score = 0.0 if made else 1.0
    elif spec.exact_match:
        score = float(len(made) == len(expected) and matched == len(expected))
    else:
        divisor = max(len(expected), len(made)) if spec.penalize_extra_calls else len(expected)
        score = matched / divisor
    summary = _summary(spec, len(expected), len(made), matched)
    sentences = [f"{summary} ({_compared(spec)})."]
    if missing:
        named = [
            f"expected call {i + 1}, {conversation.tool_call_text(expected[i])}" for i in missing
        ]
        sentences.append(f"Missing: {_listed(named)}.")
    if late:
        named = [f"{where(j)} (expected call {answered[j] + 1})" for j in late]
        sentences.append(f"Out of order: {_listed(named)}.")
    if extra:
        tail = (
            ""
            if spec.penalize_extra_calls or spec.exact_match or not expected
            else " (not penalised: penalize_extra_calls is off)"
        )
        sentences.append(f"Not expected{tail}: {_listed([where(j) for j in extra])}.")
    return MetricResult.scored(score, spec.threshold, " ".join(sentences), logs)
