"""Proposing an alignment, as `POST /v1/alignments` and the console's form do: the candidate
made (one paid rubric-notes call) and the judging of its held-out items submitted. A refusal
after the call still counts the call, committed apart from the request's work, which is rolled
back: the call was made and billed."""

from sqlalchemy.orm import Session

from app.alignments import service
from app.alignments.guidance import PaidRefusal
from app.alignments.schemas import AlignmentCreate
from app.evaluations import lifecycle_service as lifecycle
from app.evaluations import service as evaluations
from app.models import Alignment, Evaluation, Tenant
from app.runtime import Runtime


def propose(
    session: Session, runtime: Runtime, tenant: Tenant, body: AlignmentCreate
) -> tuple[Alignment, Evaluation]:
    """Store the alignment and submit its judging; the caller commits."""
    try:
        alignment = service.create(session, tenant, body, runtime.settings)
    except PaidRefusal as refused:
        session.rollback()
        with runtime.session() as counting:
            service.count_paid(counting, tenant.id, refused)
            counting.commit()
        raise
    evaluation = evaluations.get_or_404(session, tenant, alignment.id, (service.KIND,))
    lifecycle.submit(session, runtime, evaluation)
    return alignment, evaluation
