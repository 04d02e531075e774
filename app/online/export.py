"""Scores back out: each stored result of an online rule becomes a `gen_ai.evaluation.result`
log record (app/online/emitter.py) sent to the rule's collector, its own `export_endpoint` (with
its `export_headers`, decrypted here and nowhere else) or the operator's
LOUPE_OTLP_EXPORT_ENDPOINT.

At least once, never lost: a rule's cursor (the last result id exported; ids sort by time)
moves only after the collector accepted the batch up to it. A failed batch leaves it where it
was and the rule waits (backing off, at most `MAX_BACKOFF_SECONDS`) before the next try, so a
collector that is away costs time, not events. The ticker enqueues one job per rule with new
results; a lease on the rule keeps two jobs from sending the same results at once.
"""

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import httpx

from app.config import Settings
from app.crypto import SecretUnavailable
from app.db import utcnow
from app.media.netguard import (
    AddressPolicy,
    BlockedAddress,
    InvalidHost,
    IPAddress,
    resolve_sync,
    url_host,
)
from app.models import OnlineRule, Result
from app.online import export_headers
from app.online.emitter import Evaluated, send
from app.online.jobs import EXPORT_RESULTS
from app.runtime import Runtime
from app.telemetry.metrics import ONLINE_EXPORTS
from app.unscoped.online_exports import UnscopedOnlineExportRepository

logger = logging.getLogger("loupe.online.export")

# Records per export request: well under the exporter's 64 MiB request cap with long reasons.
BATCH_SIZE = 512
# Batches one job sends before leaving the rest to the next tick's job (other rules wait).
MAX_BATCHES = 16
MAX_BACKOFF_SECONDS = 300.0
# A lease outlives the exporter's deadline by this much before another job may take the rule.
_LEASE_MARGIN_SECONDS = 30.0


@dataclass(frozen=True)
class Destination:
    """Where a rule's events go, and with which headers."""

    base_url: str
    headers: dict[str, str]
    # A tenant's endpoint: checked under the webhook address policy before each export, sent
    # to the checked address only, and sent none of the operator's headers; its own
    # `export_headers` (`headers`) when this process's key opens them.
    own: bool
    # The rule's own headers could not be opened (LOUPE_SECRET_KEY changed): nothing is sent.
    unreadable: bool = False


def destination(rule: OnlineRule, settings: Settings) -> Destination | None:
    """The rule's collector: its own endpoint, else the operator's; None: it does not export."""
    if rule.export_endpoint:
        try:
            headers = export_headers.opened(rule, settings)
        except SecretUnavailable:
            return Destination(rule.export_endpoint, {}, own=True, unreadable=True)
        return Destination(rule.export_endpoint, headers, own=True)
    if settings.otlp_export_endpoint:
        return Destination(
            settings.otlp_export_endpoint, settings.otlp_export_header_map(), own=False
        )
    return None


def settled_before(settings: Settings) -> str:
    """Result ids below this one are old enough to export: a result id is issued before its
    job commits it, so a younger one may still be joined by an older one committed later."""
    millis = int((time.time() - settings.otlp_export_delay_seconds) * 1000)
    return f"res_{max(millis, 0):012x}"


def enqueue_due(runtime: Runtime) -> int:
    """Enqueue an export job for each rule with results to send; how many (the ticker's)."""
    settings = runtime.settings
    with runtime.session() as session:
        due = UnscopedOnlineExportRepository(session).due_rules(
            utcnow(), settled_before(settings), default_endpoint=bool(settings.otlp_export_endpoint)
        )
    for rule_id, tenant_id in due:
        EXPORT_RESULTS.enqueue(runtime, rule_id, job_id=f"export_{rule_id}", owner=tenant_id)
    return len(due)


def export_results(runtime: Runtime, rule_id: str) -> None:
    """Send the rule's settled results past its cursor, a batch at a time, until none is left
    (or `MAX_BATCHES` were sent, or one failed)."""
    for _ in range(MAX_BATCHES):
        if not _export_batch(runtime, rule_id):
            return


