"""What pages and endpoints read of a tenant's evaluations: lists, results, test cases.

The console's pages and the JSON API call these same functions (neither reads the repository
itself); each reads through the tenant's `EvaluationRepository`, so another tenant's
evaluation, handed in by mistake, raises instead of answering.
"""

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.evaluations.kinds import DEFAULT_KIND
from app.evaluations.repository import EvaluationRepository
from app.models import Evaluation, Result, Tenant, TestCase


def page(
    session: Session,
    tenant: Tenant,
    kinds: Sequence[str],
    after: str | None,
    limit: int,
    *,
    status: str | None = None,
    name: str | None = None,
    completed_with_errors: bool | None = None,
) -> Sequence[Evaluation]:
    """The tenant's evaluations of these kinds, newest first; `limit + 1` rows so the caller can
    tell whether more follow (filters as `EvaluationRepository.page`)."""
    return EvaluationRepository(session, tenant.id, tuple(kinds)).page(
        after, limit, status=status, name=name, completed_with_errors=completed_with_errors
    )


def result_page(
    session: Session,
    tenant: Tenant,
    evaluation: Evaluation,
    after: str | None,
    limit: int,
    *,
    metric: str | None = None,
    status: str | None = None,
    order: str | None = None,
    fragile: bool | None = None,
) -> Sequence[Result] | None:
    """The evaluation's results after the result `after`; `limit + 1` rows, None when `after`
    is not one of its results."""
    return _repository(session, tenant).result_page(
        evaluation, after, limit, metric=metric, status=status, order=order, fragile=fragile
    )


def results_of_case(
    session: Session, tenant: Tenant, evaluation: Evaluation, index: int
) -> Sequence[Result]:
    """Every metric's result on the evaluation's test case at `index`, in metric order."""
    return _repository(session, tenant).results_of_case(evaluation, index)


def score_histogram(
    session: Session, tenant: Tenant, evaluation: Evaluation
) -> dict[int, list[int]]:
    """Per metric index, how many scores fall in each tenth of [0, 1]."""
    return _repository(session, tenant).score_histogram(evaluation)


def test_case_page(
    session: Session, tenant: Tenant, evaluation: Evaluation, after: str | None, limit: int
) -> Sequence[TestCase] | None:
    """The evaluation's test cases after the one whose id is `after`; `limit + 1` rows, None
    when `after` is not one of its test case ids."""
    return _repository(session, tenant).test_case_page(evaluation, after, limit)


def test_case_at(
    session: Session, tenant: Tenant, evaluation: Evaluation, index: int
) -> TestCase | None:
    """The evaluation's test case at `index`."""
    return _repository(session, tenant).test_case_at(evaluation, index)


def test_cases_at(
    session: Session, tenant: Tenant, evaluation: Evaluation, indices: Sequence[int]
) -> dict[int, TestCase]:
    """The evaluation's test cases at these indices, by index."""
    return _repository(session, tenant).test_cases_at(evaluation, indices)


def test_cases_by_client_id(
    session: Session, tenant: Tenant, evaluation: Evaluation, client_ids: Sequence[str]
) -> dict[str, TestCase]:
    """The evaluation's test cases with these client ids (the first, should an id repeat)."""
    return _repository(session, tenant).test_cases_by_client_id(evaluation, client_ids)


def _repository(session: Session, tenant: Tenant) -> EvaluationRepository:
    # Child reads check only the tenant (through `owned`), whatever the evaluation's kind.
    return EvaluationRepository(session, tenant.id, (DEFAULT_KIND,))
