"""What run jobs add to evaluation jobs: the candidate model answers each sample first."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.candidates.predictor import Predictor, endpoint_or_error
from app.config import Settings
from app.evaluations import kinds
from app.media.resolve import CaseImages
from app.models import Evaluation, TestCase
from app.runs import report
from app.runs.repository import RunRepository
from app.unscoped.run_scores import UnscopedRunScoreRepository


class RunKind(kinds.Kind):
    """A run: the candidate answers each sample first; its report sums move with results."""

    label = "dataset run"
    id_prefixes = ("run",)
    # Its items are dataset samples (`subset/row_index`), shown on its own pages.
    items_are_test_cases = False

    def predictor(
        self,
        session: Session,
        settings: Settings,
        evaluation: Evaluation,
        rows: Sequence[TestCase],
        images: CaseImages,
    ) -> Predictor | None:
        """The candidate's predictor; None when the run scores given predictions."""
        found = RunRepository(session, evaluation.tenant_id).get(evaluation.id)
        run = found[0] if found else None
        if run is None or not run.options.get("uses_model"):
            return None
        messages = {row.index: images.messages(row.messages) for row in rows if row.messages}
        params = dict(run.options.get("generation") or {})
        endpoint, error = endpoint_or_error(session, settings, evaluation.tenant_id, run.model_id)
        return Predictor(endpoint, params, messages, error)

    def tally(self, session: Session, evaluation_id: str, inserted: list[dict[str, Any]]) -> None:
        """Add newly stored results to the run's report sums."""
        UnscopedRunScoreRepository(session).add(evaluation_id, report.score_sums(inserted))

    def api_path(self, session: Session, evaluation: Evaluation) -> str:
        return f"/v1/runs/{evaluation.id}"

    def console_path(self, evaluation: Evaluation) -> str:
        return f"/console/runs/{evaluation.id}"

    def told_apart(self, session: Session, evaluations: Sequence[Evaluation]) -> dict[str, str]:
        """`<model> on <dataset>`: one query a tenant (the choices of a page are one's)."""
        by_tenant: dict[str, list[str]] = {}
        for evaluation in evaluations:
            by_tenant.setdefault(evaluation.tenant_id, []).append(evaluation.id)
        return {
            run_id: f"{answered} on {dataset}"
            for tenant_id, run_ids in by_tenant.items()
            for run_id, (answered, dataset) in RunRepository(session, tenant_id)
            .model_and_dataset_names(run_ids)
            .items()
        }
