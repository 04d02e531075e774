"""choice_accuracy: the answer label extracted from actual_output equals expected_output.

Extraction follows EvalScope 1.14.1's single-answer rule (General-VMCQ): the last `ANSWER:`
marker that is followed by labels wins, and several labels there (`A and B`, `A/B`, `AB`) are no
answer, with no fallback tried. Four fixes where that rule is plainly wrong; each is tested
against a test-side copy of EvalScope's rule in tests/metrics/test_choice_accuracy.py:

1. After an `ANSWER:` marker a lone lower-case label counts (`Answer: b` → B). EvalScope never
   accepts lower case there and falls back to the last capital anywhere, reading `Answer: b`
   as A (the A of "Answer"). A lower-case letter followed by more words (`Answer: a cat`) is
   still not a label: there it is an article.
2. The fallback takes the last *standalone* valid label (a capital not inside a word):
   `The correct option is (B) Cat` → B, `B) Museum` → B. EvalScope takes the last capital
   character anywhere (C and M) and so answers C and nothing.
3. The Chinese marker `答案：` is read like `ANSWER:` (EvalScope, prompting in English, falls
   back to the last capital: `答案：B，C 不对` → C).
4. A word is not the label it starts with: `ANSWER: Both are wrong` gives no label (EvalScope
   keeps the leading label characters and reads B).

Score 1 when the extracted label equals expected_output (case-insensitive, stripped), else 0;
no label extracted scores 0 and `logs.extraction` says so.
"""

import re
from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, Field

from app.media.parts import text_of
from app.metrics._types import (
    MetricContext,
    MetricResult,
    MetricSpecBase,
    MetricTestCase,
    TestCaseField,
)

_MARKER = re.compile(r"(?:ANSWER\s*:|答案\s*[:：])\**", re.IGNORECASE)
_WRAPPERS = ("$", "\\(", "\\boxed{", "\\text{", "\\textbf{", "\\mathbf{", "\\mathrm{", "\\fbox{")
_BRACKETED = re.compile(r"[(\[（【]\s*([A-Za-z0-9]+(?:\s*[,，、]\s*[A-Za-z0-9]+)*)\s*[)\]）】]")
_RUN = re.compile(r"[A-Za-z0-9 ,/]+")
_TOKEN = re.compile(r"[A-Za-z0-9]+")
_CONNECTORS = ("and", "or")


def checked_labels(labels: list[str]) -> list[str]:
    """The labels stripped; empty, non-alphanumeric or repeated labels are refused."""
    cleaned = [label.strip() for label in labels]
    if any(not label or not label.isalnum() for label in cleaned):
        raise ValueError("labels must be non-empty letters or digits")
    if len({label.upper() for label in cleaned}) != len(cleaned):
        raise ValueError("labels must be distinct")
    return cleaned


AnswerLabels = Annotated[list[str], Field(min_length=1), AfterValidator(checked_labels)]
DEFAULT_LABELS = ["A", "B", "C", "D"]


class ChoiceAccuracySpec(MetricSpecBase):
    required_fields: ClassVar[tuple[TestCaseField, ...]] = ("actual_output", "expected_output")

    type: Literal["choice_accuracy"]
    labels: AnswerLabels = Field(
        default=DEFAULT_LABELS,
        description="The valid answer labels; a test case's `metadata.labels` overrides them "
        "(questions with different numbers of options).",
    )


def _after_wrappers(text: str) -> str:
    text = text.lstrip(" \t*")
    stripped = True
    while stripped:
        stripped = False
        for wrapper in _WRAPPERS:
            if text.startswith(wrapper):
                text = text[len(wrapper) :].lstrip(" \t*")
                stripped = True
    return text


def _labels_in(candidate: str, valid: dict[str, str]) -> list[str] | None:
    """The leading run of labels in `candidate` (connectors allowed between them)."""
    tokens = _TOKEN.findall(candidate)
    found: list[str] = []
    for position, token in enumerate(tokens):
        if token in valid.values():
            found.append(token)
        elif len(token) > 1 and all(char in valid for char in token):
            # Labels run together (`AB`): several answers, as EvalScope reads them.
            found.extend(token)
        elif token.upper() in valid and len(tokens) == 1:
            # Fix 1: a lone lower-case label right after the marker (`Answer: b`).
            found.append(valid[token.upper()])
        elif token.lower() in _CONNECTORS and found and position + 1 < len(tokens):
            continue
        else:
            break
    return found


def extract_label(completion: str, labels: list[str]) -> tuple[str | None, str]:
    """The answer label in a completion, and how it was found (`marker`, `fallback`, `none`)."""
    valid = {label.upper(): label.upper() for label in labels}
    for marker in reversed(list(_MARKER.finditer(completion))):
        rest = _after_wrappers(completion[marker.end() :])
        bracketed = _BRACKETED.match(rest)
        if bracketed:
            candidate = bracketed.group(1)
        else:
            run = _RUN.match(rest)
            candidate = run.group(0) if run else ""
        found = _labels_in(candidate.strip().rstrip("."), valid)
        if found:
            # Several labels (`A and B`, `A/B`) are no single answer, and no fallback is tried.
            return (found[0], "marker") if len(found) == 1 else (None, "none")
    # Fix 2: the last capital that stands alone, not the last capital inside any word.
    for match in reversed(
        list(re.finditer(r"(?<![A-Za-z0-9])([A-Z0-9])(?![A-Za-z0-9])", completion))
    ):
        if match.group(1) in valid:
            return match.group(1), "fallback"
        break
    return None, "none"


def choice_score(case: MetricTestCase, labels: list[str]) -> tuple[float, str | None, str, str]:
    """(score, extracted label, how it was found, expected label) for a test case.

    The case's `metadata.labels` override `labels`.
    """
    labels = (case.metadata or {}).get("labels") or labels
    extracted, how = extract_label(text_of(case.actual_output), labels)
    expected = text_of(case.expected_output).strip()
    score = 1.0 if extracted is not None and extracted.lower() == expected.lower() else 0.0
    return score, extracted, how, expected


async def measure(
    spec: ChoiceAccuracySpec, case: MetricTestCase, ctx: MetricContext
) -> MetricResult:
    """1 when the extracted label equals expected_output, else 0."""
    score, extracted, how, expected = choice_score(case, spec.labels)
    if extracted is None:
        reason = "no answer label could be extracted from actual_output"
    else:
        verdict = "matches" if score else "does not match"
        reason = f"extracted answer {extracted} ({how}) {verdict} expected {expected!r}"
    return MetricResult.scored(
        score,
        spec.threshold,
        reason,
        {"extracted_prediction": extracted or "", "extraction": how, "accuracy": score},
    )
