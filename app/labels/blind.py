"""A label given blind through a review queue is final for its reviewer.

A queue asks for a label before it shows the judge's verdict, then shows it: a label of the
same item by the same person after that would be anchored on the judge while still counted as
blind (routed or random) in agreement and calibrated means. So whatever route a label comes
by, it never replaces a queue's label with another of its reviewer's (the same one again is
answered as it stands), and a queue never stores its blind label over one given outside it.
Deleting the label is the way back: it gives the item back to its queue (`repository.delete`).
A team admin's import restoring an export replaces labels as they were exported.
"""

from dataclasses import dataclass

from app.labels.schemas import LabelValue
from app.models import Label
from app.problems import ProblemError, field_error

Path = list[str | int]


@dataclass(frozen=True)
class Giving:
    """How a label is being given, and where a refusal points.

    Args:
        selection: `direct` (posted or imported), or a queue's `random` or `routed`.
        queue_id: the queue it is given through (None: not through one).
        named: the fields a 409 `already-labelled` names; None for a team admin's import
            restoring labels as exported, which replaces any label as given.
    """

    selection: str = "direct"
    queue_id: str | None = None
    named: tuple[Path, ...] | None = ()


def same(label: Label, value: LabelValue, rationale: str | None) -> bool:
    """Whether `value` and `rationale` are the label given: the same value (or verdict) and
    rationale (an empty one as none)."""
    if isinstance(value, bool):
        same_value = label.value is None and label.passed is value
    else:
        same_value = label.value is not None and label.value == value
    return same_value and (label.rationale or None) == (rationale or None)


def stands(existing: Label, value: LabelValue, rationale: str | None, giving: Giving) -> bool:
    """Whether its actor's `existing` label of the item stands as it is (True: the same label
    given again), or is replaced (False); a 409 `already-labelled` naming `giving.named` when
    neither may be (a queue's label changed, or a queue's label over one given outside it)."""
    if giving.named is None:
        return False
    blind = existing.queue_id is not None
    if blind and same(existing, value, rationale):
        return True
    if blind:
        message = (
            f"You labelled this item through review queue {existing.queue_id!r}, blind, and "
            "have been shown the judge's verdict since: your label stands as you gave it. "
            "Delete it to give the item back to the queue."
        )
    elif giving.queue_id is not None:
        message = (
            "You labelled this item already outside the queue: a queue's label is given blind, "
            "before the judge's verdict is shown. Give the item back (release it)."
        )
    else:
        return False
    raise ProblemError(
        409,
        "Conflict",
        message,
        slug="already-labelled",
        errors=[field_error(path, message, "already_labelled") for path in giving.named],
    )
