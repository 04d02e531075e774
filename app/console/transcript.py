"""A conversation as the console shows it: its turns (text, images, tool calls, retrieval
context), the verdicts each metric pinned to a turn (`logs["turns"]`, app/metrics/_conversation
`pin`), and the line the results list shows for it.

Pure functions of stored rows and results; no queries here. Turns are numbered from 1, as the
judges' reasons and the logs number them.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any

from app.console import views

# What a pinned verdict says, by the tone the page colours it in (yes: green, no: red).
_TONES = {
    "yes": "yes",
    "true": "yes",
    "pass": "yes",
    "passed": "yes",
    "correct": "yes",
    "no": "no",
    "false": "no",
    "fail": "no",
    "failed": "no",
    "incorrect": "no",
    "idk": "idk",
    # tool_correctness: a call made as expected, one nobody expected, one out of order.
    "expected": "yes",
    "extra": "no",
    "missing": "no",
    "out_of_order": "idk",
}
# The keys every pin has; the rest of a pin (a window, a score, a call) is shown beside it.
_PIN_KEYS = frozenset({"turn", "verdict", "reason"})


def is_conversation(case: Any) -> bool:
    """True for a stored test case that is a conversation (it has turns)."""
    return bool(getattr(case, "turns", None))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2, default=str)


def tool_call(call: Any) -> dict[str, Any]:
    """One tool call as the page folds it: its name, arguments and output as JSON text (the
    template escapes them), what it was for and why it was called."""
    if not isinstance(call, Mapping):
        return {"name": str(call), "arguments": None, "output": None}
    output = call.get("output")
    return {
        "name": str(call.get("name") or "(unnamed)"),
        "arguments": _json(call.get("input_parameters") or {}),
        "output": None if output is None else _json(output),
        "description": call.get("description"),
        "reasoning": call.get("reasoning"),
    }


def turns(case: Any) -> list[dict[str, Any]]:
    """A conversation's turns in order: number, role, content (as stored, images as blob
    references), tool calls and retrieval context."""
    shown = []
    for number, turn in enumerate(getattr(case, "turns", None) or [], start=1):
        turn = turn if isinstance(turn, Mapping) else {"role": "user", "content": turn}
        shown.append(
            {
                "number": number,
                "role": str(turn.get("role") or "user"),
                "content": turn.get("content"),
                "tools": [tool_call(call) for call in turn.get("tools_called") or []],
                "retrieval_context": list(turn.get("retrieval_context") or []),
                "metadata": turn.get("metadata"),
                "dropped": _dropped(turn.get("metadata")),
            }
        )
    return shown


def _dropped(metadata: Any) -> list[str]:
    """What an online conversation rule left out of the turn (app/online/images.py), in words:
    "Image 2 left out: <why>"; nothing for metadata of another shape."""
    found = metadata.get("images_dropped") if isinstance(metadata, Mapping) else None
    if not isinstance(found, list):
        return []
    return [
        f"Image {drop.get('image')} left out: {drop.get('reason')}"
        for drop in found
        if isinstance(drop, Mapping)
    ]


def tool_calls(calls: Any) -> list[dict[str, Any]]:
    """A case's own tool calls (a single-turn case's, or the expected ones), folded alike."""
    return [tool_call(call) for call in calls or []]


def _word(verdict: Any) -> str:
    if isinstance(verdict, bool):
        return "yes" if verdict else "no"
    if isinstance(verdict, int | float):
        return f"score {views.score(float(verdict))}"
    return "–" if verdict is None else str(verdict)


def _tone(verdict: Any, threshold: Any) -> str | None:
    """yes / no / idk for the verdict's colour; a per-turn score against the result's
    threshold; None when neither says."""
    if isinstance(verdict, bool):
        return "yes" if verdict else "no"
    if isinstance(verdict, int | float):
        if isinstance(threshold, int | float):
            return "yes" if verdict >= threshold else "no"
        return None
    return _TONES.get(str(verdict).lower())


def _extra(key: str, value: Any) -> dict[str, Any]:
    """Anything else a pin holds: a scalar inline, a list or an object folded as JSON."""
    words = key.replace("_", " ")
    if isinstance(value, bool):
        return {"key": words, "value": "yes" if value else "no", "folded": False}
    if isinstance(value, float):
        return {"key": words, "value": views.score(value), "folded": False}
    if isinstance(value, str | int):
        return {"key": words, "value": str(value), "folded": False}
    return {"key": words, "value": _json(value), "folded": True}


def _is_turn(number: Any) -> bool:
    return isinstance(number, int) and not isinstance(number, bool) and number > 0


def pin_view(pin: Mapping[str, Any], result: Any, anchor: str) -> dict[str, Any]:
    """A pinned verdict as the page shows it beside its turn: the metric (and the card it
    links to), the verdict in words with its tone, the reason, and anything else it holds."""
    verdict = pin.get("verdict")
    word = _word(verdict)
    return {
        "turn": pin.get("turn"),
        "metric": getattr(result, "metric", ""),
        "type": getattr(result, "type", ""),
        "anchor": anchor,
        "verdict": word.replace("_", " "),
        "tone": _tone(verdict, getattr(result, "threshold", None)),
        "reason": pin.get("reason"),
        "extra": [
            _extra(str(key), value)
            for key, value in pin.items()
            if key not in _PIN_KEYS and value is not None
        ],
    }


def pins_of(result: Any, anchor: str = "") -> list[dict[str, Any]]:
    """A result's pinned verdicts in the order it logged them, each as `pin_view` shows it;
    a pin about no turn has turn None."""
    pins = (getattr(result, "logs", None) or {}).get("turns")
    if not isinstance(pins, list):
        return []
    shown = []
    for pin in pins:
        if isinstance(pin, Mapping):
            view = pin_view(pin, result, anchor)
            view["turn"] = view["turn"] if _is_turn(view["turn"]) else None
            shown.append(view)
    return shown


def pinned(results: Sequence[Any], turn_count: int) -> dict[str, Any]:
    """Every result's pinned verdicts: `by_turn` {turn number: [pin view]} for the turns of
    the conversation, `elsewhere` [pin view] for those about no turn (or a turn it lacks),
    each linking to its result's card (`metric-<position>`, as the page numbers them)."""
    by_turn: dict[int, list[dict[str, Any]]] = {}
    elsewhere: list[dict[str, Any]] = []
    for position, result in enumerate(results, start=1):
        for view in pins_of(result, f"metric-{position}"):
            number = view["turn"]
            if number is not None and number <= turn_count:
                by_turn.setdefault(number, []).append(view)
            else:
                elsewhere.append(view)
    return {"by_turn": by_turn, "elsewhere": elsewhere}


def text_of(content: Any) -> str:
    """The text of stored content, its parts joined by spaces (images left out)."""
    return " ".join(
        part["text"].strip() for part in views.parts(content) if part["kind"] == "text"
    ).strip()


def summary(case: Any) -> dict[str, Any] | None:
    """What the results list says of a conversation: its turn count and its first user
    turn's text; None for a single-turn case."""
    if not is_conversation(case):
        return None
    stored = list(case.turns)
    first_user = next(
        (
            text_of(turn.get("content"))
            for turn in stored
            if isinstance(turn, Mapping) and turn.get("role") == "user"
        ),
        "",
    )
    return {"turns": len(stored), "first_user": first_user}
