"""The review pages over plain HTTP with API-key console sessions: the Review link and the
claim follow the `review` scope, a form's bad value is named, an item's page shows the judge
only after its label, and opening a queue's page claims nothing (its Start button does)
(tests/console/test_browser_review.py has people in a browser)."""

import re

from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import REVIEWER, Scores, Team, claimed_page
from tests.review.test_queues import lapse


def test_a_reviewer_labels_in_the_console_and_a_viewer_is_refused(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [7]}))
    team = Team(api)
    queue = team.queue(team.evaluate({"one": [7]}))

    viewer = signed_in(api, team.key(["read"]))
    # The queues' list needs `review` too (a reviewer's console is its Review pages).
    listed = viewer.get("/console/review")
    assert listed.status_code == 403 and "`review`" in listed.text
    listed = viewer.get("/console/evaluations")
    assert 'href="/console/review"' not in listed.text.split("</nav>")[0]
    refused = viewer.get(f"/console/review/{queue['id']}")
    assert refused.status_code == 403 and "`review`" in refused.text

    reviewer = signed_in(api, team.key(REVIEWER))
    listed = reviewer.get("/console/review")
    assert 'href="/console/review"' in listed.text.split("</nav>")[0]
    page = claimed_page(reviewer, queue["id"])
    assert page.status_code == 200, page.text
    assert "answer one" in page.text
    assert "The judge gives" not in page.text and "judge-verdict" not in page.text
    action = re.search(r'action="(/console/review/[^"]+/label)"', page.text)
    assert action is not None
    token = csrf_of(page.text)

    bad = reviewer.post(
        action.group(1), data={"csrf_token": token, "choice": "score", "score": "lots"}
    )
    assert bad.status_code == 400 and "value" in bad.text
    off_scale = reviewer.post(
        action.group(1), data={"csrf_token": token, "choice": "score", "score": "3"}
    )
    assert off_scale.status_code == 422 and "outside the scale" in off_scale.text
    # The viewer's session cannot label even with a valid token of its own.
    viewer_token = csrf_of(viewer.get("/console/evaluations").text)
    assert viewer.post(action.group(1), data={"csrf_token": viewer_token}).status_code == 403

    # A verdict button pressed with a value typed is ambiguous: refused, naming the field, and
    # nothing is stored.
    both = reviewer.post(
        action.group(1), data={"csrf_token": token, "choice": "pass", "score": "0.2"}
    )
    assert both.status_code == 400 and "score" in both.text and "Pass" in both.text, both.text
    assert team.client.get("/v1/labels").json()["data"] == []

    done = reviewer.post(
        action.group(1),
        data={"csrf_token": token, "choice": "score", "score": "0.4", "rationale": "Meh."},
    )
    assert done.status_code == 303
    shown = reviewer.get(done.headers["location"])
    assert "The judge gives one 7 of 10." in shown.text and "Meh." in shown.text
    again = claimed_page(reviewer, queue["id"])
    assert 'id="nothing-left"' in again.text


def test_opening_a_queues_page_claims_nothing_its_start_button_does(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [7]}))
    team = Team(api)
    queue = team.queue(team.evaluate({"one": [7]}))

    def progress() -> dict:
        return team.client.get(f"/v1/review_queues/{queue['id']}").json()["progress"]

    # A crawler, a link preview, a prefetch or a colleague looking: GETs reserve nothing.
    first, second = signed_in(api, team.key(REVIEWER)), signed_in(api, team.key(REVIEWER))
    for looker in (first, second, first):
        page = looker.get(f"/console/review/{queue['id']}")
        assert page.status_code == 200, page.text
        assert 'id="start"' in page.text and 'id="nothing-left"' not in page.text
        assert "answer one" not in page.text
    assert (progress()["in_progress"], progress()["remaining"]) == (0, 1)
    assert progress()["reviewers"] == []

    # Start is a form with the session's CSRF token: without it nothing is claimed.
    refused = second.post(f"/console/review/{queue['id']}/claim", data={"csrf_token": "nope"})
    assert refused.status_code == 403
    assert progress()["in_progress"] == 0

    item = claimed_page(second, queue["id"])
    assert "answer one" in item.text and "The judge gives" not in item.text
    assert progress()["in_progress"] == 1
    # The one item is held: the first reviewer is told nothing is left, and may look again.
    left = claimed_page(first, queue["id"])
    assert 'id="nothing-left"' in left.text and "Look again" in left.text


def test_a_lapsed_reservation_says_so_on_the_item(api: Api, judge: ScriptedJudge) -> None:
    """The item's page of a reservation that lapsed says it lapsed (not "reserved until" a time
    gone by), and that a label still counts while nobody else took the item."""
    judge.script(Scores({"one": [6]}))
    team = Team(api)
    queue = team.queue(team.evaluate({"one": [6]}))
    reviewer = signed_in(api, team.key(REVIEWER))
    held = claimed_page(reviewer, queue["id"])
    assert "Reserved for you until" in held.text
    item_id = re.search(r"/items/(rqi_\w+)/label", held.text).group(1)  # type: ignore[union-attr]
    lapse(api, item_id)

    page = reviewer.get(f"/console/review/{queue['id']}/items/{item_id}")

    assert page.status_code == 200, page.text
    assert "Your reservation lapsed at" in page.text
    assert "Reserved for you until" not in page.text
