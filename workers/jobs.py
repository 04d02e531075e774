"""RQ job entry points: ids in, work done through the process's runtime.

The embedded worker calls these same functions, so both modes score the same way.
"""

from app import audit, idempotency, kinds
from app.db import utcnow
from app.evaluations import recovery
from app.evaluations import tasks as evaluation_tasks
from app.online import alerts as online_alerts
from app.online import conversations as online_conversations
from app.online import export as online_export
from app.online import ingest as online_ingest
from app.runtime import Runtime, current
from app.tenants import repository as tenants
from app.webhooks import tasks as webhook_tasks

# A job process scores every kind (RQ imports this module before it runs a job).
kinds.install()


def score_slice(evaluation_id: str, start: int, stop: int, turn: int = 0) -> None:
    evaluation_tasks.score_slice(current(), evaluation_id, start, stop, turn)


def deliver_webhook(event_id: str) -> None:
    webhook_tasks.deliver_event(current(), event_id)


def export_online_results(rule_id: str) -> None:
    online_export.export_results(current(), rule_id)


def tick(runtime: Runtime | None = None) -> None:
    """Periodic upkeep: recover stuck evaluations, delete those past LOUPE_RETENTION_DAYS (and
    finished webhook events as old), send due webhooks, online rules' new scores, alerts and
    idle conversations, prune idempotency keys, console sign-outs whose cookies have expired
    and audit events past LOUPE_AUDIT_RETENTION_DAYS. On `runtime` (a ticker's own), else the
    process's current one."""
    runtime = runtime or current()
    recovery.requeue_unqueued(runtime)
    recovery.sweep(runtime)
    recovery.resume_lapsed(runtime)
    recovery.prune_expired(runtime)
    webhook_tasks.prune_expired(runtime)
    webhook_tasks.enqueue_due(runtime)
    # Online rules' new results go out as OpenTelemetry events (never waiting on a collector).
    online_export.enqueue_due(runtime)
    # Rules whose metric's pass rate is (no longer) below their alert's threshold tell a webhook.
    online_alerts.check_all(runtime)
    # Spans that waited their join window for log records in vain are counted as they stand.
    online_ingest.expire_pending(runtime)
    # Conversations idle LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS become one test case each.
    online_conversations.sweep(runtime)
    with runtime.session() as session:
        idempotency.prune(session, runtime.settings.idempotency_retention_hours)
        audit.prune(session, runtime.settings.audit_retention_days)
        tenants.prune_signed_out_sessions(session, utcnow())
        session.commit()
