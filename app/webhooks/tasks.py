"""What webhook jobs do: attempt a delivery, and find deliveries that are due."""

from app.runtime import Runtime
from app.webhooks import service


def deliver_event(runtime: Runtime, event_id: str) -> None:
    """Attempt one delivery of a due event; a no-op when it is not due or already taken."""
    with runtime.session() as session:
        claimed = service.claim(session, event_id, runtime.settings)
        session.commit()
        if not claimed:
            return
        service.deliver(session, event_id, runtime.settings)
        session.commit()


def enqueue_due(runtime: Runtime) -> int:
    """Enqueue a delivery job for every event whose next attempt is due."""
    with runtime.session() as session:
        event_ids = service.due_event_ids(session)
    for event_id in event_ids:
        runtime.dispatcher.enqueue(
            "workers.jobs.deliver_webhook", event_id, job_id=f"deliver_{event_id}"
        )
    return len(event_ids)
