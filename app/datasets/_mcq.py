"""Multiple-choice labels, the prompt a candidate model gets, and answer-label checks."""

from typing import Any

from app.datasets._tabular import is_blank
from app.datasets._types import RowScope

# The marker the model is told to end with; EvalScope's answer extraction looks for the last one.
MCQ_ANSWER_MARKER = "ANSWER"


def option_labels(count: int) -> list[str]:
    """Labels for `count` options: A..Z for the first 26, then 1, 2, ... (as EvalScope)."""
    return [chr(ord("A") + i) if i < 26 else str(i - 25) for i in range(count)]


def mcq_prompt(question: str, options: list[str], labels: list[str]) -> str:
    """The single-answer, step-by-step prompt: instructions, question, then `A) text` lines."""
    if len(options) != len(labels):
        raise ValueError(f"{len(options)} options but {len(labels)} labels")
    instructions = (
        "Answer the multiple-choice question below. Reason about it step by step before you "
        "commit to an answer. The last line of your reply must be exactly "
        f'"{MCQ_ANSWER_MARKER}: X", where X is one of {",".join(labels)}.'
    )
    lines = "\n".join(f"{label}) {text}" for label, text in zip(labels, options, strict=True))
    return f"{instructions}\n\n{question}\n\n{lines}"


def answer_label(value: Any, labels: list[str], scope: RowScope, field: str = "answer") -> str:
    """The row's answer as one of `labels`; a lower-case letter is accepted and upper-cased."""
    if is_blank(value):
        raise scope.error(field, "the answer label is missing")
    if not isinstance(value, str | int) or isinstance(value, bool):
        raise scope.error(field, f"expected a label, got {type(value).__name__}")
    label = str(value).strip()
    if label.upper() in labels:
        return label.upper()
    raise scope.error(field, f"{label!r} is not one of the labels {','.join(labels)}")
