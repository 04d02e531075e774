"""When an endpoint is turned off: its receiver answered 410 Gone, or every attempt has failed
for LOUPE_WEBHOOK_DISABLE_AFTER_HOURS (Standard Webhooks' advice, Svix's five days). Both go
through `disable`, so both leave the same state and the same audit trail."""

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app import audit
from app.config import Settings
from app.jsonio import utc_text
from app.models import WebhookEndpoint
from app.unscoped.webhook_deliveries import UnscopedDeliveryRepository

# The migration that added `disabled_reason` gives endpoints disabled before it these words.
GONE = "the receiver answered 410 Gone"


def after_attempt(
    session: Session,
    settings: Settings,
    endpoint: WebhookEndpoint,
    succeeded: bool,
    status_code: int | None,
    error: str | None,
    at: datetime,
) -> bool:
    """Record an attempt made at `at` on its endpoint's failing streak, and disable the endpoint
    when the attempt says to; True when it is off now (its events are given up, unsent)."""
    repo = UnscopedDeliveryRepository(session)
    if succeeded:
        repo.clear_failing(endpoint.id)
        return False
    found = _cause(settings, status_code, error, repo.mark_failing(endpoint.id, at), at)
    if found is None:
        return False
    reason, details = found
    # False when another job's attempt disabled it first: off all the same.
    disable(session, endpoint, reason, **details)
    return True


def _cause(
    settings: Settings,
    status_code: int | None,
    error: str | None,
    failing_since: datetime | None,
    at: datetime,
) -> tuple[str, dict[str, Any]] | None:
    """Why a failed attempt made at `at` disables its endpoint, with the audit event's details;
    None when it does not (its event is retried on the schedule)."""
    if status_code == 410:
        # The receiver asks us to stop (Standard Webhooks).
        return GONE, {"status_code": 410}
    hours = settings.webhook_disable_after_hours
    if failing_since is None or hours == 0:
        return None
    # In seconds, not a timedelta: a window of many years must not overflow one.
    if (at - failing_since).total_seconds() < hours * 3600:
        return None
    since = utc_text(failing_since)
    reason = (
        f"failed continuously since {since}, longer than LOUPE_WEBHOOK_DISABLE_AFTER_HOURS "
        f"({hours:g} h)"
    )
    last = f"HTTP {status_code}" if status_code is not None else (error or "no answer")[:200]
    return reason, {"failing_since": since, "last_attempt": last}


def disable(session: Session, endpoint: WebhookEndpoint, reason: str, **details: Any) -> bool:
    """Turn an enabled endpoint off for `reason`, on the record as the system's change; False
    when it was off already (another attempt's job got there first)."""
    if not UnscopedDeliveryRepository(session).disable_endpoint(endpoint.id, reason):
        return False
    audit.record(
        session,
        audit.SYSTEM,
        "webhook_endpoint.disable",
        "webhook_endpoint",
        endpoint.id,
        tenant_id=endpoint.tenant_id,
        url=endpoint.url,
        reason=reason,
        **details,
    )
    return True
