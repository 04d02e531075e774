"""The plain evaluation as a kind: test cases submitted with their answers, scored as they are."""

from datetime import datetime

from sqlalchemy.orm import Session

from app import ids
from app.evaluations.kinds import Kind
from app.models import Evaluation


class EvaluationKind(Kind):
    """`POST /v1/evaluations`: nothing to answer first; its summaries carry clustered errors."""

    label = "evaluation"
    listed = True
    id_prefixes = ids.EVALUATION_PREFIXES
    summary_clusters = True

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        return f"/v1/evaluations/{evaluation.id}"

    def still_open(self, evaluation: Evaluation, now: datetime) -> bool:
        # Submitted with `open: true` and not closed yet (app/evaluations/batches.py).
        return bool(evaluation.open)
