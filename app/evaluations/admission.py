"""Admission of a new evaluation of any kind: one step, the same limits for every kind."""

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import kinds
from app.models import Tenant
from app.problems import FieldError, field_error, invalid_request
from app.tenants import limits


def admit(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    *,
    test_cases: tuple[int, list[str | int]],
    metrics: tuple[int, list[str | int]],
) -> None:
    """Admit a new evaluation of any kind: the same size limits (LOUPE_MAX_TEST_CASES,
    LOUPE_MAX_METRICS) and the same tenant caps for all, one 422 naming each limit passed.

    Args:
        test_cases: how many it has, and the request field that made them.
        metrics: how many metrics the client sent, and the field that holds them.

    Call last, once the submission is known to be valid: the tenant row stays locked until
    commit.
    """
    (cases, cases_at), (specs, specs_at) = test_cases, metrics
    errors: list[FieldError] = []
    if cases > settings.max_test_cases:
        errors.append(
            field_error(
                cases_at,
                f"{cases} test cases; at most {settings.max_test_cases} (LOUPE_MAX_TEST_CASES)",
                "too_long",
            )
        )
    if specs > settings.max_metrics:
        errors.append(
            field_error(
                specs_at, f"at most {settings.max_metrics} metrics (LOUPE_MAX_METRICS)", "too_long"
            )
        )
    if errors:
        raise invalid_request(errors)
    limits.admit(session, tenant, kinds.counted_by_caps())
