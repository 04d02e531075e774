"""The console shows production (issue 26 items 4 and 5), in a real browser (Debian's Chromium via
Playwright), loopback only: the Production list links a rule's page, which shows its filter,
sampling and budget, its counters with each skip reason in words, each metric's hourly and daily
trend with intervals (inline SVG and a table, no script) and its latest judged calls with their
image, scores, reasons, trace and span ids; readable on a 420 px screen. Retakes
docs/screenshots/online-rule.png and online-rule-narrow.png."""

import base64
import json
import re
from datetime import timedelta
from typing import Any

import httpx
from playwright.sync_api import Page, expect
from sqlalchemy import update

from app.db import utcnow
from app.models import OnlineRollup
from tests.console.test_browser import SHOTS, image_loaded, sign_in
from tests.console.test_browser_compare_narrow import NARROW, fits
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, task_of
from tests.online.test_receiver import G_EVAL, judged_results, model_and_judge, semconv_span
from tests.otlp.capture import red_square_png

XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


def image_span(span_id: str, trace_id: str) -> dict[str, Any]:
    """A chat call whose user message carries a PNG as a blob part (GenAI conventions)."""
    entry = semconv_span(span_id, "shop-assistant", "unused", trace_id=trace_id)
    png = base64.b64encode(red_square_png()).decode()
    messages = [
        {
            "role": "user",
            "parts": [
                {"type": "text", "content": f"What colour is this logo? {XSS}"},
                {"type": "blob", "modality": "image", "mime_type": "image/png", "content": png},
            ],
        }
    ]
    attributes = entry["scopeSpans"][0]["spans"][0]["attributes"]
    for attribute in attributes:
        if attribute["key"] == "gen_ai.input.messages":
            attribute["value"] = {"stringValue": json.dumps(messages)}
    return entry


def text_span(number: int, sampled: bool = True) -> dict[str, Any]:
    """A text call asking `question N` (the judge scores it N out of 10), its trace sampled at
    a rate of 0.5 or not (by the trace id's lower 64 bits)."""
    trace_id = f"5b8efff798038103{'0' if sampled else 'f'}{number:015x}"
    return semconv_span(f"{number:016x}", "shop-assistant", f"question {number}", trace_id)


def scores_by_question(request: dict) -> Reply | dict:
    """The judge scores `question N` N out of 10, other calls as plausible_answer does."""
    found = re.search(r"question (\d+)", json.dumps(request))
    if task_of(request) == "g_eval_score" and found:
        reason = f"Graded {found.group(1)} of 10: it names the shape correctly."
        return Reply(content=json.dumps({"reason": reason, "score": int(found.group(1))}))
    return model_and_judge(request)


def earlier(console: Api, rule_id: str, hours: int) -> None:
    """File the rule's results of this hour under an earlier hour, as if judged then."""
    hour = utcnow().replace(minute=0, second=0, microsecond=0)
    with console.served.runtime.session() as session:
        session.execute(
            update(OnlineRollup)
            .where(OnlineRollup.rule_id == rule_id, OnlineRollup.bucket_start >= hour)
            .values(bucket_start=hour - timedelta(hours=hours))
        )
        session.commit()


def production(console: Api, client: httpx.Client) -> dict[str, Any]:
    """A rule sampling half the traces that judged an image call and three text calls over two
    hours, and left a fifth call's trace out."""
    rule = client.post(
        "/v1/online_rules",
        json={
            "name": "shop assistant answers",
            "filter": [{"attribute": "service.name", "op": "eq", "value": "shop-assistant"}],
            "sampling": {"rate": 0.5},
            "metrics": [G_EVAL],
            "daily_usd": 5,
        },
    )
    assert rule.status_code == 201, rule.text
    rule_id = rule.json()["id"]
    for spans, judged in (
        ([text_span(9), text_span(4), text_span(7, sampled=False)], 2),
        ([image_span("00f067aa0ba902b7", "5b8efff7980381030000000000000c0c"), text_span(10)], 4),
    ):
        sent = client.post("/v1/traces", json={"resourceSpans": spans})
        assert sent.status_code == 200, sent.text
        judged_results(console, client, rule_id, judged)
        if judged == 2:
            earlier(console, rule_id, hours=3)
    return rule.json()


