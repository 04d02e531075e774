"""An evaluation's lifecycle as operators see it: one log line and a metric per event.

Called after the transaction that made the change commits, by whichever process made it (the
API for submit and cancel, a worker for start, finish and recovery). Log lines carry the
evaluation id, its tenant id and the request id of the request that submitted it.
"""

import logging
from dataclasses import dataclass
from typing import Any

from app.models import Evaluation
from app.telemetry import logs
from app.telemetry.metrics import (
    EVALUATIONS_DELETED,
    EVALUATIONS_FINISHED,
    EVALUATIONS_REENQUEUED,
    EVALUATIONS_SUBMITTED,
    JOBS_GAVE_WAY,
    RESULTS_STORED,
)

logger = logging.getLogger("loupe.evaluations")


@dataclass(frozen=True)
class EvaluationRef:
    """What a log line says about an evaluation (read once, outside the session that loaded it)."""

    id: str
    tenant_id: str
    kind: str
    request_id: str | None

    @classmethod
    def of(cls, evaluation: Evaluation) -> "EvaluationRef":
        return cls(
            id=evaluation.id,
            tenant_id=evaluation.tenant_id,
            kind=evaluation.kind or "evaluation",
            request_id=evaluation.request_id,
        )

    def fields(self, **more: Any) -> dict[str, Any]:
        return {
            "evaluation_id": self.id,
            "tenant_id": self.tenant_id,
            "kind": self.kind,
            # Worker lines name the submitting request; API lines the request being served.
            "request_id": self.request_id or logs.request_id.get(),
            **more,
        }


def submitted(evaluation: EvaluationRef, test_cases: int, metrics: int) -> None:
    EVALUATIONS_SUBMITTED.labels(evaluation.kind).inc()
    logger.info(
        "evaluation.submitted",
        extra=evaluation.fields(test_cases=test_cases, metrics=metrics),
    )


def started(evaluation: EvaluationRef) -> None:
    logger.info("evaluation.started", extra=evaluation.fields())


def finished(evaluation: EvaluationRef, status: str, error: dict[str, Any] | None = None) -> None:
    """Completed, failed or canceled: counted once, by the caller whose update moved it."""
    EVALUATIONS_FINISHED.labels(evaluation.kind, status).inc()
    fields = evaluation.fields(status=status)
    if error:
        fields["error_type"] = error.get("type")
    logger.log(
        logging.WARNING if status == "failed" else logging.INFO,
        "evaluation.canceled" if status == "canceled" else "evaluation.finished",
        extra=fields,
    )


def deleted(evaluation: EvaluationRef, status: str) -> None:
    """Deleted with its rows; `status`: what it was when deleted (a running one deleted by a
    kind that cancels on delete: canceled)."""
    EVALUATIONS_DELETED.labels(evaluation.kind).inc()
    logger.info("evaluation.deleted", extra=evaluation.fields(status=status))


def deleted_while_running(evaluation: EvaluationRef) -> None:
    """A job found its evaluation deleted and stopped; its calls in flight were dropped."""
    logger.info("evaluation.deleted_while_running", extra=evaluation.fields())


def reenqueued(
    evaluation: EvaluationRef, attempt: int, reason: str = "heartbeat went stale"
) -> None:
    EVALUATIONS_REENQUEUED.inc()
    logger.warning(
        "evaluation.reenqueued", extra=evaluation.fields(dispatch_attempt=attempt, reason=reason)
    )


def gave_way(evaluation: EvaluationRef) -> None:
    """A job gave its worker to another tenant's waiting job; its remaining cases are queued."""
    JOBS_GAVE_WAY.inc()
    logger.info("evaluation.gave_way", extra=evaluation.fields())


def outcome(row: dict[str, Any]) -> str:
    """A stored result's outcome label: errored, passed, failed, or unscored."""
    if row["error"] is not None:
        return "errored"
    if row["passed"] is None:
        return "unscored"
    return "passed" if row["passed"] else "failed"


def results_stored(evaluation: EvaluationRef, rows: list[dict[str, Any]]) -> None:
    """Count the rows a write stored; a line per result that ended in an error."""
    for row in rows:
        label = outcome(row)
        RESULTS_STORED.labels(row["type"], label).inc()
        if label == "errored":
            logger.warning(
                "result.errored",
                extra=evaluation.fields(
                    test_case_id=row["test_case_id"],
                    metric=row["metric"],
                    metric_type=row["type"],
                    error_type=row["error"].get("type"),
                    error_message=row["error"].get("message"),
                ),
            )
