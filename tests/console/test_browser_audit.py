"""The console's Audit page (issue 28 item 5), in a real browser (Debian's Chromium via
Playwright), loopback only: it lists the team's audit events newest first with who made each
change, filters them as the API does, escapes what callers named (an online rule named as a
script runs nothing under the strict CSP), pages, and never shows another team's events.
Retakes docs/screenshots/audit.png."""

import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.audit.helpers import key_actor
from tests.console.test_browser import SHOTS, sign_in
from tests.fixtures.api import Api
from tests.online.test_rules import rule_body

XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


def changes(client: httpx.Client) -> dict[str, str]:
    """A webhook endpoint registered and deleted, an online rule named as a script created and
    disabled: the ids of what was changed."""
    hook = client.post(
        "/v1/webhook_endpoints", json={"url": f"http://127.0.0.1:9/{uuid.uuid4().hex}"}
    )
    assert hook.status_code == 201, hook.text
    rule = client.post("/v1/online_rules", json=rule_body(name=XSS))
    assert rule.status_code == 201, rule.text
    assert client.post(f"/v1/online_rules/{rule.json()['id']}/disable").status_code == 200
    assert client.delete(f"/v1/webhook_endpoints/{hook.json()['id']}").status_code == 204
    return {"hook": hook.json()["id"], "rule": rule.json()["id"]}


class TestAuditPage:
    def test_lists_filters_and_escapes_the_teams_events(
        self, page: Page, console: Api, errors: list[str], off_loopback: list[str]
    ) -> None:
        key = console.new_key(f"audit-{uuid.uuid4().hex[:6]}")
        ids = changes(console.client(key))
        other = console.new_key(f"audit-other-{uuid.uuid4().hex[:6]}")
        theirs = changes(console.client(other))
        sign_in(page, console, key)
        page.get_by_role("link", name="Audit").click()
        response = page.goto(f"{console.base_url}/console/audit")
        assert response is not None and response.status == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        expect(page.get_by_role("heading", name="Audit", exact=True)).to_be_visible()
        rows = page.locator("table.audit tbody tr")
        expect(rows).to_have_count(5)
        actions = rows.locator("td[data-label=Action]").all_inner_texts()
        assert actions == [
            "api_key.sign_in",
            "webhook_endpoint.delete",
            "online_rule.disable",
            "online_rule.create",
            "webhook_endpoint.create",
        ]
        actors = set(rows.locator("td[data-label=Actor]").all_inner_texts())
        assert actors == {key_actor(console, key)}
        # The rule's name is shown as text, never run.
        expect(rows.nth(3)).to_contain_text(XSS)
        assert page.evaluate("window.__pwned") is None
        assert theirs["rule"] not in page.content() and theirs["hook"] not in page.content()
        page.screenshot(path=str(SHOTS / "audit.png"), full_page=True)

        page.get_by_label("Object type").fill("online_rule")
        page.get_by_role("button", name="Filter").click()
        expect(rows).to_have_count(2)
        assert set(rows.locator("td[data-label=Object]").all_inner_texts()) == {
            f"online_rule {ids['rule']}"
        }
        expect(page.get_by_label("Object type")).to_have_value("online_rule")
        page.get_by_label("Action").fill("evaluation.delete")
        page.get_by_role("button", name="Filter").click()
        expect(page.get_by_text("No audit events match these filters.")).to_be_visible()
        assert errors == [] and off_loopback == []

    def test_pages_keep_the_filters(self, page: Page, console: Api) -> None:
        key = console.new_key(f"audit-pages-{uuid.uuid4().hex[:6]}")
        client = console.client(key)
        for _ in range(26):
            changes(client)
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/audit?object_type=online_rule")
        rows = page.locator("table.audit tbody tr")
        expect(rows).to_have_count(50)
        page.get_by_role("link", name="Older events →").click()
        expect(rows).to_have_count(2)
        assert "object_type=online_rule" in page.url
        objects = rows.locator("td[data-label=Object]").all_inner_texts()
        assert all(text.startswith("online_rule ") for text in objects)
