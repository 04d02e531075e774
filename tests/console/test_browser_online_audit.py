"""A rule's console page and its days, after a third audit of issue 26, in a real browser
(Debian's Chromium via Playwright), loopback only: the rule page shows its alert and whether it
is firing, says when its daily budget cannot be enforced, and links each judged call's trace and
span ids to the call's test case page; an online day's evaluation page offers no cancel (a day
is not canceled) and leads back to its rule's page."""

import re
from typing import Any

from playwright.sync_api import Page, expect

from app.online import alerts
from tests.console.test_browser import sign_in
from tests.console.test_browser_online import scores_by_question, text_span
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.online.test_receiver import G_EVAL, judged_results
from workers import jobs


def tick(console: Api) -> None:
    """What the ticker does (tests/online/test_alerts.py): distributed, the worker's ticker and
    the queue; embedded, the alert check itself."""
    if console.redis is not None:
        jobs.tick()
        console.run_queue()
    else:
        alerts.check_all(console.served.runtime)


def alerting_rule(console: Api, client: Any, receiver: WebhookReceiver) -> dict[str, Any]:
    """A rule whose alert fires: three calls scored 1, 2 and 3 of 10 fail its 0.9 threshold."""
    registered = client.post("/v1/webhook_endpoints", json={"url": receiver.url})
    assert registered.status_code == 201, registered.text
    made = client.post(
        "/v1/online_rules",
        json={
            "name": "checkout answers",
            "filter": [{"attribute": "service.name", "op": "eq", "value": "shop-assistant"}],
            "sampling": {"rate": 1},
            "metrics": [G_EVAL],
            "daily_usd": 5,
            # A model LOUPE_MODEL_PRICES has no price for: the budget cannot be enforced.
            "judge": {"model": "judge-unpriced"},
            "alert": {
                "metric": "describes",
                "threshold": 0.9,
                "window_hours": 3,
                "webhook_url": receiver.url,
            },
        },
    )
    assert made.status_code == 201, made.text
    rule = made.json()
    spans = [text_span(number) for number in (1, 2, 3)]
    sent = client.post("/v1/traces", json={"resourceSpans": spans})
    assert sent.status_code == 200, sent.text
    judged_results(console, client, rule["id"], 3)
    tick(console)
    return rule


class TestRuleAndDayPages:
    def test_the_alert_firing_the_budget_warning_and_the_links_to_calls_and_back(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(scores_by_question)
        key = console.new_key("online-audit")
        client = console.client(key)
        with WebhookReceiver() as receiver:
            rule = alerting_rule(console, client, receiver)
            shown = client.get(f"/v1/online_rules/{rule['id']}").json()
            assert shown["alert"]["firing_since"] is not None
            assert shown["warnings"] and "daily_usd is not enforced" in shown["warnings"][0]
            sign_in(page, console, key)
            page.goto(f"{console.base_url}/console/online_rules/{rule['id']}")

            # The alert: its metric, threshold and window, and that it is firing.
            alert = page.locator("section.rule-settings dd.rule-alert")
            expect(alert).to_contain_text("describes")
            expect(alert).to_contain_text("last 3 hours")
            expect(alert).to_contain_text("below 90%")
            expect(alert).to_contain_text(receiver.url)
            expect(alert.locator(".status")).to_have_text("firing")
            # The budget the server cannot enforce, said so.
            expect(page.locator("p.rule-warning")).to_contain_text("daily_usd is not enforced")

            # A judged call's span id leads to its test case page.
            call = page.locator("article.judged-call").first
            span_id = call.locator("p.ids a").nth(1).inner_text()
            call.locator("p.ids a").nth(1).click()
            expect(page).to_have_url(re.compile(r"/console/evaluations/[^/]+/cases/\d+$"))
            expect(page.locator("body")).to_contain_text(span_id)

            # The day's page: no cancel (a day is not canceled), and back to its rule.
            page.locator("p.crumbs a").nth(1).click()
            expect(page.get_by_role("heading", level=1)).to_be_visible()
            expect(page.get_by_role("button", name="Cancel evaluation")).to_have_count(0)
            page.locator("p.crumbs").get_by_role("link", name="Online rule").click()
            expect(page.get_by_role("heading", name="checkout answers")).to_be_visible()
            assert page.url.endswith(f"/console/online_rules/{rule['id']}")
        assert errors == [] and off_loopback == []

    def test_a_rule_without_an_alert_says_so(
        self, console: Api, judge: ScriptedJudge, page: Page, errors: list[str]
    ) -> None:
        key = console.new_key("online-audit-quiet")
        client = console.client(key)
        made = client.post(
            "/v1/online_rules",
            json={"name": "quiet", "sampling": {"rate": 1}, "metrics": [G_EVAL]},
        )
        assert made.status_code == 201, made.text
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/online_rules/{made.json()['id']}")
        expect(page.locator("dd.rule-alert")).to_have_text("none")
        expect(page.locator("p.rule-warning")).to_have_count(0)
        assert errors == []