def _export_batch(runtime: Runtime, rule_id: str) -> bool:
    """Send one batch; True when it was full and accepted (more may be waiting)."""
    settings = runtime.settings
    now = utcnow()
    with runtime.session() as session:
        repo = UnscopedOnlineExportRepository(session)
        rule = repo.rule(rule_id)
        target = destination(rule, settings) if rule is not None else None
        if rule is None or target is None:
            return False
        lease = timedelta(seconds=settings.otlp_export_timeout_seconds + _LEASE_MARGIN_SECONDS)
        if not repo.claim(rule_id, now, now + lease):
            session.rollback()
            return False
        cursor, failures = rule.export_cursor, rule.export_failures
        rows = repo.pending(rule_id, cursor, settled_before(settings), BATCH_SIZE)
        session.commit()
    events = [evaluated(rule_id, result, metadata) for result, metadata in rows]
    accepted = not events or _deliver(rule_id, target, events, settings)
    with runtime.session() as session:
        repo = UnscopedOnlineExportRepository(session)
        if accepted:
            repo.exported(rule_id, events[-1].result_id if events else None)
        else:
            repo.failed(rule_id, utcnow() + backoff(settings, failures))
        session.commit()
    ONLINE_EXPORTS.labels("exported" if accepted else "failed").inc(len(events))
    return accepted and len(events) == BATCH_SIZE


def backoff(settings: Settings, failures: int) -> timedelta:
    """How long a rule waits after its `failures + 1`th failed export in a row."""
    seconds = min(settings.tick_seconds * 2 ** min(failures, 32), MAX_BACKOFF_SECONDS)
    return timedelta(seconds=seconds)


def checked_address(url: str, settings: Settings) -> IPAddress:
    """The address a rule's own endpoint is sent to: its host resolved once, every address it
    resolved to checked under the webhook policy (LOUPE_WEBHOOK_ALLOW), the first one taken.

    Raises BlockedAddress (refused, or no address) or InvalidHost.
    """
    try:
        target = httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise InvalidHost(str(exc)) from exc
    port = target.port or (443 if target.scheme == "https" else 80)
    policy = AddressPolicy.for_purpose(settings, "webhook")
    return resolve_sync(url_host(target), port, policy)[0]


def _deliver(
    rule_id: str, target: Destination, events: list[Evaluated], settings: Settings
) -> bool:
    address: IPAddress | None = None
    if target.unreadable:
        # Sent without its key, the export would only be refused: the results wait, as a
        # webhook's unsigned attempt does, until the headers are set again (or the key is back).
        logger.warning(
            "online rule %s: export held back: its export_headers cannot be decrypted "
            "(LOUPE_SECRET_KEY differs from the one they were stored with); set them again",
            rule_id,
        )
        return False
    if target.own:
        # DNS may have changed since the rule was saved (rebinding): checked again, and the
        # export connects to the address checked, not to whatever the name resolves to next.
        try:
            address = checked_address(target.base_url, settings)
        except (BlockedAddress, InvalidHost) as refused:
            logger.warning("online rule %s: export endpoint refused: %s", rule_id, refused)
            return False
    try:
        accepted = send(
            target.base_url,
            events,
            target.headers,
            settings.otlp_export_timeout_seconds,
            pinned_to=address,
        )
    except Exception:
        # Whatever went wrong, the cursor stays: the next job sends the same results.
        logger.exception("online rule %s: export failed", rule_id)
        return False
    if not accepted:
        logger.warning(
            "online rule %s: the collector did not accept %d events; they are sent again",
            rule_id,
            len(events),
        )
    return accepted


def evaluated(rule_id: str, result: Result, metadata: dict[str, Any] | None) -> Evaluated:
    """A stored result as its event."""
    error = result.error or {}
    created: datetime | None = result.created_at
    return Evaluated(
        result_id=result.id,
        rule_id=rule_id,
        metric=result.metric,
        score=result.score,
        passed=result.passed,
        reason=result.reason,
        error_type=error.get("type") or ("_OTHER" if result.error else None),
        error_message=error.get("message"),
        trace_id=(metadata or {}).get("trace_id"),
        span_id=(metadata or {}).get("span_id"),
        response_id=(metadata or {}).get("response_id"),
        time_unix_nano=int(created.timestamp() * 1_000_000_000) if created else None,
    )
