"""Reviewers label judged items in a real browser (Debian's Chromium via Playwright), signed in
through a real OpenID provider on loopback with their team roles (issue 29 item 3): opening a
queue's page claims nothing; a reviewer presses Start (`n`) and claims an item with its image,
labels it blind (nothing the judge said is on the page before the label), then sees their
label beside the judge's score and reason; a second reviewer gets the same item when two
people are required, labelling it with the `f` key; a third gets nothing; a viewer has no
Review link and is refused the claim; a lapsed reservation returns the item to another
reviewer. Retakes docs/screenshots/review.png, review-claim.png and review-judged.png.
"""

import re
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from sqlalchemy import update

from app.db import utcnow
from app.models import ReviewAssignment
from tests.console.conftest import LOOPBACK
from tests.console.test_browser import SHOTS, image, image_loaded, picture
from tests.console.test_browser_oidc import ours, sign_in_at_provider, site
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of
from tests.people.provider import Provider, provider, settings_for

REASON = "The logo is a red circle, as the answer says."
G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
    "threshold": 0.5,
}


def judge_answer(request: dict) -> Any:
    if task_of(request) != "g_eval_score":
        return plausible_answer(request)
    return {"reason": REASON, "score": 7}


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@pytest.fixture(scope="module")
def loupe(
    tmp_path_factory: pytest.TempPathFactory, idp: Provider, judge_server: ScriptedJudge
) -> Iterator[Api]:
    settings = settings_for(idp.issuer, judge_base_url=judge_server.base_url)
    with side_app(tmp_path_factory.mktemp("review-browser"), **settings) as app:
        app.new_key("ml")
        yield app


def person(idp: Provider, *groups: str) -> str:
    sub = f"p-{uuid.uuid4().hex[:8]}"
    idp.set_user(sub, email=f"{sub}@example.com", name=sub, groups=list(groups))
    return sub


def queue_of(loupe: Api, judge: ScriptedJudge, name: str, case: str, **fields: Any) -> str:
    """A review queue of one judged item with an image (test case `case`)."""
    judge.script(judge_answer)
    with loupe.client(loupe.new_key("ml")) as client:
        body = {
            "name": f"logos {case}",
            "test_cases": [
                {
                    "id": case,
                    "input": ["What is the logo?", image(picture("red", "circle"))],
                    "actual_output": f"A red circle ({case}).",
                }
            ],
            "metrics": [G_EVAL],
        }
        response = client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        assert loupe.wait(client, response.json()["id"])["status"] == "completed"
        queue = client.post(
            "/v1/review_queues",
            json={
                "name": name,
                "evaluation_ids": [response.json()["id"]],
                "metric": "helpful",
                "routing": {"audit_share": 1},
                **fields,
            },
        )
        assert queue.status_code == 201, queue.text
        return queue.json()["id"]


def own_context(browser: Browser) -> BrowserContext:
    """A browser of one's own, loopback only (as the `off_loopback` fixture keeps the first)."""
    context = browser.new_context()
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if urlsplit(route.request.url).hostname in LOOPBACK else route.abort()
        ),
    )
    return context


def signed_in_page(browser: Browser, loupe: Api, idp: Provider, *groups: str) -> Page:
    page = own_context(browser).new_page()
    sign_in_at_provider(page, loupe, person(idp, *groups))
    # A reviewer (`review` alone) lands on the review queues; the others on the evaluations.
    landing = "Review" if groups == ("ml-review",) else "Evaluations"
    expect(page.get_by_role("heading", name=landing, exact=True)).to_be_visible()
    return page


def open_queue(page: Page, loupe: Api, queue_id: str) -> None:
    """Open the queue's page (which claims nothing) and press Start (which claims)."""
    page.goto(f"{site(loupe)}/console/review/{queue_id}")
    expect(page.locator("h1")).to_be_visible()
    with page.expect_navigation():
        page.locator("#start").click()


def assert_blind(page: Page) -> None:
    text = page.locator("main").inner_text()
    assert REASON not in text and "score 0.7" not in text and "The judge" not in text, text
    assert page.locator("#judge-verdict").count() == 0


def lapse(loupe: Api, queue_id: str) -> None:
    with loupe.served.runtime.session() as session:
        session.execute(
            update(ReviewAssignment)
            .where(ReviewAssignment.queue_id == queue_id)
            .values(expires_at=utcnow() - timedelta(minutes=1))
        )
        session.commit()


