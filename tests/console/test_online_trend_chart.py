"""A rule page's trend charts cover the window its heading states, `since` to `until`, and say
it in the same words; each bucket's mark sits at its middle and an empty bucket is a gap in the
line, not a slope across it (the charts are inline SVG drawn by the server: no script)."""

import re
from datetime import UTC, datetime, timedelta

from app.console.online_pages import LEFT, RIGHT, WIDTH, chart
from app.online.trend_schemas import MetricTrend, TrendPoint
from tests.console.helpers import signed_in
from tests.console.test_browser_online import production, scores_by_question
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge

HOUR = timedelta(hours=1)
PLOT = WIDTH - LEFT - RIGHT


def point(start: datetime, mean: float | None) -> TrendPoint:
    return TrendPoint(
        bucket_start=start,
        count=2,
        scored=2 if mean is not None else 0,
        errored=0 if mean is not None else 2,
        mean=mean,
        mean_ci95=None,
        mean_method=None,
        mean_note="no interval from 2 scores" if mean is not None else None,
        passed=1 if mean is not None else 0,
        failed=1 if mean is not None else 0,
        pass_rate=0.5 if mean is not None else None,
        pass_rate_ci95=None,
    )


def svgs_of(html: str) -> list[str]:
    return re.findall(r"<svg [^>]*>.*?</svg>", html, re.S)


class TestChart:
    def test_the_axis_is_the_window_and_empty_buckets_are_gaps(self) -> None:
        since = datetime(2026, 11, 27, 3, tzinfo=UTC)
        until = since + 48 * HOUR
        # Hours 45, 46 and 47 of the window have results, 44 none; 30 has only errors.
        points = [
            point(since + 30 * HOUR, None),
            point(since + 43 * HOUR, 0.4),
            point(since + 45 * HOUR, 0.6),
            point(since + 46 * HOUR, 0.7),
            point(since + 47 * HOUR, 0.9),
        ]
        drawn = chart(
            MetricTrend(metric="m", type="g_eval", bounds=(0, 1), points=points), since, until, HOUR
        )
        assert [(words, anchor) for _, words, anchor in drawn.ticks] == [
            ("2026-11-27 03:00", "start"),
            ("2026-11-28 03:00", "middle"),
            ("2026-11-29 03:00", "end"),
        ]
        assert [x for x, _, _ in drawn.ticks] == [LEFT, LEFT + PLOT / 2, WIDTH - RIGHT]
        for series in (drawn.mean, drawn.pass_rate):
            # Each mark at its hour's middle, over the whole window's width.
            assert [m.x for m in series.marks] == [
                round(LEFT + PLOT * (hour + 0.5) / 48, 1) for hour in (43, 45, 46, 47)
            ]
            # Hour 44 is empty: 43 stands alone, 45 to 47 are one line.
            (line,) = series.lines
            assert [float(pair.split(",")[0]) for pair in line.split()] == [
                m.x for m in series.marks[1:]
            ]
        assert "no interval from 2 scores" in drawn.mean.marks[0].title


class TestRulePage:
    def test_the_charts_axes_say_the_window_the_heading_says(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(scores_by_question)
        key = api.new_key()
        client = api.client(key)
        # Results in this hour and three hours before it: two hours between them are empty.
        rule = production(api, client)
        console = signed_in(api, key)
        try:
            html = console.get(f"/console/online_rules/{rule['id']}").text
            daily = console.get(f"/console/online_rules/{rule['id']}?bucket=day").text
        finally:
            console.close()
        for page, width in ((html, HOUR), (daily, 24 * HOUR)):
            stated = re.search(
                r"(\d{4}-\d\d-\d\d \d\d:\d\d) to (\d{4}-\d\d-\d\d \d\d:\d\d) UTC", page
            )
            assert stated, "no window on the page"
            since, until = (
                datetime.strptime(moment, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
                for moment in stated.groups()
            )
            charts = svgs_of(page)
            assert len(charts) == 2
            for svg in charts:
                # The labels under the x axis, left to right.
                labels = re.findall(r'<text [^>]*y="146"[^>]*>([^<]*)</text>', svg)
                assert labels[0] == stated.group(1) and labels[-1] == stated.group(2), labels
                assert f"from {stated.group(1)} to {stated.group(2)} UTC" in svg
                xs = [float(x) for x in re.findall(r'<circle cx="([\d.]+)"', svg)]
                assert xs and all(LEFT < x < WIDTH - RIGHT for x in xs)
                buckets = (until - since) / width
                # Every mark at the middle of a bucket of the stated window.
                for x in xs:
                    place = (x - LEFT) / PLOT * buckets - 0.5
                    assert abs(place - round(place)) < 0.05, (x, place)
        # By hour the two results' hours are three apart: two marks, no line across the gap.
        for svg in svgs_of(html):
            assert len(re.findall(r"<circle ", svg)) == 2
            assert "<polyline" not in svg