class TestRulePage:
    def test_counters_skip_reasons_trend_and_a_judged_call_with_its_image(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(scores_by_question)
        key = console.new_key("online-acme")
        client = console.client(key)
        rule = production(console, client)
        sign_in(page, console, key)

        page.get_by_role("navigation", name="Main").get_by_role("link", name="Production").click()
        expect(page.get_by_role("heading", name="Production", exact=True)).to_be_visible()
        row = page.locator("table.list tbody tr", has_text="shop assistant answers")
        expect(row.locator('td[data-label="Matched"]')).to_have_text("5")
        expect(row.locator('td[data-label="Judged"]')).to_have_text("4")
        expect(row.locator('td[data-label="Skipped"]')).to_have_text("1")
        row.get_by_role("link", name="shop assistant answers").click()

        expect(page.get_by_role("heading", name="shop assistant answers")).to_be_visible()
        facts = page.locator("section.rule-settings")
        expect(facts).to_contain_text("service.name equals shop-assistant")
        expect(facts).to_contain_text("50% of matching traces")
        expect(facts).to_contain_text("$5.00 a UTC day")
        counters = page.locator("section.counters")
        expect(counters).to_contain_text("The team's calls while enabled (any service)5")
        expect(counters).to_contain_text("Matched its filter5")
        expect(counters).to_contain_text("Sampled4")
        expect(counters).to_contain_text("Sent to its judge4")
        expect(counters).to_contain_text("Results judged4")
        expect(counters).to_contain_text("Results errored0")
        # The skip reason in words, with its name.
        expect(counters.locator(".skips li")).to_have_text(
            "1 Not sampled: the rule's sampling rate left its trace out. not_sampled"
        )
        # The trend: two hours, each one's mean and pass rate; the pass rates with their
        # intervals, the means (two scores between the bounds) with none, said why.
        trend = page.locator("article.metric-trend", has_text="describes")
        expect(trend.locator("figure.trend svg")).to_have_count(2)
        expect(trend.locator("svg circle")).to_have_count(4)
        expect(trend.locator("svg line.interval")).to_have_count(2)
        # Three hours apart, the hours between them empty: no line across the gap.
        expect(trend.locator("svg polyline.trend-line")).to_have_count(0)
        # Both charts' x axes run over the window the heading states, in its words.
        window = page.locator("nav.pager .muted").inner_text()
        since, until = window.removesuffix(" UTC").split(" to ")
        for svg in trend.locator("figure.trend svg").all():
            expect(svg.locator("text.tick-label").first).to_have_text(since)
            expect(svg.locator("text.tick-label").last).to_have_text(until)
        # Newest first: this hour's image call (0.85) and question 10; question 9 and 4 before.
        newest, oldest = trend.locator("table.trend-table tbody tr").all()
        expect(newest.locator("td").nth(1)).to_have_text("2")
        expect(newest.locator("td").nth(2)).to_contain_text("0.925 no interval from 2 scores")
        expect(newest.locator("td").nth(3)).to_contain_text("100% [")
        expect(oldest.locator("td").nth(2)).to_contain_text("0.65 no interval from 2 scores")
        expect(oldest.locator("td").nth(3)).to_contain_text("50% [")
        page.get_by_role("link", name="Daily").click()
        expect(page.get_by_role("columnheader", name="Day (UTC)")).to_be_visible()
        page.get_by_role("link", name="Hourly").click()

        # The image call: its question (escaped, not run), its image through the media route,
        # its score and reason, its trace and span ids.
        call = page.locator("article.judged-call", has_text="00f067aa0ba902b7")
        expect(call).to_contain_text("5b8efff7980381030000000000000c0c")
        expect(call).to_contain_text(XSS)
        image_loaded(page, "article.judged-call figure.media img")
        source = call.locator("figure.media img").get_attribute("src")
        assert source and source.startswith("/console/media/")
        expect(call.locator(".result-card")).to_contain_text("describes")
        expect(call.locator(".result-card .reason")).to_contain_text("names the shape")
        expect(page.locator("article.judged-call", has_text="question 4")).to_contain_text("failed")
        page.screenshot(path=SHOTS / "online-rule.png", full_page=True)
        assert page.evaluate("window.__pwned") is None
        assert errors == [] and off_loopback == []

        # Another account gets the not-found page.
        other = console.new_key("online-other")
        page.context.clear_cookies()
        sign_in(page, console, other)
        response = page.goto(f"{console.base_url}/console/online_rules/{rule['id']}")
        assert response is not None and response.status == 404

    def test_readable_at_420_px(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(scores_by_question)
        key = console.new_key("online-narrow")
        client = console.client(key)
        rule = production(console, client)
        page.set_viewport_size(NARROW)
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/online_rules")
        # The list reflows into cards (its visually hidden header row aside): no sideways scroll.
        widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1] == 420, widths
        expect(page.locator('td[data-label="Judged"]')).to_have_text("4")
        page.goto(f"{console.base_url}/console/online_rules/{rule['id']}")
        image_loaded(page, "article.judged-call figure.media img")
        expect(page.locator("figure.trend svg").first).to_be_visible()
        fits(page)
        page.screenshot(path=SHOTS / "online-rule-narrow.png", full_page=True)
        assert errors == [] and off_loopback == []
