"""A reviewer labels a queue's item once: their label was given blind, and once they have seen
the judge's verdict a second label of the item would be an anchored one counted as blind. The
same label sent again (a double click, a retried request) is answered as the first was, a 200
where the first was a 201 naming the label in `Location`."""

from typing import Any

import httpx

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import Scores, Team

PROBLEM_JSON = "application/problem+json"


def _label(client: httpx.Client, queue_id: str, item_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/v1/review_queues/{queue_id}/items/{item_id}/label", json=body)


def test_a_second_label_after_the_judge_was_shown_is_refused(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [9]}))
    team = Team(api)
    queue = team.queue(team.evaluate({"one": [9]}))
    reviewer = team.reviewer(["review"])
    item = reviewer.post(f"/v1/review_queues/{queue['id']}/claim").json()

    first = _label(reviewer, queue["id"], item["id"], value=0.2, rationale="wrong")
    assert first.status_code == 201, first.text
    assert first.json()["judge"]["score"] == 0.9
    # Created, as `POST /v1/labels` answers a first label: Location reads it back.
    location = first.headers["location"]
    assert location == f"/v1/labels/{first.json()['label']['id']}"
    read = team.client.get(location)  # reading labels takes `read`, which a reviewer lacks
    assert read.status_code == 200, read.text
    assert read.json()["id"] == first.json()["label"]["id"]

    # The same answer again is the first answer, changing nothing (a 200, nothing created).
    repeated = _label(reviewer, queue["id"], item["id"], value=0.2, rationale="wrong")
    assert repeated.status_code == 200, repeated.text
    assert "location" not in repeated.headers
    assert repeated.json()["label"] == first.json()["label"]

    # Moved towards the judge's 0.9 after seeing it: refused, the blind label kept.
    moved = _label(reviewer, queue["id"], item["id"], value=0.9, rationale="as the judge")
    assert moved.status_code == 409, moved.text
    assert moved.headers["content-type"].startswith(PROBLEM_JSON)
    problem = moved.json()
    assert problem["type"].endswith("/already-labelled")
    assert [error["loc"] for error in problem["errors"]] == ["path.item_id"]
    labels = team.client.get("/v1/labels").json()["data"]
    assert [(label["value"], label["rationale"]) for label in labels] == [(0.2, "wrong")]
