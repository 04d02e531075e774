"""Webhook events and endpoints by id, for the delivery job and the ticker."""

from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.models import WebhookDelivery, WebhookEndpoint, WebhookEvent


class UnscopedDeliveryRepository:
    """Unscoped access for the delivery job and the ticker, which act on event ids."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def event(self, event_id: str) -> WebhookEvent | None:
        return self.session.get(WebhookEvent, event_id, populate_existing=True)

    def endpoint(self, endpoint_id: str) -> WebhookEndpoint | None:
        return self.session.get(WebhookEndpoint, endpoint_id)

    def claim(self, event_id: str, now: datetime, lease_until: datetime) -> bool:
        """Take a due pending event for one delivery attempt; False if not due or taken."""
        outcome = self.session.execute(
            update(WebhookEvent)
            .where(
                WebhookEvent.id == event_id,
                WebhookEvent.status == "pending",
                WebhookEvent.next_attempt_at <= now,
            )
            .values(next_attempt_at=lease_until)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def due_event_ids(self, now: datetime, limit: int = 100) -> list[str]:
        return list(
            self.session.scalars(
                select(WebhookEvent.id)
                .where(WebhookEvent.status == "pending", WebhookEvent.next_attempt_at <= now)
                .order_by(WebhookEvent.next_attempt_at)
                .limit(limit)
            )
        )

    def disable_endpoint(self, endpoint_id: str, reason: str) -> bool:
        """Turn an enabled endpoint off for `reason`; False when it was off already (or is gone)."""
        outcome = self.session.execute(
            update(WebhookEndpoint)
            .where(WebhookEndpoint.id == endpoint_id, WebhookEndpoint.enabled.is_(True))
            .values(enabled=False, disabled_reason=reason)
        )
        return outcome.rowcount == 1  # type: ignore[attr-defined]

    def mark_failing(self, endpoint_id: str, at: datetime) -> datetime | None:
        """Start the endpoint's failing streak at `at` unless one is under way; returns its
        start (None when the endpoint is gone)."""
        # Conditional, so of two attempts failing at once the first to commit sets it.
        self.session.execute(
            update(WebhookEndpoint)
            .where(WebhookEndpoint.id == endpoint_id, WebhookEndpoint.failing_since.is_(None))
            .values(failing_since=at)
        )
        return self.session.scalar(
            select(WebhookEndpoint.failing_since).where(WebhookEndpoint.id == endpoint_id)
        )

    def clear_failing(self, endpoint_id: str) -> None:
        """End the endpoint's failing streak: an attempt succeeded."""
        # Only a failing endpoint's row is written: a healthy one's successes take no row lock.
        self.session.execute(
            update(WebhookEndpoint)
            .where(WebhookEndpoint.id == endpoint_id, WebhookEndpoint.failing_since.is_not(None))
            .values(failing_since=None)
        )

    def delete_finished_before(self, before_id: str, limit: int) -> int:
        """Delete up to `limit` of every tenant's delivered or given-up events whose ids sort
        below `before_id`, with their delivery attempts (retention); returns how many went.

        Ids sort by creation time, so "created before" is a range of the primary key: a tick
        with nothing to delete reads no younger event.
        """
        event_ids = list(
            self.session.scalars(
                select(WebhookEvent.id)
                .where(
                    WebhookEvent.id < before_id,
                    WebhookEvent.status.in_(("delivered", "failed")),
                )
                .order_by(WebhookEvent.id)
                .limit(limit)
            )
        )
        if not event_ids:
            return 0
        self.session.execute(delete(WebhookDelivery).where(WebhookDelivery.event_id.in_(event_ids)))
        self.session.execute(delete(WebhookEvent).where(WebhookEvent.id.in_(event_ids)))
        return len(event_ids)
