"""A rule's alert: a Standard Webhooks `online_rule.alert` when a metric's pass rate over the
last hours is below the rule's threshold with confidence, and `online_rule.alert_resolved`
when it no longer is, each once per episode.

Read from the hourly rollups (`online_rollup`, kept as results are stored), never from the
results: the window's passed and failed verdicts give the pass rate and its Wilson 95%
interval. An episode starts when the interval's upper bound is below the threshold (a bad call
or two leave the interval too wide to say so) and ends when the upper bound is back at or above
it; with fewer than two verdicts in the window nothing changes. The episode's start is stored
on the rule (`alert_since`), set and cleared by conditional updates in the transaction that
stores the event, so several tickers and restarts send each start and end once. The ticker
checks the rules with an alert (never a request)."""

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations.checks import Findings
from app.jsonio import utc_text
from app.models import OnlineRule
from app.online.schemas import Alert, AlertSettings
from app.problems import FieldError
from app.runtime import Runtime
from app.stats import wilson_interval
from app.unscoped.online_alerts import UnscopedOnlineAlertRepository
from app.webhooks import service as webhook_service
from app.webhooks.jobs import DELIVER_WEBHOOK

logger = logging.getLogger("loupe.online.alerts")

ALERT = "online_rule.alert"
RESOLVED = "online_rule.alert_resolved"


def problems(
    session: Session,
    tenant_id: str,
    alert: Mapping[str, Any] | None,
    metric_names: list[str] | None,
) -> list[FieldError]:
    """What is wrong with an alert beyond its schema: a metric the rule does not have (not
    checked when `metric_names` is None: the rule's metrics are unknown), a URL no endpoint of
    the tenant's has. `alert` may be a raw body that failed its schema."""
    findings = Findings()
    if not isinstance(alert, Mapping):
        return []
    metric = alert.get("metric")
    if isinstance(metric, str) and metric_names is not None and metric not in metric_names:
        findings.add(
            ["alert", "metric"],
            f"{metric[:80]!r} is not a metric of this rule (it has: {', '.join(metric_names)})",
            "unknown_metric",
        )
    url = alert.get("webhook_url")
    if isinstance(url, str) and url:
        _, unregistered = webhook_service.registered(
            session, tenant_id, url, ["alert", "webhook_url"]
        )
        if unregistered is not None:
            findings.extend([unregistered])
    return findings.errors


def stored(alert: AlertSettings | None) -> dict[str, Any] | None:
    return alert.model_dump() if alert is not None else None


def apply(rule: OnlineRule, alert: AlertSettings | None) -> None:
    """Set the rule's alert; a changed one starts with no episode (the same one keeps its own)."""
    value = stored(alert)
    if value != rule.alert:
        rule.alert = value
        rule.alert_since = None


def to_schema(rule: OnlineRule) -> Alert | None:
    if not rule.alert:
        return None
    return Alert(**rule.alert, firing_since=rule.alert_since)


@dataclass(frozen=True)
class Window:
    """A metric's verdicts over an alert's window, and what they say."""

    start: datetime
    end: datetime
    passed: int
    failed: int
    interval: tuple[float, float] | None

    @property
    def count(self) -> int:
        return self.passed + self.failed

    @property
    def pass_rate(self) -> float | None:
        return self.passed / self.count if self.count else None


def window(repo: UnscopedOnlineAlertRepository, rule: OnlineRule, now: datetime) -> Window:
    """The alert metric's verdicts in the last `window_hours` UTC hours (the current included)."""
    assert rule.alert is not None
    end = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    start = end - timedelta(hours=int(rule.alert["window_hours"]))
    passed, failed = repo.verdicts(rule.id, rule.alert["metric"], start, end)
    return Window(start, end, passed, failed, wilson_interval(passed, passed + failed))


def check_all(runtime: Runtime) -> int:
    """Check every rule with an alert (the ticker's); how many events were stored."""
    events: list[str] = []
    with runtime.session() as session:
        rule_ids = UnscopedOnlineAlertRepository(session).rules_with_alerts()
    for rule_id in rule_ids:
        try:
            event_id = check(runtime, rule_id)
        except Exception:
            # One rule's failure must not keep the others from being checked.
            logger.exception("online rule %s: alert check failed", rule_id)
            continue
        if event_id is not None:
            events.append(event_id)
    for event_id in events:
        try:
            # Tried once: the ticker's sweep of due events queues it once Redis is back.
            DELIVER_WEBHOOK.enqueue(runtime, event_id, job_id=f"deliver_{event_id}", patience=0)
        except Exception:
            # Stored: the ticker's due-webhook sweep sends it.
            logger.warning("webhook event %s is stored; the ticker will deliver it", event_id)
    return len(events)


def check(runtime: Runtime, rule_id: str) -> str | None:
    """Start or end the rule's episode if its window says so; the event stored, if any."""
    now = utcnow()
    with runtime.session() as session:
        repo = UnscopedOnlineAlertRepository(session)
        rule = repo.rule(rule_id)
        if rule is None or not rule.alert:
            return None
        seen = window(repo, rule, now)
        if seen.interval is None:
            return None
        threshold = float(rule.alert["threshold"])
        below = seen.interval[1] < threshold
        if below and rule.alert_since is None:
            if not repo.start(rule_id, now):
                session.rollback()
                return None
            event_type, since = ALERT, now
        elif not below and rule.alert_since is not None:
            # Read before the update, which clears it on the loaded rule too.
            since = rule.alert_since
            if not repo.end(rule_id):
                session.rollback()
                return None
            event_type = RESOLVED
        else:
            return None
        endpoint = webhook_service.endpoint_for_url(
            session, rule.tenant_id, rule.alert["webhook_url"]
        )
        event_id = None
        if endpoint is None:
            # Deleted or disabled since the alert was set: the episode is kept, nobody told.
            logger.warning(
                "online rule %s: %s not sent: %s is no registered webhook endpoint",
                rule_id,
                event_type,
                rule.alert["webhook_url"],
            )
        else:
            data = payload(rule, seen, since, now if event_type == RESOLVED else None)
            event_id = webhook_service.emit(
                session, rule.tenant_id, endpoint.id, event_type, data
            ).id
        session.commit()
    logger.info("online rule %s: %s", rule_id, event_type)
    return event_id


def payload(
    rule: OnlineRule, seen: Window, since: datetime, resolved_at: datetime | None
) -> dict[str, Any]:
    """A thin body (Standard Webhooks advice): the rule, the alert and the window's numbers."""
    assert rule.alert is not None
    data: dict[str, Any] = {
        "object": "online_rule_alert",
        "rule_id": rule.id,
        "rule_name": rule.name,
        "metric": rule.alert["metric"],
        "threshold": rule.alert["threshold"],
        "window_hours": rule.alert["window_hours"],
        "window_start": utc_text(seen.start),
        "window_end": utc_text(seen.end),
        "pass_rate": seen.pass_rate,
        "pass_rate_ci95": list(seen.interval) if seen.interval else None,
        "count": seen.count,
        "passed": seen.passed,
        "failed": seen.failed,
        "since": utc_text(since),
    }
    if resolved_at is not None:
        data["resolved_at"] = utc_text(resolved_at)
    return data
