"""One lifecycle for every kind of evaluation: submit, cancel, delete.

The API endpoints, the console pages, the CLI and the ticker call these for any kind; each
kind's own ways come from its strategy (`app.evaluations.kinds.Kind`), and every side effect
(jobs, webhook deliveries, counters, log lines) goes to the session's outbox, sent once the
caller's transaction commits.
"""

from contextlib import suppress
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.evaluations import lifecycle as events
from app.evaluations import service as evaluations
from app.evaluations.admission import admit
from app.evaluations.kinds import DEFAULT_KIND, kind_of
from app.evaluations.schemas import TERMINAL_STATUSES
from app.models import Evaluation
from app.outbox import outbox
from app.problems import ProblemError
from app.runtime import Runtime

# Admission is the submit's first step, one for every kind (kept in its own module: the
# evaluation service, which this one builds on, calls it too).
__all__ = ["admit", "cancel", "delete", "finished", "submit"]


def submit(session: Session, runtime: Runtime, evaluation: Evaluation) -> None:
    """Announce a stored new evaluation and queue its jobs, once the caller commits it.

    A kind that finished at submit (an eval run with no rows) gets its terminal event instead.
    """
    box = outbox(session)
    ref = events.EvaluationRef.of(evaluation)
    _audit(session, evaluation, "create", status=evaluation.status)
    if evaluation.status == "queued":
        test_cases, metrics = evaluation.total_test_cases, len(evaluation.metrics)
        box.add(lambda: events.submitted(ref, test_cases, metrics))
        # Enqueued only once committed, so a worker never looks for a row that isn't there.
        evaluations.queue_committed(
            session, runtime, evaluation.id, evaluation.tenant_id, range(test_cases)
        )
    _announce(session, runtime, evaluation)


def cancel(
    session: Session, runtime: Runtime, evaluation: Evaluation, *, through: str | None = None
) -> Evaluation:
    """Cancel a queued or running evaluation of any kind the caller read for its tenant (for
    update); terminal ones: 409. Counted, logged and announced once the caller commits.

    An open one of an open-ended kind (an online rule's day) is not canceled: it closes by
    itself, and the 409 names the routes that manage it (its kind's `managed_by`).

    Args:
        through: the kind whose routes ask; one of another kind answers 409 naming its own.
    """
    _check_through(session, evaluation, through)
    kind = kind_of(evaluation)
    if kind.open_ended and evaluation.status not in TERMINAL_STATUSES:
        raise ProblemError(
            409,
            "Conflict",
            f"An open {kind.label} is not canceled: it closes by itself; "
            f"{kind.managed_by(session, evaluation)}.",
            slug="open-ended",
        )
    evaluation = _cancel(session, evaluation)
    _audit(session, evaluation, "cancel")
    _announce(session, runtime, evaluation)
    return evaluation


def delete(
    session: Session,
    runtime: Runtime,
    evaluation: Evaluation,
    *,
    with_owner: bool = False,
    through: str | None = None,
) -> None:
    """Delete a finished evaluation of any kind the caller read for its tenant (for update),
    with its rows; a running one is canceled first if its kind does so, else 409. The images
    no row uses any more are removed once the caller commits.

    Args:
        with_owner: the evaluation goes because what owns it goes (an online rule's days with
            the rule): a running one is canceled first whatever its kind.
        through: the kind whose routes ask; one of another kind answers 409 naming its own.
    """
    _check_through(session, evaluation, through)
    cancels = with_owner or kind_of(evaluation).cancels_on_delete
    if evaluation.status not in TERMINAL_STATUSES and cancels:
        # Its last job may have finished it since it was read: deleted all the same. The cancel
        # is unannounced: its webhook event would name an evaluation that is gone.
        with suppress(ProblemError):
            _cancel(session, evaluation)
    ref, status = events.EvaluationRef.of(evaluation), evaluation.status
    _audit(session, evaluation, "delete", status=status)
    digests = evaluations.delete_loaded(session, evaluation)
    tenant_id = evaluation.tenant_id
    box = outbox(session)
    box.add(lambda: events.deleted(ref, status))
    box.add(lambda: evaluations.collect_media(runtime, tenant_id, digests) and None)


def finished(
    session: Session,
    runtime: Runtime,
    evaluation: Evaluation,
    error: dict[str, Any] | None = None,
) -> None:
    """Count, log and announce an evaluation its last job or the sweep has just moved to a
    terminal status, once the caller commits."""
    ref, status = events.EvaluationRef.of(evaluation), evaluation.status
    outbox(session).add(lambda: events.finished(ref, status, error))
    _announce(session, runtime, evaluation)


def _check_through(session: Session, evaluation: Evaluation, through: str | None) -> None:
    # The evaluation routes read every listed kind (an online day, an eval run) but manage
    # only their own: the others' rows and owners are their own routes' to change.
    if through is None or (evaluation.kind or DEFAULT_KIND) == through:
        return
    kind = kind_of(evaluation)
    raise ProblemError(
        409,
        "Conflict",
        f"{evaluation.id} is {kind.described(session, evaluation)}: "
        f"{kind.managed_by(session, evaluation)}.",
        slug="managed-elsewhere",
    )


def _audit(session: Session, evaluation: Evaluation, verb: str, **details: Any) -> None:
    """The audit event of a change to an evaluation of any kind (its object type is its kind),
    by whoever acts on the session (`system` for jobs and the ticker)."""
    kind = evaluation.kind or "evaluation"
    name = getattr(evaluation, "name", None)
    if name:
        details["name"] = name
    audit.record(
        session,
        None,
        f"{kind}.{verb}",
        kind,
        evaluation.id,
        tenant_id=evaluation.tenant_id,
        **details,
    )


def _cancel(session: Session, evaluation: Evaluation) -> Evaluation:
    evaluation = evaluations.cancel_loaded(session, evaluation)
    ref = events.EvaluationRef.of(evaluation)
    outbox(session).add(lambda: events.finished(ref, "canceled"))
    return evaluation


def _announce(session: Session, runtime: Runtime, evaluation: Evaluation) -> None:
    event_id = evaluations.emit_terminal_event(session, evaluation)
    if event_id is not None:
        outbox(session).add(lambda: evaluations.enqueue_webhook(runtime, event_id))
