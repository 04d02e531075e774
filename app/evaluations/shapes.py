"""A test case's shape: one input and its output, or a conversation (`turns`), never a mix;
which shape a metric judges; and what is left to check of a case whose schema failed."""

from collections.abc import Mapping
from typing import Any

from app.api.salvage import salvage
from app.evaluations.case_schemas import (
    CONVERSATION_FIELDS,
    SINGLE_TURN_FIELDS,
    TestCaseCreate,
    Turn,
)
from app.metrics import MetricSpecBase

# (path under the case, message, type): one field error.
Problem = tuple[list[str | int], str, str]


def salvage_case(raw: Mapping[str, Any]) -> tuple[TestCaseCreate, frozenset[str]]:
    """A case whose schema failed, as far as its fields pass, and the fields refused.

    Turns refused as a list are kept turn by turn (each as far as its own fields pass): the
    case is still a conversation, and its other turns and fields are still checked. A field
    refused in some turn is named `turns.<field>` among the refused (a metric's checks of
    that field leave it to the schema's error)."""
    case, refused = salvage(TestCaseCreate, raw)
    turns = raw.get("turns")
    if "turns" in refused and isinstance(turns, list) and turns:
        salvaged = [salvage(Turn, turn) if isinstance(turn, Mapping) else None for turn in turns]
        kept = [found[0] if found is not None else None for found in salvaged]
        case = case.model_copy(update={"turns": kept})
        in_turns = {f"turns.{name}" for found in salvaged if found is not None for name in found[1]}
        refused = (refused - {"turns"}) | in_turns
    return case, refused


def whole_turns(case: TestCaseCreate) -> bool:
    """Whether every turn of a (salvaged) case was read with its role: what a metric's own
    checks of the turns need."""
    return all(
        isinstance(turn, Turn) and getattr(turn, "role", None) is not None
        for turn in case.turns or ()
    )


def problems(case: TestCaseCreate, refused: frozenset[str] = frozenset()) -> list[Problem]:
    """What mixes the two shapes in `case`; fields in `refused` (the schema's to name) are
    left alone, as is a turn whose role the schema refused."""
    found: list[Problem] = []
    if case.turns is None:
        if case.input is None and "input" not in refused:
            found.append(
                (
                    ["input"],
                    "a test case needs input (one request and its answer) or turns "
                    "(a conversation)",
                    "missing",
                )
            )
        for name in CONVERSATION_FIELDS[1:]:
            if getattr(case, name) is not None:
                found.append(
                    (
                        [name],
                        f"{name} is about a conversation: give the case turns, or leave it out",
                        "conversation_field",
                    )
                )
        return found
    for name in SINGLE_TURN_FIELDS:
        if getattr(case, name) is not None:
            found.append(
                (
                    [name],
                    f"a conversation (a case with turns) has no {name} of its own: put it in "
                    "its turns (an assistant turn's content, tools_called or "
                    "retrieval_context)",
                    "single_turn_field",
                )
            )
    for number, turn in enumerate(case.turns):
        if getattr(turn, "role", None) != "user":
            continue
        for name in ("tools_called", "retrieval_context"):
            if getattr(turn, name, None) is not None:
                found.append(
                    (
                        ["turns", number, name],
                        f"only an assistant turn has {name}",
                        "user_turn_field",
                    )
                )
    return found


def fits(spec: MetricSpecBase, case: TestCaseCreate) -> tuple[str, str] | None:
    """(field, message) when the metric does not judge cases of this case's shape."""
    if spec.shape == "conversation" and case.turns is None:
        return "turns", "judges conversations: give this case turns"
    if spec.shape == "single" and case.turns is not None:
        return "turns", (
            "judges one input and its output, and this case is a conversation; use a "
            "conversational metric (turn_relevancy, conversational_g_eval, ...) or a "
            "single-turn case"
        )
    return None
