"""A label the item cannot take is said on the item's page, in a real browser: a value off the
metric's scale or not a finite number leaves the reviewer on their item, still blind, with the
reason above the form and what they typed kept, rather than on a bare error page (whose only
link led to the evaluations, which a reviewer may not open) with their rationale lost."""

from playwright.sync_api import Page, expect

from app.tenants.service import create_key
from tests.console.test_browser_review import G_EVAL, REASON, judge_answer
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


def _queue(console: Api, judge: ScriptedJudge, team: str) -> str:
    judge.script(judge_answer)
    with console.client(console.new_key(team)) as client:
        cases = [{"id": "sum", "input": "What is 2+2?", "actual_output": "4"}]
        response = client.post("/v1/evaluations", json={"test_cases": cases, "metrics": [G_EVAL]})
        assert response.status_code == 202, response.text
        assert console.wait(client, response.json()["id"])["status"] == "completed"
        queue = client.post(
            "/v1/review_queues",
            json={
                "name": "sums",
                "evaluation_ids": [response.json()["id"]],
                "metric": "helpful",
                "routing": {"audit_share": 1},
            },
        )
        assert queue.status_code == 201, queue.text
        return queue.json()["id"]


def test_a_refused_value_is_said_on_the_item_with_what_was_typed(
    page: Page, console: Api, judge_server: ScriptedJudge, errors: list[str]
) -> None:
    queue_id = _queue(console, judge_server, "refused-values")
    with console.served.runtime.session() as session:
        _, key = create_key(session, "refused-values", scopes=["review"], name="new reviewer")
        session.commit()
    page.goto(f"{console.base_url}/console/sign-in")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Review", exact=True)).to_be_visible()
    page.goto(f"{console.base_url}/console/review/{queue_id}")
    with page.expect_navigation():
        page.locator("#start").click()
    item_url = page.url
    rationale = "Four is right, but I typed the score out of ten."

    for typed, said in (("7", "outside the scale"), ("nan", "finite number")):
        page.get_by_label("Why (optional)").fill(rationale)
        page.locator("#score").fill(typed)
        with page.expect_navigation():
            page.locator("#score").press("Enter")

        expect(page.locator("#label-error")).to_contain_text(said)
        expect(page.get_by_label("Why (optional)")).to_have_value(rationale)
        expect(page.locator("#score")).to_have_value(typed)
        # Still the reviewer's item, still blind.
        expect(page.get_by_role("heading", name="Your label")).to_be_visible()
        assert REASON not in page.locator("main").inner_text()

    page.locator("#score").fill("0.4")
    with page.expect_navigation():
        page.locator("#score").press("Enter")
    assert page.url == item_url
    expect(page.locator("#judge-verdict")).to_contain_text(REASON)
    expect(page.locator("#person-label")).to_contain_text("value 0.4")
    expect(page.locator("#person-label")).to_contain_text(rationale)
    assert errors == []
