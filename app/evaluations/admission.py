"""Admission of a new evaluation of any kind: one step, the same limits for every kind."""

from sqlalchemy.orm import Session

from app.config import Settings
from app.evaluations import kinds
from app.models import Tenant
from app.problems import FieldError, field_error, invalid_request
from app.tenants import limits

Counted = tuple[int, list[str | int]]


def size_problems(
    settings: Settings, *, test_cases: Counted | None = None, metrics: Counted | None = None
) -> list[FieldError]:
    """What passes the operator's size limits (LOUPE_MAX_TEST_CASES, LOUPE_MAX_METRICS): the
    one statement of them that every kind's submission, rule and eval checks against.

    Args:
        test_cases: how many test cases, and the request field that chose them.
        metrics: how many metrics (criteria), and the request field that holds them.
    """
    errors: list[FieldError] = []
    if test_cases is not None and test_cases[0] > settings.max_test_cases:
        errors.append(
            field_error(
                test_cases[1],
                f"{test_cases[0]} test cases; at most {settings.max_test_cases} "
                "(LOUPE_MAX_TEST_CASES)",
                "too_long",
            )
        )
    if metrics is not None and metrics[0] > settings.max_metrics:
        errors.append(
            field_error(
                metrics[1],
                f"{metrics[0]} metrics; at most {settings.max_metrics} (LOUPE_MAX_METRICS)",
                "too_long",
            )
        )
    return errors


def admit(
    session: Session,
    tenant: Tenant,
    settings: Settings,
    *,
    test_cases: Counted,
    metrics: Counted,
    lock: bool = True,
) -> None:
    """Admit a new evaluation of any kind: the same size limits (`size_problems`) and the same
    tenant caps for all, one 422 naming each limit passed.

    Args:
        test_cases: how many it has, and the request field that made them.
        metrics: how many metrics the client sent, and the field that holds them.

    Call last, once the submission is known to be valid: the tenant row stays locked until
    commit. `lock=False` checks before paid work (an alignment's notes call), unlocked; the
    locked check follows it.
    """
    errors = size_problems(settings, test_cases=test_cases, metrics=metrics)
    if errors:
        raise invalid_request(errors)
    limits.admit(session, tenant, kinds.counted_by_caps(), lock=lock)
