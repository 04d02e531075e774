"""Every reason a rule counts a call as skipped has its words on the rule's console page."""

import re
from pathlib import Path

from app.online.reads import SKIP_WORDS, skip_words
from app.otlp import SkipReason

ONLINE = Path(__file__).resolve().parents[2] / "app" / "online"


def counted_reasons() -> set[str]:
    """The reasons app/otlp gives a rule (all but "not a model call", which no rule counts) and
    those app/online counts itself (`skipped:<reason>` in its sources)."""
    found = {reason.value for reason in SkipReason} - {SkipReason.NOT_A_MODEL_CALL.value}
    for path in ONLINE.glob("*.py"):
        found |= set(re.findall(r"skipped:([a-z_]+)", path.read_text()))
    return found


def test_every_skip_reason_is_said_in_words() -> None:
    assert counted_reasons() - set(SKIP_WORDS) == set()
    assert skip_words("not_sampled").startswith("Not sampled:")
    # One added later without words is still shown, by its name.
    assert skip_words("new_reason") == "Skipped (new reason)."
