"""An evaluation submitted with `open: true` takes its test cases in batches, then is closed.

Each batch is checked as a submit's test cases are (images through the media pipeline)
against the evaluation's stored metrics, for ids an earlier batch holds (one indexed query on
the batch's ids, never reading the earlier batches) and against the cap on all batches: one 422
names all of it, whether or not the batch passed its schema. It is appended after the last
case with its own slice jobs (`appending.append`). An open evaluation is not completed, however
many results are stored, until it is closed; the close completes it when every result is in,
else its last job does.
"""

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.api.salvage import items, salvage
from app.config import Settings
from app.evaluations import appending, case_rows, checks, lifecycle_service, service
from app.evaluations.case_schemas import TestCaseCreate
from app.evaluations.repository import EvaluationRepository
from app.evaluations.schemas import TERMINAL_STATUSES, TestCaseBatch
from app.media import ingest as media
from app.media.own import OwnMedia
from app.media.store import DatabaseBlobStore
from app.metrics import parse_spec
from app.models import Evaluation, Tenant
from app.problems import FieldError, ProblemError, field_error, invalid_request
from app.runtime import Runtime
from app.tenants import limits
from app.unscoped.evaluation_jobs import UnscopedJobRepository

# A case's id as the schema reads it (`TestCaseCreate.id`); stored and compared as a string.
CaseId = str | int


def append(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    evaluation_id: str,
    batch: TestCaseBatch,
    own: OwnMedia | None = None,
) -> tuple[Evaluation, range]:
    """Check and store one batch of an open evaluation's test cases, its jobs queued once the
    caller commits; the evaluation and the indices its cases got. 404 for another tenant's,
    409 for one that is not open, 422 naming every case at fault."""
    settings = runtime.settings
    evaluation = service.get_or_404(session, tenant, evaluation_id)
    _check_open(evaluation)
    cases = [case_rows.stored_case(index, case) for index, case in enumerate(batch.test_cases)]
    draft = _draft(evaluation, list(batch.test_cases))
    checked = checks.check(session, tenant.id, draft, settings, cases, own)
    # Locked until commit: batches of one evaluation are appended one at a time, so the id
    # check sees every batch before this one.
    session.refresh(evaluation, with_for_update=True)
    _check_open(evaluation)
    over_cap = _over_cap(settings, evaluation, len(cases))
    ids = {index: case.id for index, case in enumerate(batch.test_cases)}
    checked.findings.extend(_taken_ids(session, evaluation, ids))
    if over_cap or checked.findings.errors:
        raise invalid_request(
            [*over_cap, *checked.findings.errors], len(over_cap) + checked.findings.total
        )
    limits.admit_spend(session, tenant)
    for case, given in zip(cases, batch.test_cases, strict=True):
        if given.id is None:
            # Known by its index in the evaluation, given once the indices are taken.
            del case["client_id"]
    assert checked.intake is not None  # within the caps: images were taken in
    # The batch's images are stored once, as a submit's are; the cases then name blobs.
    checked.intake.store(DatabaseBlobStore(session, tenant.id))
    stored = media.take_in([], settings)
    indices = appending.append(session, runtime, evaluation, cases, [stored] * len(cases))
    audit.record(
        session,
        None,
        "evaluation.append",
        "evaluation",
        evaluation.id,
        tenant_id=tenant.id,
        first_index=indices.start,
        test_cases=len(indices),
    )
    return evaluation, indices


def body_problems(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    evaluation_id: str,
    body: Mapping[str, Any],
    own: OwnMedia | None = None,
) -> list[FieldError]:
    """What else is wrong with a batch that failed its schema, as `append` would find it (none
    for an evaluation it cannot take): the cap on all batches, its valid cases checked against
    the evaluation's metrics, and the ids of earlier batches among those it can read."""
    evaluation = EvaluationRepository(session, tenant.id).get(evaluation_id)
    if evaluation is None or not evaluation.open:
        return []
    raw_cases = items(body.get("test_cases"))
    draft = _draft(evaluation, checks.Draft.salvage(body).test_cases)
    findings = checks.check(session, tenant.id, draft, settings, own=own).findings.errors
    taken = _taken_ids(session, evaluation, _readable_ids(raw_cases, draft.test_cases))
    return [*_over_cap(settings, evaluation, len(raw_cases)), *findings, *taken]


def _draft(evaluation: Evaluation, test_cases: list[TestCaseCreate | None]) -> checks.Draft:
    """A batch's cases as a submit of the evaluation's stored metrics would be checked."""
    return checks.Draft(
        test_cases=test_cases,
        metrics=[parse_spec(spec) for spec in evaluation.metrics],
        # Resolved at submit: the judge and the webhook are not asked about again.
        judge_known=False,
        metrics_sent=False,
        cluster_by=evaluation.cluster_by,
        first_index=evaluation.total_test_cases,
    )


