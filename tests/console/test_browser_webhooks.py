"""The console's Webhooks page, in a real browser (Debian's Chromium via Playwright), loopback
only: it lists the team's endpoints with their state and since when they have been failing,
escapes what callers wrote (a description written as a script runs nothing under the strict
CSP), and never shows another team's endpoints. Retakes docs/screenshots/webhooks.png."""

import uuid

import httpx
from playwright.sync_api import Page, expect

from tests.console.test_browser import SHOTS, sign_in
from tests.fixtures.api import Api

XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


def register(client: httpx.Client, description: str) -> dict:
    # Port 9 (discard): nothing listens there; no event is sent in this test.
    url = f"http://127.0.0.1:9/hooks/{uuid.uuid4().hex[:8]}"
    created = client.post("/v1/webhook_endpoints", json={"url": url, "description": description})
    assert created.status_code == 201, created.text
    return created.json()


class TestWebhooksPage:
    def test_lists_the_teams_endpoints_and_escapes_them(
        self, page: Page, console: Api, errors: list[str], off_loopback: list[str]
    ) -> None:
        key = console.new_key(f"hooks-{uuid.uuid4().hex[:6]}")
        client = console.client(key)
        ours = [register(client, "deploy notifications"), register(client, XSS)]
        theirs = register(
            console.client(console.new_key(f"hooks-other-{uuid.uuid4().hex[:6]}")), "x"
        )
        sign_in(page, console, key)
        page.get_by_role("link", name="Webhooks").click()
        expect(page.get_by_role("heading", name="Webhooks", exact=True)).to_be_visible()
        response = page.goto(f"{console.base_url}/console/webhooks")
        assert response is not None and response.status == 200
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        rows = page.locator("table.webhooks tbody tr")
        expect(rows).to_have_count(2)
        # Newest first; the description written as a script is shown as text, never run.
        expect(rows.nth(0)).to_contain_text(ours[1]["url"])
        expect(rows.nth(0).locator("td[data-label=Description]")).to_have_text(XSS)
        assert page.evaluate("window.__pwned") is None
        expect(rows.nth(1).locator("td[data-label=Description]")).to_have_text(
            "deploy notifications"
        )
        for row in range(2):
            expect(rows.nth(row).locator("td[data-label=State]")).to_have_text("enabled")
            expect(rows.nth(row).locator("td[data-label='Failing since']")).to_have_text(
                "not failing"
            )
        assert theirs["url"] not in page.content()
        assert all(endpoint["secret"] not in page.content() for endpoint in ours)
        page.screenshot(path=str(SHOTS / "webhooks.png"), full_page=True)
        assert errors == [] and off_loopback == []
