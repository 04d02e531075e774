"""What webhook jobs do: attempt a delivery, and find deliveries that are due."""

from app.runtime import Runtime
from app.telemetry.metrics import WEBHOOK_DELIVERIES
from app.unscoped.webhook_deliveries import UnscopedDeliveryRepository
from app.webhooks import service
from app.webhooks.jobs import DELIVER_WEBHOOK


def deliver_event(runtime: Runtime, event_id: str) -> None:
    """Attempt one delivery of a due event; a no-op when it is not due or already taken."""
    with runtime.session() as session:
        claimed = service.claim(session, event_id, runtime.settings)
        session.commit()
        if not claimed:
            return
        delivery = service.deliver(session, event_id, runtime.settings)
        event = UnscopedDeliveryRepository(session).event(event_id)
        session.commit()
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
