"""Evaluations that stay open and take test cases as they come (a kind whose `open_ended` is
set: online rules append the production calls they sample, one evaluation per rule per day).

The cases appended get the next indices, reserved by one atomic UPDATE ... RETURNING of the
evaluation's row (two requests appending at once never take the same index, on SQLite too,
where `lock` locks nothing), and their scoring jobs are queued once the caller commits (their
slices recorded in its transaction, `service.queue_committed`; each append is its own slice, so
its job id is new and never collides with a job still scoring earlier cases).
"""

from typing import Any

from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.db import utcnow
from app.evaluations import kinds, service
from app.evaluations.repository import EvaluationRepository
from app.media.store import DatabaseBlobStore
from app.models import Evaluation, Tenant
from app.runtime import Runtime


def open_evaluation(
    session: Session,
    tenant: Tenant,
    *,
    kind: str,
    name: str,
    metadata: dict[str, str],
    metrics: list[dict[str, Any]],
    judge: dict[str, Any] | None,
) -> Evaluation:
    """A new open evaluation of `kind` with no test cases yet (flushed, not committed)."""
    evaluation = Evaluation(
        id=service.new_evaluation_id(),
        tenant_id=tenant.id,
        kind=kind,
        name=name,
        metadata_=metadata,
        metrics=metrics,
        judge=judge,
        use_cache=True,
        status="in_progress",
        total_test_cases=0,
        dispatch_attempts=0,
    )
    EvaluationRepository(session, tenant.id, (kind,)).add(evaluation, [])
    return evaluation


def discard(session: Session, evaluation: Evaluation) -> None:
    """Remove an open evaluation just made with `open_evaluation`, still without test cases
    (another request made the one it was for first)."""
    EvaluationRepository(session, evaluation.tenant_id, (evaluation.kind,)).delete(evaluation)
    session.expunge(evaluation)


def lock(session: Session, tenant_id: str, evaluation_id: str) -> Evaluation | None:
    """The tenant's open-ended evaluation, its row locked until commit (PostgreSQL; SQLite
    serialises writers); None if it is no open-ended evaluation of the tenant's."""
    return EvaluationRepository(session, tenant_id, kinds.open_ended()).get(
        evaluation_id, for_update=True
    )


def append(
    session: Session,
    runtime: Runtime,
    evaluation: Evaluation,
    cases: list[dict[str, Any]],
    intakes: list[Any],
) -> range:
    """Store `cases` (stored form, `index` and `client_id` unset) after the evaluation's last,
    their images from `intakes` (checked, one per case), and queue their scoring after commit.

    The evaluation must have been read with `lock`. Returns the indices given.
    """
    repository = EvaluationRepository(session, evaluation.tenant_id, (evaluation.kind,))
    start = repository.take_indices(evaluation, len(cases))
    store = DatabaseBlobStore(session, evaluation.tenant_id)
    for offset, (case, intake) in enumerate(zip(cases, intakes, strict=True)):
        intake.store(store)
        case["index"] = start + offset
        case.setdefault("client_id", str(start + offset))
        case["evaluation_id"] = evaluation.id
        case["context_hash"] = service.context_hash(case.get("retrieval_context"))
    repository.add_cases(evaluation, cases)
    stop = start + len(cases)
    # What the UPDATE stored, not a change for the ORM to write back over a later append.
    set_committed_value(evaluation, "total_test_cases", stop)
    # Fresh work: the sweep looks again only once it has waited LOUPE_STUCK_AFTER_SECONDS.
    evaluation.heartbeat_at = evaluation.appended_at = utcnow()
    service.queue_committed(
        session, runtime, evaluation.id, evaluation.tenant_id, range(start, stop)
    )
    return range(start, stop)
