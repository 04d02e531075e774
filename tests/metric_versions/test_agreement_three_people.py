"""Agreement read by three people or more (GET /v1/metric_versions/{id}/agreement): an item's
judge score is the mean of its labels' snapshots of it, and the people's value their labels'
mean. In floats the mean of three 0.7s is 0.6999999999999998, which put a judge score of 0.7
under a threshold of 0.7: every pass the judge gave became a fail, and κ read 0 where the judge
and all three people agreed on every item."""

import json
import re

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.labels.helpers import Team

METRIC = {
    "type": "g_eval",
    "name": "helpfulness",
    "evaluation_steps": ["Check the answer is right."],
    "evaluation_params": ["input", "actual_output"],
    "threshold": 0.7,
}


def seven_or_two(request: dict) -> Reply | dict:
    """`question i` scores 7 out of 10 (at the threshold) for i < 6, else 2."""
    if task_of(request) == "g_eval_score":
        found = re.search(r"question (\d+)", json.dumps(request))
        score = 7 if found and int(found.group(1)) < 6 else 2
        return Reply(content=json.dumps({"reason": f"graded {score}", "score": score}))
    return plausible_answer(request)


def test_three_people_agreeing_with_a_judge_at_the_threshold_agree(
    api: Api, judge: ScriptedJudge
) -> None:
    judge.script(seven_or_two)
    team = Team(api)
    cases = [{"id": f"q{i}", "input": f"question {i}", "actual_output": "a"} for i in range(12)]
    response = team.client.post("/v1/evaluations", json={"test_cases": cases, "metrics": [METRIC]})
    assert response.status_code == 202, response.text
    final = api.wait(team.client, response.json()["id"])
    rows = team.client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
    assert sorted(row["score"] for row in rows) == [0.2] * 6 + [0.7] * 6
    people = [api.client(team.new_key(None, name=name)) for name in ("ann", "bob", "cat")]
    for row in rows:
        for person in people:
            given = person.post("/v1/labels", json={"result_id": row["id"], "value": row["score"]})
            assert given.status_code == 201, given.text

    found = team.client.get(f"/v1/metric_versions/{rows[0]['metric_version']}/agreement").json()

    assert (found["n"], found["n_labels"], found["people"]) == (12, 36, 3)
    assert found["confusion_matrix"]["matrix"] == [[6, 0], [0, 6]]
    assert found["cohen_kappa"]["value"] == pytest.approx(1.0)
    assert (found["tpr"]["value"], found["tnr"]["value"]) == (1.0, 1.0)
    assert found["weighted_kappa"]["value"] == pytest.approx(1.0)
    assert found["spearman"]["value"] == pytest.approx(1.0)
    assert found["mean_bias"]["value"] == 0.0
    assert found["disagreements"] == []
