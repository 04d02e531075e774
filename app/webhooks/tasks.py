"""What webhook jobs do: attempt a delivery, find deliveries that are due, and delete
finished events past LOUPE_RETENTION_DAYS."""

import logging
from datetime import timedelta

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from app.db import utcnow
from app.ids import id_floor
from app.runtime import Runtime
from app.telemetry.metrics import WEBHOOK_DELIVERIES
from app.unscoped.webhook_deliveries import UnscopedDeliveryRepository
from app.webhooks import service
from app.webhooks.jobs import DELIVER_WEBHOOK

logger = logging.getLogger("loupe.webhooks")

# Events deleted a transaction: a backlog (retention newly set) goes over successive ticks.
_PRUNE_BATCH = 5000


def deliver_event(runtime: Runtime, event_id: str) -> None:
    """Attempt one delivery of a due event; a no-op when it is not due or already taken."""
    with runtime.session() as session:
        claimed = service.claim(session, event_id, runtime.settings)
        session.commit()
        if not claimed:
            return
        try:
            delivery = service.deliver(session, event_id, runtime.settings)
            event = UnscopedDeliveryRepository(session).event(event_id)
            session.commit()
        except (IntegrityError, StaleDataError):
            session.rollback()
            if UnscopedDeliveryRepository(session).event(event_id) is not None:
                raise
            # Its endpoint was deleted (and the event with it) while the receiver answered:
            # nothing is left to record the attempt on.
            logger.info("webhook event %s went with its endpoint during its attempt", event_id)
            return
    if delivery is not None:
        # delivered; failed (another attempt is scheduled); gave_up (no attempt is left).
        if delivery.succeeded:
            outcome = "delivered"
        else:
            outcome = "gave_up" if event is not None and event.status == "failed" else "failed"
        WEBHOOK_DELIVERIES.labels(outcome).inc()


def enqueue_due(runtime: Runtime) -> int:
    """Enqueue a delivery job for every event whose next attempt is due."""
    with runtime.session() as session:
        event_ids = service.due_event_ids(session)
    for event_id in event_ids:
        DELIVER_WEBHOOK.enqueue(runtime, event_id, job_id=f"deliver_{event_id}")
    return len(event_ids)


def prune_expired(runtime: Runtime) -> int:
    """Delete delivered and given-up events created longer ago than LOUPE_RETENTION_DAYS, with
    their delivery attempts; returns how many events went.

    An event's body copies its evaluation's name, metadata and counts, so it must not outlive
    the evaluation retention deletes (created as the evaluation finished, it expires with it).
    An event still owed to its receiver stays until it is delivered or given up.
    """
    days = runtime.settings.retention_days
    if days is None:
        return 0
    cutoff = utcnow() - timedelta(days=days)
    with runtime.session() as session:
        deleted = UnscopedDeliveryRepository(session).delete_finished_before(
            id_floor("msg", cutoff), _PRUNE_BATCH
        )
        session.commit()
    if deleted:
        logger.info("deleted %d webhook events past LOUPE_RETENTION_DAYS", deleted)
    return deleted
