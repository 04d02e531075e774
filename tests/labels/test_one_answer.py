"""One 422 names every field at fault, and a fault has one status whatever comes with it
(outside audit, item 2): an id in a label body that names nothing of the team's is a 422 naming
it, alone or among other errors; a result named both ways is named beside the other faults; an
import line's unknown result beside an unknown field; a queue label's value off the scale
beside a bad rationale."""

import json

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.labels.helpers import Team, answer, problem
from tests.review.helpers import Scores
from tests.review.helpers import Team as ReviewTeam

NDJSON = {"Content-Type": "application/x-ndjson"}


def _locs(body: dict) -> list[str]:
    return sorted(error["loc"] for error in body["errors"])


def test_a_label_body_names_every_fault_with_one_status(api: Api, judge: ScriptedJudge) -> None:
    judge.script(answer)
    team = Team(api)
    evaluation_id = team.evaluate()
    results = team.results(evaluation_id)
    judged = results[("sum", "helpfulness")]["id"]

    both = {"result_id": judged, "evaluation_id": evaluation_id, "value": 1}
    alone = problem(team.client.post("/v1/labels", json=both), 422)
    (conflict,) = alone["errors"]
    assert "not both" in conflict["msg"]
    # With a bad rationale and a value off the result's scale: all three named.
    body = problem(team.client.post("/v1/labels", json={**both, "value": 9, "rationale": 3}), 422)
    assert conflict in body["errors"], body
    assert _locs(body) == sorted([conflict["loc"], "rationale", "value"])

    # An unknown result is a 422 naming result_id, alone and among other errors.
    unknown = {"result_id": "res_nope", "value": True}
    body = problem(team.client.post("/v1/labels", json=unknown), 422)
    assert _locs(body) == ["result_id"] and body["errors"][0]["type"] == "not_found"
    body = problem(team.client.post("/v1/labels", json={**unknown, "rationale": 5}), 422)
    assert _locs(body) == ["rationale", "result_id"]
    # So is an evaluation that is not the team's.
    by_case = {"evaluation_id": "evn_nope", "test_case_id": "sum", "metric": "helpfulness"}
    body = problem(team.client.post("/v1/labels", json={**by_case, "value": 1}), 422)
    assert _locs(body) == ["evaluation_id"]
    body = problem(
        team.client.post("/v1/labels", json={**by_case, "value": 1, "rationale": []}), 422
    )
    assert _locs(body) == ["evaluation_id", "rationale"]

    # An import line: its unknown field and its unknown result, in one answer.
    lines = [
        {"result_id": judged, "value": 0.5},
        {"result_id": judged, "value": 0.5, "actor": None},
        {"result_id": "res_nope", "value": True, "bogus": 1},
    ]
    content = "\n".join(json.dumps(line) for line in lines).encode()
    body = problem(team.client.post("/v1/labels/import", content=content, headers=NDJSON), 422)
    pointers = [error["pointer"] for error in body["errors"]]
    assert sorted(pointers) == ["/lines/2", "/lines/3/bogus", "/lines/3/result_id"], body
    assert team.client.get("/v1/labels").json()["data"] == []


def test_a_queue_label_names_its_value_off_the_scale_beside_a_bad_rationale(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(Scores({"one": [7]}))
    team = ReviewTeam(api)
    queue = team.queue(team.evaluate({"one": [7]}))
    reviewer = team.reviewer(["review"])
    item = reviewer.post(f"/v1/review_queues/{queue['id']}/claim").json()
    path = f"/v1/review_queues/{queue['id']}/items/{item['id']}/label"

    alone = problem(reviewer.post(path, json={"value": 7}), 422)
    assert _locs(alone) == ["value"] and "from 0 to 1" in alone["errors"][0]["msg"]
    body = problem(reviewer.post(path, json={"value": 7, "rationale": 5}), 422)
    assert _locs(body) == ["rationale", "value"], body
    assert "from 0 to 1" in next(e["msg"] for e in body["errors"] if e["loc"] == "value")
    # A value the schema refuses is named once, by the schema.
    body = problem(reviewer.post(path, json={"value": "high", "rationale": 5}), 422)
    assert _locs(body) == ["rationale", "value"], body
    # Nothing was stored; the item is still held and takes a good label.
    assert reviewer.post(path, json={"value": 0.5}).status_code == 201