def close(session: Session, tenant: Tenant, evaluation_id: str) -> Evaluation:
    """Say an evaluation's test cases are all in (again: no change). The caller commits, then
    calls `complete_if_scored`."""
    evaluation = service.get_for_update(session, tenant, evaluation_id)
    if not evaluation.open:
        return evaluation
    if evaluation.total_test_cases == 0 and evaluation.status not in TERMINAL_STATUSES:
        # It would complete at once, green, having judged nothing: a pipeline whose upload
        # produced no case would read it as a pass.
        raise ProblemError(
            409,
            "Conflict",
            "The evaluation has no test cases: append at least one batch before closing it, "
            "or cancel it (then delete it) if there is nothing to judge.",
            slug="evaluation-empty",
        )
    evaluation.open = False
    audit.record(
        session,
        None,
        "evaluation.close",
        "evaluation",
        evaluation.id,
        tenant_id=tenant.id,
        test_cases=evaluation.total_test_cases,
    )
    return evaluation


def complete_if_scored(session: Session, runtime: Runtime, evaluation: Evaluation) -> None:
    """Complete a closed evaluation whose every result is stored (else its last job will).

    Called once the close is committed: a last job that read the evaluation still open stored
    its results before, so this count sees them; one that reads it after sees it closed and
    completes it itself (the conditional UPDATE lets one of the two win)."""
    if evaluation.open or evaluation.status in TERMINAL_STATUSES:
        return
    jobs = UnscopedJobRepository(session)
    expected = evaluation.total_test_cases * len(evaluation.metrics)
    if jobs.count_results(evaluation.id) >= expected and jobs.finish(evaluation.id, "completed"):
        session.refresh(evaluation)
        lifecycle_service.finished(session, runtime, evaluation)


def _check_open(evaluation: Evaluation) -> None:
    if evaluation.open and evaluation.status not in TERMINAL_STATUSES:
        return
    state = evaluation.status if evaluation.status in TERMINAL_STATUSES else "closed"
    raise ProblemError(
        409,
        "Conflict",
        f"The evaluation is {state}: test cases are appended only to an open one "
        "(submitted with open: true, not closed yet).",
        slug="evaluation-not-open",
    )


def _over_cap(settings: Settings, evaluation: Evaluation, count: int) -> list[FieldError]:
    """The field error when `count` more cases would pass LOUPE_MAX_EVALUATION_TEST_CASES."""
    total = evaluation.total_test_cases + count
    if total <= settings.max_evaluation_test_cases:
        return []
    return [
        field_error(
            ["test_cases"],
            f"{total} test cases in all with this batch; at most "
            f"{settings.max_evaluation_test_cases} (LOUPE_MAX_EVALUATION_TEST_CASES)",
            "too_long",
        )
    ]


def _readable_ids(
    raw_cases: list[Any], salvaged: list[TestCaseCreate | None]
) -> dict[int, CaseId | None]:
    """By index in the batch, the id of each case whose id passes its schema, the case's other
    fields or not (None: it gives none); a case whose id does not is left out."""
    given: dict[int, CaseId | None] = {}
    for index, (raw, case) in enumerate(zip(raw_cases, salvaged, strict=True)):
        if case is None and isinstance(raw, Mapping):
            case, refused = salvage(TestCaseCreate, raw)
            if "id" in refused:
                continue
        if case is not None:
            given[index] = case.id
    return given


def _taken_ids(
    session: Session, evaluation: Evaluation, given: Mapping[int, CaseId | None]
) -> list[FieldError]:
    """A field error for each case whose id an earlier batch holds, found by one indexed
    look-up of the batch's ids.

    Args:
        given: by index in the batch, each case's id (None: it gives none, so it is known by
            its index in the evaluation).
    """
    first = evaluation.total_test_cases
    ids = {
        index: str(client_id) if client_id is not None else str(first + index)
        for index, client_id in given.items()
    }
    repository = EvaluationRepository(session, evaluation.tenant_id)
    taken = repository.client_ids_before(evaluation, list(ids.values()), first)
    return [
        field_error(
            ["test_cases", index, "id"],
            f"id {client_id!r} is already a test case of this evaluation (an earlier batch)"
            if given[index] is not None
            else f"missing, and the id a case without one gets (its index, {client_id!r}) is "
            "already a test case of this evaluation; give this case an id",
            "duplicate_id",
        )
        for index, client_id in ids.items()
        if client_id in taken
    ]
