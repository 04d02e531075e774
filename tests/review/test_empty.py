"""A queue over finished evaluations whose routing picks nothing is refused, naming each routing
field that picked nothing and what it considered, rather than made empty with nothing said; a
metric with no judged result to offer names `metric`."""

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.review.helpers import Scores, Team
from tests.review.test_queues import problem


class TestEmptyQueue:
    def test_routing_that_picks_none_of_a_finished_evaluation_is_a_422_naming_it(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Scores out of 10 against a threshold of 0.5: 0.9 and 0.1, each 0.4 from it.
        judge.script(Scores({"high": [9], "low": [1]}))
        team = Team(api)
        evaluation_id = team.evaluate({"high": [9], "low": [1]})
        body = {
            "name": "near the line",
            "evaluation_ids": [evaluation_id],
            "metric": "helpful",
            "routing": {"near_threshold": {"width": 0.1}, "fragile": True},
        }

        refused = problem(team.client.post("/v1/review_queues", json=body), 422)

        assert [error["pointer"] for error in refused["errors"]] == [
            "/routing/near_threshold/width",
            "/routing/fragile",
        ]
        near = refused["errors"][0]["msg"]
        assert "none of the 2 judged results" in near and "closest is 0.4" in near
        assert "fragile" in refused["errors"][1]["msg"]
        # Nothing was made.
        assert team.client.get("/v1/review_queues").json()["data"] == []
        # Routing that picks something makes the queue.
        wider = {**body, "routing": {"near_threshold": {"width": 0.4}}}
        made = team.client.post("/v1/review_queues", json=wider)
        assert made.status_code == 201, made.text
        assert made.json()["progress"]["items"] == 2

    def test_a_metric_with_no_judged_result_names_metric(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Scores({"one": [9]}))
        team = Team(api)
        response = team.client.post(
            "/v1/evaluations",
            json={
                "test_cases": [
                    {"id": "one", "input": "q", "actual_output": "a", "expected_output": "a"}
                ],
                "metrics": [{"type": "exact_match", "name": "same"}],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = api.wait(team.client, response.json()["id"])["id"]
        body = {
            "name": "exact",
            "evaluation_ids": [evaluation_id],
            "metric": "same",
            "routing": {"audit_share": 1},
        }

        refused = problem(team.client.post("/v1/review_queues", json=body), 422)

        assert [error["pointer"] for error in refused["errors"]] == ["/metric"]
        assert "no judged, scored result" in refused["errors"][0]["msg"]

    def test_a_caller_without_read_is_not_told_how_far_the_scores_lie(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """A `write` key makes queues but reads no score (app/api/withheld.py): the 422 names
        the same fields without the closest result's distance from its threshold."""
        judge.script(Scores({"high": [9], "low": [1]}))
        team = Team(api)
        evaluation_id = team.evaluate({"high": [9], "low": [1]})
        body = {
            "name": "near the line",
            "evaluation_ids": [evaluation_id],
            "metric": "helpful",
            "routing": {"near_threshold": {"width": 0.1}},
        }
        writer = api.client(team.key(["write"]))

        refused = problem(writer.post("/v1/review_queues", json=body), 422)

        assert [error["pointer"] for error in refused["errors"]] == [
            "/routing/near_threshold/width"
        ]
        said = refused["errors"][0]["msg"]
        assert "none lies within 0.1 of its threshold" in said
        assert "0.4" not in said and "closest" not in said, said
        assert "0.4" not in refused["detail"]
