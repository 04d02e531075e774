"""An online rule's day as a kind of evaluation: open while its UTC day lasts, taking the calls
the rule samples as they arrive (app/online/ingest.py), completed by the ticker once the day is
over and every result is stored."""

from datetime import datetime

from sqlalchemy.orm import Session

from app.evaluations import kinds
from app.models import Evaluation


class OnlineKind(kinds.Kind):
    """One rule's judged calls of one UTC day; read through `/v1/online_rules/{id}/results`."""

    label = "online rule day"
    open_ended = True
    # Its results carry the judged span's trace and span id: items are production calls.
    items_are_test_cases = True

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        rule_id = (evaluation.metadata_ or {}).get("online_rule_id", "-")
        return f"/v1/online_rules/{rule_id}"

    def cancel_path(self, session: Session, evaluation: Evaluation) -> str:
        # A day is not canceled: its rule is disabled (or deleted, which deletes its days).
        return f"{self.api_path(session, evaluation)}/disable"

    def still_open(self, evaluation: Evaluation, now: datetime) -> bool:
        day = (evaluation.metadata_ or {}).get("day")
        return day is not None and day >= now.date().isoformat()
