"""Enter in a review item's value field sends the value (issue 29 audit): the form's first
submit button is Save value, so typing 0.2 and pressing Enter stores the value 0.2 (failed at
threshold 0.5), never a Pass; and the server refuses a post with both a verdict button and a
value (tests/review/test_console.py)."""

from playwright.sync_api import Browser, expect

from tests.console.test_browser_review import (
    assert_blind,
    idp,
    loupe,
    open_queue,
    queue_of,
    signed_in_page,
)
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.people.provider import Provider

__all__ = ["idp", "loupe"]


def test_enter_in_the_value_field_saves_the_value(
    browser: Browser, loupe: Api, idp: Provider, judge_server: ScriptedJudge
) -> None:
    queue_id = queue_of(loupe, judge_server, "Logos, by value", "enter")
    page = signed_in_page(browser, loupe, idp, "ml-review")
    open_queue(page, loupe, queue_id)
    expect(page.locator("main")).to_contain_text("A red circle (enter).")
    assert_blind(page)
    page.get_by_label("A value from 0 to 1").fill("0.2")
    page.get_by_label("A value from 0 to 1").press("Enter")

    expect(page.locator("#person-label")).to_contain_text("value 0.2")
    expect(page.locator("#person-label")).to_contain_text("failed")
    with loupe.client(loupe.new_key("ml")) as client:
        labels = client.get("/v1/labels").json()["data"]
    mine = [label for label in labels if label["value"] == 0.2]
    assert len(mine) == 1 and mine[0]["passed"] is False, labels
    assert not any(label["passed"] is True and label["value"] is None for label in labels)
    page.context.close()
