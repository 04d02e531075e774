"""Whose label an imported line becomes (outside audit, item 1): an export of a queue labelled
by several people imports back for a team admin, each label under who gave it and as it was
given; nobody else imports a label in another's name, and an admin only in the name of the
team's own people and keys. And (item 4) a caller without `read` labelling a result directly is
shown nothing the judge said."""

import json
from typing import Any

import httpx
from sqlalchemy import select

from app.models import AuditEvent
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import problem
from tests.review.helpers import Scores, Team

NDJSON = {"Content-Type": "application/x-ndjson"}
CSV = {"Content-Type": "text/csv"}
FORMATS = (("jsonl", NDJSON), ("csv", CSV))


def _who(labels: list[dict[str, Any]]) -> list[tuple]:
    return sorted(
        (
            label["actor"],
            label["actor_name"],
            label["value"],
            label["passed"],
            label["rationale"],
            label["selection"],
            label["queue_id"],
        )
        for label in labels
    )


def _labels(client: httpx.Client) -> list[dict[str, Any]]:
    return client.get("/v1/labels").json()["data"]


def _queue_labelled_by_two(api: Api, team: Team) -> tuple[dict, httpx.Client, str]:
    """A queue of two reviewers per item; a reviewer labels its item in the queue and the
    team's admin key labels the same result directly. The queue, the reviewer, the result."""
    evaluation_id = team.evaluate({"one": [7]})
    queue = team.queue(evaluation_id, reviewers_per_item=2)
    reviewer = team.reviewer(["review"])
    item = reviewer.post(f"/v1/review_queues/{queue['id']}/claim").json()
    labelled = reviewer.post(
        f"/v1/review_queues/{queue['id']}/items/{item['id']}/label",
        json={"value": 0.25, "rationale": "Too short."},
    )
    assert labelled.status_code == 201, labelled.text
    result_id = item_result(team, evaluation_id)
    given = team.client.post("/v1/labels", json={"result_id": result_id, "value": True})
    assert given.status_code == 201, given.text
    return queue, reviewer, result_id


def item_result(team: Team, evaluation_id: str) -> str:
    (result,) = team.client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"]
    return result["id"]


def test_a_multi_reviewer_export_imports_back_for_an_admin(api: Api, judge: ScriptedJudge) -> None:
    judge.script(Scores({"one": [7]}))
    team = Team(api)
    queue, reviewer, _ = _queue_labelled_by_two(api, team)
    before = _who(_labels(team.client))
    assert [(row[5], row[6]) for row in before if row[6]] == [("random", queue["id"])]
    assert len({row[0] for row in before}) == 2

    for format_, headers in FORMATS:
        exported = team.client.get("/v1/labels/export", params={"format": format_}).content
        # As it stands, over the labels it came from: each person's label replaced by itself.
        again = team.client.post("/v1/labels/import", content=exported, headers=headers)
        assert again.status_code == 200, again.text
        assert again.json() == {"object": "label.import", "created": 0, "updated": 2}
        assert _who(_labels(team.client)) == before, format_
        # Deleted, then restored: each label under who gave it, as it was given.
        for label in _labels(team.client):
            assert team.client.delete(f"/v1/labels/{label['id']}").status_code == 204
        restored = team.client.post("/v1/labels/import", content=exported, headers=headers)
        assert restored.status_code == 200, restored.text
        assert restored.json() == {"object": "label.import", "created": 2, "updated": 0}
        assert _who(_labels(team.client)) == before, format_

    # The audit trail says who imported them and whose labels they are.
    with api.served.runtime.session() as session:
        events = session.scalars(
            select(AuditEvent).where(AuditEvent.action == "label.import").order_by(AuditEvent.id)
        ).all()
    actors = sorted({row[0] for row in before})
    ours = [event for event in events if event.details.get("actors") == actors]
    assert len(ours) == 4 and {event.actor for event in ours} < set(actors), ours

    # The reviewer, not an admin, cannot import the admin's label: that line is named, and
    # nothing is stored (their own line alone would go in as theirs).
    exported = team.client.get("/v1/labels/export").content
    lines = exported.decode().splitlines()
    theirs = [n for n, line in enumerate(lines, 1) if json.loads(line)["queue_id"] is None]
    body = problem(reviewer.post("/v1/labels/import", content=exported, headers=NDJSON), 422)
    assert [error["pointer"] for error in body["errors"]] == [f"/lines/{theirs[0]}/actor"]
    assert body["errors"][0]["type"] == "not_yours" and "`admin`" in body["errors"][0]["msg"]
    assert _who(_labels(team.client)) == before


