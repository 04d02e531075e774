"""The console shows the bill before a re-run (issue 27 item 4), in a real browser (Debian's
Chromium via Playwright), loopback only: a finished evaluation's page offers a re-run, whose page
shows the estimate per metric (calls, samples × panel, tokens, cost) and its notes before anything
is sent to a judge; confirming submits the evaluation again, which then makes the calls shown.
Takes docs/screenshots/rerun.png."""

from playwright.sync_api import Page, expect

from tests.console.helpers import csrf_of, signed_in
from tests.console.test_browser import SHOTS, image, picture, sign_in, submit, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer


class TestRerunEstimate:
    def test_the_estimate_before_a_rerun_then_the_rerun(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(plausible_answer)
        key = console.new_key("rerun")
        client = console.client(key)
        helpful = {
            "type": "g_eval",
            "name": "helpful",
            "criteria": "Does it answer the question?",
            "evaluation_params": ["input", "actual_output"],
            "judge": {"samples": 3},
        }
        cases = [
            {
                "id": f"case-{n}",
                "input": [f"What shape is logo {n}?", image(picture("red", "circle"))],
                "actual_output": f"A red circle, logo {n}.",
                "expected_output": "A red circle.",
            }
            for n in range(2)
        ]
        body = {
            "name": "logos <b>v1</b>",
            "test_cases": cases,
            "metrics": [helpful, {"type": "exact_match"}],
        }
        evaluation_id = submit(client, body)
        first = wait(console, client, f"/v1/evaluations/{evaluation_id}")
        assert first["status"] == "completed", first
        made = len(judge.requests)
        assert made == 1 + 2 * 3
        expected = client.post("/v1/evaluations/estimate", json=body).json()

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        page.get_by_role("link", name="re-run…").click()
        expect(page.get_by_role("heading", name="Re-run logos <b>v1</b>")).to_be_visible()
        table = page.locator("table.estimate")
        row = table.locator("tbody tr", has_text="helpful")
        expect(row.locator("td").nth(1)).to_have_text(str(made))
        expect(row.locator("td").nth(2)).to_contain_text("× 3")
        expect(row.locator("td").nth(3)).to_have_text(f"{expected['prompt_tokens']:,}")
        expect(row.locator("td").nth(5)).to_have_text(f"${expected['usd']:.4f}")
        expect(table.locator("tbody tr", has_text="exact_match").locator("td").nth(1)).to_have_text(
            "0"
        )
        expect(page.locator("ul.notes")).to_contain_text("upper bound")
        # Nothing was asked of the judge to show this.
        assert len(judge.requests) == made
        page.screenshot(path=SHOTS / "rerun.png", full_page=True)

        page.get_by_role("button", name=f"Re-run: {made} judge calls").click()
        expect(page.get_by_role("heading", name="logos <b>v1</b> (re-run)")).to_be_visible()
        rerun_id = page.url.rsplit("/", 1)[-1]
        assert rerun_id != evaluation_id
        again = wait(console, client, f"/v1/evaluations/{rerun_id}")
        assert again["status"] == "completed", again
        # Its samples skip the cache; the steps may come from it (the estimate's upper bound).
        assert made + 2 * 3 <= len(judge.requests) <= 2 * made
        assert errors == [] and off_loopback == []


class TestRerunForm:
    def test_a_rerun_needs_its_csrf_token_and_a_plain_evaluation(
        self, console: Api, judge: ScriptedJudge
    ) -> None:
        key = console.new_key()
        client = console.client(key)
        body = {
            "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
            "metrics": [{"type": "exact_match"}],
        }
        evaluation_id = submit(client, body)
        wait(console, client, f"/v1/evaluations/{evaluation_id}")
        browser = signed_in(console, key)
        try:
            refused = browser.post(f"/console/evaluations/{evaluation_id}/rerun", data={})
            assert refused.status_code == 403
            form = browser.get(f"/console/evaluations/{evaluation_id}/rerun")
            assert form.status_code == 200 and "Re-run: 0 judge calls" in form.text
            made = browser.post(
                f"/console/evaluations/{evaluation_id}/rerun",
                data={"csrf_token": csrf_of(form.text)},
            )
            assert made.status_code == 303
            missing = browser.get("/console/evaluations/evn_missing/rerun")
            assert missing.status_code == 404
        finally:
            browser.close()
        listed = client.get("/v1/evaluations").json()["data"]
        assert len(listed) == 2
        assert made.headers["location"] == f"/console/evaluations/{listed[0]['id']}"
