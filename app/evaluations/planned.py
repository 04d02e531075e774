"""The judge prompts a submission plans, bounded before anything is built from them.

`turn_faithfulness` and `turn_contextual_relevancy` show each judged turn with the turns before
it (at most LOUPE_MAX_WINDOW_CHARS of them), so a conversation's prompts together hold many
times its text: a 64 MB body planned gigabytes of prompts, minutes of estimate and a worker's
memory. `window_problems` adds up the characters those windows would show, from each turn's
size (nothing tokenized, no prompt built), a case at a time, and stops at the case that passes
LOUPE_MAX_PLANNED_WINDOW_CHARS: a refusal costs at most what the cap allows, whatever the body.
"""

from collections.abc import Sequence
from typing import Any

from app.config import Settings
from app.metrics import (
    MetricSpecBase,
    MetricTestCase,
    conversation_outline,
    shows_windows,
    window_text,
)
from app.problems import FieldError, field_error

SETTING = "LOUPE_MAX_PLANNED_WINDOW_CHARS"
ERROR_TYPE = "planned_window_chars"


def window_problems(
    settings: Settings,
    metrics: Sequence[MetricSpecBase | None],
    cases: Sequence[dict[str, Any]],
    *,
    metrics_sent: bool = True,
) -> list[FieldError]:
    """Past the cap, `test_cases` and each windowed metric that shows some, with what they
    would show and the cap; [] within it.

    Args:
        metrics: the submission's metrics, None where a schema refused one.
        cases: its test cases in stored form, in the request's order.
        metrics_sent: False when the metrics are not in the request (a batch appended to an
            open evaluation): `test_cases` alone is named.
    """
    windowed = [
        (index, spec)
        for index, spec in enumerate(metrics)
        if spec is not None and shows_windows(spec)
    ]
    if not windowed:
        return []
    cap = settings.max_planned_window_chars
    shown = [0] * len(windowed)
    for counted, case in enumerate(cases, start=1):
        if not case.get("turns"):
            continue
        conversation = MetricTestCase(index=case["index"], id="", turns=case["turns"])
        shape = conversation_outline(conversation)
        for position, (_, spec) in enumerate(windowed):
            shown[position] += window_text(spec, shape, window_chars=settings.max_window_chars)
        if sum(shown) > cap:
            # Counting stops here: the rest of the body would only add to it.
            among = (
                "these test cases"
                if counted == len(cases)
                else f"test_cases[0] to test_cases[{case['index']}] alone, where counting stopped"
            )
            errors = _refusal(windowed, shown, among, cap)
            return errors if metrics_sent else errors[:1]
    return []


def _refusal(
    windowed: list[tuple[int, MetricSpecBase]], shown: list[int], among: str, cap: int
) -> list[FieldError]:
    total = sum(shown)
    limit = f"at most {cap:,} per submission ({SETTING})"
    showing = [
        (index, spec, chars) for (index, spec), chars in zip(windowed, shown, strict=True) if chars
    ]
    names = ", ".join(f"{spec.display_name!r} (metrics[{index}])" for index, spec, _ in showing)
    errors = [
        field_error(
            ["test_cases"],
            f"the windowed metrics {names} would show the judge {total:,} characters of "
            f"earlier turns (each judged turn with the turns of its window) for {among}; "
            f"{limit}: send them in smaller submissions (or in batches of an open "
            "evaluation), or give the metrics a smaller window_size",
            ERROR_TYPE,
        )
    ]
    for index, spec, chars in showing:
        errors.append(
            field_error(
                ["metrics", index],
                f"{spec.display_name!r} would show the judge {chars:,} characters of earlier "
                f"turns for {among} (window_size {getattr(spec, 'window_size', None)}), "
                f"{total:,} with the submission's other windowed metrics; {limit}",
                ERROR_TYPE,
            )
        )
    return errors
