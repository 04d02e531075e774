"""Console pages for production traffic: the tenant's online rules, and a rule's page with its
filter, sampling and budget, its counters with each skip reason in words, each metric's trend
(drawn here as inline SVG, no script) and its latest judged calls.

The one console module besides run_pages.py that names a kind's package: these are the online
kind's own pages, as `/v1/online_rules` is its own API; they call its services only. An admin's
forms on these pages are answered by online_admin_pages.py.
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.api.query import id_cursor
from app.console._render import SignedIn, page
from app.console.auth import ConsoleSession
from app.online import reads, service, trend
from app.online.schemas import MetricTrend, TrendPoint
from app.runtime import Runtime

router = APIRouter(prefix="/console", include_in_schema=False)

PAGE_SIZE = 25
CALLS = 10
# The trend chart's drawing area (SVG user units): the plot sits inside the margins.
WIDTH, HEIGHT = 600, 150
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 8, 22


@router.get("/online_rules", name="online_rules_page")
def online_rules_page(
    request: Request,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    after: str | None = None,
) -> HTMLResponse:
    return rules_page(request, session, runtime, signed_in, after)


def rules_page(
    request: Request,
    session: Session,
    runtime: Runtime,
    signed_in: ConsoleSession,
    after: str | None = None,
    status_code: int = 200,
    **extra: Any,
) -> HTMLResponse:
    """The rules list; `extra` (an admin's new-rule form, its values and errors) goes to its
    template."""
    rules, has_more = reads.rules_page(
        session, signed_in.tenant, id_cursor(after or None, "rule"), PAGE_SIZE, runtime.settings
    )
    return page(
        request,
        "online_rules.html",
        signed_in,
        status_code=status_code,
        rules=rules,
        has_more=has_more,
        **extra,
    )


@router.get("/online_rules/{rule_id}", name="online_rule_page")
def online_rule_page(
    request: Request,
    rule_id: str,
    session: SessionDep,
    runtime: RuntimeDep,
    signed_in: SignedIn,
    bucket: str | None = None,
) -> HTMLResponse:
    return rule_page(request, session, runtime, signed_in, rule_id, bucket)


def rule_page(
    request: Request,
    session: Session,
    runtime: Runtime,
    signed_in: ConsoleSession,
    rule_id: str,
    bucket: str | None = None,
    status_code: int = 200,
    **extra: Any,
) -> HTMLResponse:
    """A rule's page; `extra` (an admin's settings form, its values and errors) goes to its
    template."""
    tenant = signed_in.tenant
    stored = service.get_or_404(session, tenant, rule_id)
    query = trend.parse(stored, None, bucket, None, None)
    shown = trend.trend(session, tenant, stored, query)
    # The charts start a bucket before the earliest point shown, not at the trend's start: two
    # days of hours with results in the last few would otherwise crowd them at the right edge.
    firsts = [m.points[0].bucket_start for m in shown.metrics if m.points]
    start = max(shown.since, min(firsts) - trend.BUCKETS[shown.bucket]) if firsts else shown.since
    return page(
        request,
        "online_rule.html",
        signed_in,
        status_code=status_code,
        rule=service.to_schema(session, tenant, stored, runtime.settings),
        skip_words=reads.skip_words,
        trend=shown,
        charts={m.metric: chart(m, start, shown.until) for m in shown.metrics},
        calls=reads.latest_calls(session, tenant, rule_id, CALLS),
        **extra,
    )


@dataclass(frozen=True)
class Mark:
    """One bucket on a chart: its point, its interval's ends (None: no interval), its title."""

    x: float
    y: float
    low: float | None
    high: float | None
    title: str


@dataclass(frozen=True)
class Series:
    label: str
    marks: list[Mark]
    line: str


@dataclass(frozen=True)
class Chart:
    """A metric's mean and pass rate in SVG user units, and its axis labels."""

    mean: Series
    pass_rate: Series
    axis: dict[str, str]
    ticks: list[tuple[float, str]]


def chart(metric: MetricTrend, since: datetime, until: datetime) -> Chart:
    low, high = metric.bounds
    span = (until - since).total_seconds() or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(point: TrendPoint) -> float:
        return round(LEFT + plot_w * (point.bucket_start - since).total_seconds() / span, 1)

    def y(value: float, lo: float, hi: float) -> float:
        share = (value - lo) / (hi - lo) if hi > lo else 0.5
        return round(TOP + plot_h * (1 - min(1.0, max(0.0, share))), 1)

    def series(label: str, values: list[tuple[TrendPoint, float | None, tuple | None]]) -> Series:
        lo, hi = (low, high) if label == "mean" else (0.0, 1.0)
        marks = [
            Mark(
                x(p),
                y(v, lo, hi),
                y(ci[0], lo, hi) if ci else None,
                y(ci[1], lo, hi) if ci else None,
                f"{p.bucket_start:%Y-%m-%d %H:%M} UTC · {label} {v:.3g}"
                + (f" (95% interval {ci[0]:.3g}–{ci[1]:.3g})" if ci else "")
                + f" · {p.count} results",
            )
            for p, v, ci in values
            if v is not None
        ]
        return Series(label, marks, " ".join(f"{m.x},{m.y}" for m in marks))

    mean = series("mean", [(p, p.mean, p.mean_ci95) for p in metric.points])
    rate = series("pass rate", [(p, p.pass_rate, p.pass_rate_ci95) for p in metric.points])
    return Chart(
        mean,
        rate,
        axis={"low": f"{low:g}", "high": f"{high:g}"},
        ticks=[
            (LEFT, f"{since:%m-%d %H:%M}"),
            (WIDTH - RIGHT, f"{until:%m-%d %H:%M}"),
        ],
    )