def test_nobody_imports_a_label_in_anothers_name_but_an_admin_for_the_team(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [7]}))
    team = Team(api)
    _, reviewer, result_id = _queue_labelled_by_two(api, team)
    before = _who(_labels(team.client))
    admin_actor = next(label["actor"] for label in _labels(team.client) if not label["queue_id"])
    forger = team.reviewer(["review"])

    # A reviewer naming the admin (or the other reviewer) as the label's giver: refused.
    forged = json.dumps({"result_id": result_id, "value": False, "actor": admin_actor})
    body = problem(forger.post("/v1/labels/import", content=forged, headers=NDJSON), 422)
    assert [error["pointer"] for error in body["errors"]] == ["/lines/1/actor"]
    assert body["errors"][0]["type"] == "not_yours"
    # ...named with the line's other faults.
    forged = json.dumps({"result_id": result_id, "value": "high", "actor": admin_actor})
    body = problem(forger.post("/v1/labels/import", content=forged, headers=NDJSON), 422)
    assert sorted(error["pointer"] for error in body["errors"]) == [
        "/lines/1/actor",
        "/lines/1/value",
    ]
    assert _who(_labels(team.client)) == before
    # Without an actor the line is the importer's own, given directly.
    own = json.dumps({"result_id": result_id, "value": False, "selection": "routed"})
    assert forger.post("/v1/labels/import", content=own, headers=NDJSON).status_code == 200
    mine = [label for label in _labels(team.client) if label["actor"] not in {r[0] for r in before}]
    assert [(label["passed"], label["selection"], label["queue_id"]) for label in mine] == [
        (False, "direct", None)
    ]

    # An admin names only the team's own people and keys, and says how a label was given
    # consistently; every fault of every line in one answer.
    lines = [
        {"result_id": result_id, "value": True, "actor": "person:nobody"},
        {"result_id": result_id, "value": True, "actor": ["operator"]},
        {"result_id": result_id, "value": True, "selection": "routed"},
        {"result_id": result_id, "value": True, "selection": "chosen", "queue_id": "rq_x"},
    ]
    content = "\n".join(json.dumps(line) for line in lines).encode()
    body = problem(team.client.post("/v1/labels/import", content=content, headers=NDJSON), 422)
    assert [(error["pointer"], error["type"]) for error in body["errors"]] == [
        ("/lines/1/actor", "unknown_actor"),
        ("/lines/2/actor", "unknown_actor"),
        ("/lines/3/queue_id", "queue_mismatch"),
        ("/lines/4/selection", "literal_error"),
    ], body
    # Two lines giving one person's label of one item: the second is named.
    twice = [
        {"result_id": result_id, "value": 0.5},
        {"result_id": result_id, "value": 0.6, "actor": admin_actor},
    ]
    content = "\n".join(json.dumps(line) for line in twice).encode()
    body = problem(team.client.post("/v1/labels/import", content=content, headers=NDJSON), 422)
    assert [error["pointer"] for error in body["errors"]] == ["/lines/2"]
    assert "repeats line 1" in body["errors"][0]["msg"]
    assert len(_labels(team.client)) == len(before) + 1


def test_a_review_only_key_labelling_directly_is_shown_nothing_the_judge_said(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [7]}))
    team = Team(api)
    result_id = item_result(team, team.evaluate({"one": [7]}))
    blind = team.reviewer(["review"])
    given = blind.post("/v1/labels", json={"result_id": result_id, "value": 0.5})
    assert given.status_code == 201, given.text
    shown = given.json()
    assert (shown["judge_score"], shown["judge_passed"]) == (None, None)
    # Stored all the same, and shown to a caller who may read results.
    stored = team.client.get(f"/v1/labels/{shown['id']}").json()
    assert (stored["judge_score"], stored["judge_passed"]) == (0.7, True)
    reader = team.reviewer(["read", "review"])
    again = reader.post("/v1/labels", json={"result_id": result_id, "value": 0.5}).json()
    assert (again["judge_score"], again["judge_passed"]) == (0.7, True)
