"""The webhooks' background jobs, as typed handles (their entry points: `workers.jobs`)."""

from app.outbox import Job

# Delivers one stored event to its endpoint: (event_id,).
DELIVER_WEBHOOK = Job("workers.jobs.deliver_webhook")
