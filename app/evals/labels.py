"""What a person calls an eval run: its eval's name, and its criteria by their names.

A run's metrics (and its results' `metric`) are the criteria's ids, `<name>-<uuid4>`: unique,
but noise on a page. Pages show the names the eval was created with instead.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import EvalDefinition, EvalRun


@dataclass(frozen=True)
class RunLabels:
    eval_id: str
    eval_name: str
    # Criterion id -> its name; a name two criteria share is told apart by its position.
    criteria: dict[str, str] = field(default_factory=dict)

    def metric(self, metric: str) -> str:
        """The criterion's name for a result's `metric` (a criterion id); others as they are."""
        return self.criteria.get(metric, metric)


def run_labels(session: Session, tenant_id: str, run_ids: Sequence[str]) -> dict[str, RunLabels]:
    """The labels of those of `run_ids` that are the tenant's eval runs, by run id."""
    if not run_ids:
        return {}
    rows = session.execute(
        select(EvalRun.id, EvalDefinition.id, EvalDefinition.name, EvalDefinition.testing_criteria)
        .join(EvalDefinition, EvalDefinition.id == EvalRun.eval_id)
        .where(EvalRun.tenant_id == tenant_id, EvalRun.id.in_(set(run_ids)))
    )
    return {
        run_id: RunLabels(eval_id, eval_name, _criteria_names(criteria or []))
        for run_id, eval_id, eval_name, criteria in rows
    }


def _criteria_names(criteria: list[dict]) -> dict[str, str]:
    names = [str(criterion.get("name") or criterion.get("id")) for criterion in criteria]
    shared = {name for name in names if names.count(name) > 1}
    return {
        str(criterion.get("id")): f"{name} (criterion {position})" if name in shared else name
        for position, (criterion, name) in enumerate(zip(criteria, names, strict=True), start=1)
    }
