"""Console pages for production traffic: the tenant's online rules, and a rule's page with its
filter, sampling and budget, its counters with each skip reason in words, each metric's trend
(drawn here as inline SVG, no script) and its latest judged calls.

The one console module besides run_pages.py that names a kind's package: these are the online
kind's own pages, as `/v1/online_rules` is its own API; they call its services only. An admin's
forms on these pages are answered by online_admin_pages.py.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.api.query import id_cursor
from app.console._render import SignedIn, page
from app.console.auth import ConsoleSession
from app.online import reads, service, trend
from app.online.trend_schemas import MetricTrend, TrendPoint
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
    width = trend.BUCKETS[shown.bucket]
    return page(
        request,
        "online_rule.html",
        signed_in,
        status_code=status_code,
        rule=service.to_schema(session, tenant, stored, runtime.settings),
        skip_words=reads.skip_words,
        drop_words=reads.drop_words,
        trend=shown,
        charts={m.metric: chart(m, shown.since, shown.until, width) for m in shown.metrics},
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
    """A chart's marks and its lines: one per run of consecutive buckets with a value, so an
    empty bucket is a gap in the line, not a slope across it."""

    label: str
    marks: list[Mark]
    lines: list[str]


@dataclass(frozen=True)
class Chart:
    """A metric's mean and pass rate in SVG user units, and its axis labels."""

    mean: Series
    pass_rate: Series
    axis: dict[str, str]
    ticks: list[tuple[float, str, str]]


# A bucket as a series reads it: its point, its value, its interval and its note.
Bucket = tuple[TrendPoint, float | None, Any, str | None]
# The axis's labels say the window as the page's heading does.
MOMENT = "%Y-%m-%d %H:%M"


def chart(metric: MetricTrend, since: datetime, until: datetime, bucket: timedelta) -> Chart:
    """The metric's charts over the whole window, `since` to `until` (the trend's own, as the
    page's heading says it), each bucket's mark at its middle."""
    low, high = metric.bounds
    span = (until - since).total_seconds() or 1.0
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(moment: datetime) -> float:
        return round(LEFT + plot_w * (moment - since).total_seconds() / span, 1)

    def y(value: float, lo: float, hi: float) -> float:
        share = (value - lo) / (hi - lo) if hi > lo else 0.5
        return round(TOP + plot_h * (1 - min(1.0, max(0.0, share))), 1)

    def series(label: str, values: list[Bucket]) -> Series:
        lo, hi = (low, high) if label == "mean" else (0.0, 1.0)
        marks: list[Mark] = []
        runs: list[list[Mark]] = []
        previous: datetime | None = None
        for p, v, ci, note in values:
            if v is None:
                continue
            mark = Mark(
                x_at(p.bucket_start + bucket / 2),
                y(v, lo, hi),
                y(ci[0], lo, hi) if ci else None,
                y(ci[1], lo, hi) if ci else None,
                f"{p.bucket_start:{MOMENT}} UTC · {label} {v:.3g}"
                + (f" (95% interval {ci[0]:.3g}–{ci[1]:.3g})" if ci else "")
                + (f" ({note})" if note else "")
                + f" · {p.count} results",
            )
            if previous is None or p.bucket_start - previous != bucket:
                runs.append([])
            runs[-1].append(mark)
            marks.append(mark)
            previous = p.bucket_start
        lines = [" ".join(f"{m.x},{m.y}" for m in run) for run in runs if len(run) > 1]
        return Series(label, marks, lines)

    mean = series("mean", [(p, p.mean, p.mean_ci95, p.mean_note) for p in metric.points])
    rate = series("pass rate", [(p, p.pass_rate, p.pass_rate_ci95, None) for p in metric.points])
    middle = since + (until - since) / 2
    return Chart(
        mean,
        rate,
        axis={"low": f"{low:g}", "high": f"{high:g}"},
        ticks=[
            (LEFT, f"{since:{MOMENT}}", "start"),
            (x_at(middle), f"{middle:{MOMENT}}", "middle"),
            (WIDTH - RIGHT, f"{until:{MOMENT}}", "end"),
        ],
    )