def test_reviewers_label_blind_then_see_the_judge(
    page: Page,
    browser: Browser,
    loupe: Api,
    idp: Provider,
    judge_server: ScriptedJudge,
    errors: list[str],
    off_loopback: list[str],
) -> None:
    queue_id = queue_of(loupe, judge_server, "Logos, two people each", "logo", reviewers_per_item=2)

    sign_in_at_provider(page, loupe, person(idp, "ml-review"))
    # Signing in leads a reviewer to the review queues; their navigation has no Evaluations.
    expect(page.get_by_role("heading", name="Review", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Evaluations", exact=True)).to_have_count(0)
    page.get_by_role("link", name="Review", exact=True).click()
    row = page.locator(f"tr[data-queue='{queue_id}']")
    expect(row).to_contain_text("0 of 1")
    page.screenshot(path=str(SHOTS / "review.png"), full_page=True)
    row.get_by_role("link", name="Logos, two people each").click()
    # Opening the queue reserves nothing: its Start button does.
    expect(page.locator("#progress")).to_contain_text("0 in progress")
    expect(page.locator("main")).not_to_contain_text("A red circle (logo).")
    # The shortcuts' script is deferred: it listens once the page has loaded, which the
    # checks above (on the parsed page) do not wait for.
    page.wait_for_load_state("load")
    with page.expect_navigation():
        page.keyboard.press("n")

    # Blind: the test case and its image, a form, and nothing the judge said.
    expect(page.get_by_role("heading", name="Your label")).to_be_visible()
    image_loaded(page, ".case img")
    expect(page.locator("main")).to_contain_text("A red circle (logo).")
    assert_blind(page)
    page.keyboard.press("?")
    expect(page.locator("#shortcuts")).to_be_visible()
    page.screenshot(path=str(SHOTS / "review-claim.png"), full_page=True)
    page.keyboard.press("?")
    page.get_by_label("Why (optional)").fill("It is a red circle.")
    page.get_by_role("button", name="Pass").click()

    # Answered: the label beside the judge's score and reason, and Next.
    expect(page.locator("#judge-verdict")).to_contain_text(REASON)
    assert re.search(r"/console/review/rq_\w+/items/rqi_\w+$", page.url), page.url
    expect(page.locator("#judge-verdict")).to_contain_text("score 0.7")
    expect(page.locator("#person-label")).to_contain_text("passed")
    expect(page.locator("#person-label")).to_contain_text("It is a red circle.")
    expect(page.locator("#progress")).to_contain_text("1 in progress")
    page.screenshot(path=str(SHOTS / "review-judged.png"), full_page=True)
    page.wait_for_load_state("load")
    page.keyboard.press("n")
    expect(page.locator("#nothing-left")).to_be_visible()

    # The second reviewer gets the same item, blind, and labels it with the `f` key.
    second = signed_in_page(browser, loupe, idp, "ml-review")
    open_queue(second, loupe, queue_id)
    expect(second.locator("main")).to_contain_text("A red circle (logo).")
    assert_blind(second)
    second.keyboard.press("f")
    expect(second.locator("#judge-verdict")).to_contain_text(REASON)
    expect(second.locator("#person-label")).to_contain_text("failed")
    expect(second.locator("#progress")).to_contain_text("1 of 1 labelled")
    expect(second.locator("#reviewers")).to_contain_text("@example.com (1 labelled)")

    # A third does not get it: two people labelled it already.
    third = signed_in_page(browser, loupe, idp, "ml-review")
    open_queue(third, loupe, queue_id)
    expect(third.locator("#nothing-left")).to_be_visible()

    # A viewer has no Review link and is refused the claim.
    viewer = signed_in_page(browser, loupe, idp, "ml-read")
    expect(viewer.get_by_role("link", name="Review", exact=True)).to_have_count(0)
    refused = viewer.goto(f"{site(loupe)}/console/review/{queue_id}")
    assert refused is not None and refused.status == 403
    expect(viewer.locator("main")).to_contain_text("`review`")

    with loupe.client(loupe.new_key("ml")) as client:
        labels = client.get("/v1/labels").json()["data"]
    assert sorted(label["passed"] for label in labels) == [False, True]
    for extra in (second, third, viewer):
        extra.context.close()
    assert errors == [] and ours(off_loopback) == []


def test_a_lapsed_reservation_returns_the_item(
    browser: Browser, loupe: Api, idp: Provider, judge_server: ScriptedJudge
) -> None:
    queue_id = queue_of(loupe, judge_server, "Logos, one person each", "lapsing")
    first = signed_in_page(browser, loupe, idp, "ml")
    open_queue(first, loupe, queue_id)
    expect(first.locator("main")).to_contain_text("A red circle (lapsing).")
    second = signed_in_page(browser, loupe, idp, "ml-review")
    open_queue(second, loupe, queue_id)
    expect(second.locator("#nothing-left")).to_be_visible()

    lapse(loupe, queue_id)
    open_queue(second, loupe, queue_id)
    expect(second.locator("main")).to_contain_text("A red circle (lapsing).")
    assert_blind(second)
    second.get_by_label("A value from 0 to 1").fill("0.4")
    second.get_by_role("button", name="Save value").click()
    expect(second.locator("#person-label")).to_contain_text("value 0.4")
    # The first holder's form, sent after their reservation went to another, is refused.
    first.get_by_role("button", name="Pass").click()
    expect(first.locator("main")).to_contain_text("claim it first")
    for page in (first, second):
        page.context.close()


def test_a_second_tabs_label_after_the_judge_was_shown_is_refused(
    browser: Browser, loupe: Api, idp: Provider, judge_server: ScriptedJudge
) -> None:
    queue_id = queue_of(loupe, judge_server, "Logos, once each", "twice")
    first = signed_in_page(browser, loupe, idp, "ml-review")
    open_queue(first, loupe, queue_id)
    # The same item, blind, in a second tab of the same session.
    second = first.context.new_page()
    second.goto(first.url)
    assert_blind(second)
    first.get_by_role("button", name="Fail").click()
    expect(first.locator("#judge-verdict")).to_contain_text(REASON)
    # Having seen the judge pass it, the reviewer answers Pass from the other tab: refused.
    second.get_by_role("button", name="Pass").click()
    expect(second.locator("main")).to_contain_text("your label stands")
    second.goto(first.url)
    expect(second.locator("#person-label")).to_contain_text("failed")
    first.context.close()
