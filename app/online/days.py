"""A rule's evaluations of a UTC day: one per configuration (its metrics, judge and target), so
a PATCH changing what is judged applies to the calls taken after it, and a case is always judged
by metrics of its shape; and its daily budget, counting the calls taken and not judged yet."""

import hashlib
import json
import math
from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy.orm import Session

from app.db import utcnow
from app.evaluations import appending, estimate, judging
from app.evaluations.schemas import TERMINAL_STATUSES, JudgeConfig
from app.metric_versions import service as metric_versions
from app.metrics import MetricSpec, MetricSpecBase
from app.models import Evaluation, OnlineRule, Tenant
from app.online.repository import OnlineRuleRepository
from app.runtime import Runtime
from app.usage.service import Budget

KIND = "online"
_metric: TypeAdapter[MetricSpecBase] = TypeAdapter(MetricSpec)
_judge = TypeAdapter(JudgeConfig | None)


def config_of(rule: OnlineRule) -> str:
    """A digest of what the rule judges with: its metrics (thresholds and criteria included),
    its judge and its target. A day holds one evaluation per digest."""
    judged = {"metrics": rule.metrics, "judge": rule.judge, "target": rule.target}
    canonical = json.dumps(judged, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def open_day(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    rule: OnlineRule,
    day: str,
    days: OnlineRuleRepository | None = None,
) -> tuple[Evaluation, str | None]:
    """The rule's evaluation of `day` under its current configuration (made if need be, locked
    until commit) and the reason nothing may be appended to it now (`day_closed`,
    `over_budget`), if any."""
    days = days or OnlineRuleRepository(session, tenant.id)
    evaluation = _day_evaluation(session, tenant, rule, day, days, runtime)
    if evaluation.status in TERMINAL_STATUSES:
        return evaluation, "day_closed"
    budget = Budget(tenant.id, tenant.daily_usd)
    budget.refresh(session, utcnow())
    if budget.exhausted() or (
        rule.daily_usd is not None and days.spent(rule, day)[0] >= rule.daily_usd
    ):
        return evaluation, "over_budget"
    return evaluation, None


def within_budget(
    session: Session,
    runtime: Runtime,
    tenant: Tenant,
    rule: OnlineRule,
    evaluation: Evaluation,
    day: str,
    cases: Sequence[dict[str, Any]],
) -> int:
    """How many of these cases (in stored form, in order) the rule's `daily_usd` leaves room
    for today: what its days' judge calls cost so far, plus the results it still owes for
    calls taken and not judged yet, plus these cases, each at the cost the estimate gives the
    cases in hand. The last case let in may pass the cap by its own cost at most. All of them
    without a cap, or when a judge model has no price (the rule's `warnings` say so)."""
    if rule.daily_usd is None or not cases:
        return len(cases)
    specs = [_metric.validate_python(spec) for spec in evaluation.metrics]
    found = estimate.estimate(
        runtime.settings,
        specs,
        [estimate.metric_case({**case, "index": index}) for index, case in enumerate(cases)],
        evaluation.judge,
        # Images are counted at the most an image costs: an upper bound.
        image_sizes=lambda _url: None,
        cache=False,
    )
    if found.usd is None or found.usd <= 0:
        return len(cases)
    per_case = found.usd / len(cases)
    spent, owed = OnlineRuleRepository(session, tenant.id).spent(rule, day)
    committed = spent + owed * per_case / max(1, len(specs))
    room = rule.daily_usd - committed
    if room <= 0:
        return 0
    return min(len(cases), math.ceil(room / per_case))


def _day_evaluation(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    day: str,
    days: OnlineRuleRepository,
    runtime: Runtime,
) -> Evaluation:
    """The rule's evaluation of `day` under its configuration, made on its first judged call,
    locked until commit; two requests making it at once both end up with the one made first."""
    config = config_of(rule)
    evaluation = _made_day(session, tenant, rule, day, config, days)
    if evaluation is not None:
        return evaluation
    specs = [_metric.validate_python(spec) for spec in rule.metrics]
    record, _ = judging.resolve(
        session,
        tenant.id,
        runtime.settings,
        specs,
        _judge.validate_python(rule.judge),
        judge_path=["judge"],
        metric_path=["metrics"],
    )
    # A day's later configurations are numbered in its name: "support bot · 2026-11-28 (2)".
    earlier = days.day_count(rule, day)
    evaluation = appending.open_evaluation(
        session,
        tenant,
        kind=KIND,
        name=f"{rule.name} · {day}" + (f" ({earlier + 1})" if earlier else ""),
        metadata={"online_rule_id": rule.id, "day": day, "config": config},
        metrics=rule.metrics,
        # Each judged metric's version, its row stored (issue 29).
        judge=metric_versions.with_versions(session, tenant.id, specs, record),
    )
    if days.add_day(rule, day, config, evaluation.id):
        return evaluation
    # Another request made the day first: the evaluation just made goes, theirs is used.
    appending.discard(session, evaluation)
    existing = _made_day(session, tenant, rule, day, config, days)
    if existing is None:  # pragma: no cover - the day made first is committed and stays
        raise LookupError(f"rule {rule.id} has no evaluation of {day}")
    return existing


def _made_day(
    session: Session,
    tenant: Tenant,
    rule: OnlineRule,
    day: str,
    config: str,
    days: OnlineRuleRepository,
) -> Evaluation | None:
    """The rule's evaluation of `day` under `config` if it is made, locked until commit."""
    evaluation_id = days.evaluation_id(rule, day, config)
    if evaluation_id is None:
        return None
    return appending.lock(session, tenant.id, evaluation_id)
