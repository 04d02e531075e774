"""Finding what completed with errors, and what a metric without a score says (HTTP API, both
backends): `completed_with_errors` filters GET /v1/evaluations and GET /v1/runs (and the Python
SDK's list()), the console's status filter offers it; a metric whose every result errored has
`interval_note` saying so in the evaluation summary and in the run report."""

import httpx
from loupe_client import Loupe

from tests.comparisons.helpers import quiz_dataset
from tests.console.helpers import signed_in
from tests.console.test_status_badge import G_EVAL, judged, refusing
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import wait_run

NO_PROXY = {"trust_env": False}
EVERY_RESULT_ERRORED = "no scored results: every result errored"


def ids(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["data"]]


def refused_run(api: Api, client: httpx.Client, name: str, refused: bool) -> dict:
    """A two-sample predictions run judged by a G-Eval "helpful"; the judge refuses every call
    about it when `refused`."""
    steps = ["Check the answer." + (" [refused]" if refused else "")]
    response = client.post(
        "/v1/runs",
        json={
            "name": name,
            "dataset_id": quiz_dataset(client, rows=2),
            "predictions": [{"index": i, "prediction": "ANSWER: A"} for i in range(2)],
            "limit": 2,
            "metrics": [{**G_EVAL, "name": "helpful", "evaluation_steps": steps}],
        },
    )
    assert response.status_code == 202, response.text
    return wait_run(api, client, response.json()["id"])


class TestCompletedWithErrorsFilter:
    def test_evaluations_are_listed_by_the_flag(self, api: Api, judge: ScriptedJudge) -> None:
        refusing(judge)
        key = api.new_key()
        client = api.client(key)
        broken = judged(api, client, "judge down", refused=True)
        clean = judged(api, client, "judge up", refused=False)
        assert broken["completed_with_errors"] and not clean["completed_with_errors"]

        assert ids(client.get("/v1/evaluations?completed_with_errors=true")) == [broken["id"]]
        assert ids(client.get("/v1/evaluations?completed_with_errors=false")) == [clean["id"]]
        # `status` keeps its values: completed lists both, and combines with the flag.
        assert ids(client.get("/v1/evaluations?status=completed")) == [clean["id"], broken["id"]]
        both = "/v1/evaluations?status=completed&completed_with_errors=false"
        assert ids(client.get(both)) == [clean["id"]]
        assert ids(client.get("/v1/evaluations?status=failed&completed_with_errors=true")) == []

        bad = client.get("/v1/evaluations?completed_with_errors=maybe")
        assert bad.status_code == 422
        assert bad.headers["content-type"].startswith("application/problem+json")
        assert [e["loc"] for e in bad.json()["errors"]] == ["query.completed_with_errors"]

        with Loupe(api.base_url, key, httpx_args=NO_PROXY) as sdk:
            listed = [e.id for e in sdk.evaluations.list(completed_with_errors=True)]
            assert listed == [broken["id"]]
            assert [e.id for e in sdk.evaluations.list(completed_with_errors=False)] == [
                clean["id"]
            ]

        # The console's status filter offers it too, by the badge's words.
        console = signed_in(api, key)
        page = console.get("/console/evaluations?status=completed_with_errors")
        assert page.status_code == 200
        assert '<option value="completed_with_errors" selected>completed with errors' in page.text
        assert "judge down" in page.text and "judge up" not in page.text

    def test_runs_are_listed_by_the_flag(self, api: Api, judge: ScriptedJudge) -> None:
        refusing(judge)
        key = api.new_key()
        client = api.client(key)
        broken = refused_run(api, client, "run judge down", refused=True)
        clean = refused_run(api, client, "run judge up", refused=False)
        assert broken["completed_with_errors"] and not clean["completed_with_errors"]

        assert ids(client.get("/v1/runs?completed_with_errors=true")) == [broken["id"]]
        assert ids(client.get("/v1/runs?completed_with_errors=false")) == [clean["id"]]
        assert ids(client.get("/v1/runs")) == [clean["id"], broken["id"]]
        with Loupe(api.base_url, key, httpx_args=NO_PROXY) as sdk:
            assert [r.id for r in sdk.runs.list(completed_with_errors=True)] == [broken["id"]]

        # The run report names the metric whose every result errored, without a score.
        (row,) = [row for row in broken["report"] if row["metric"] == "helpful"]
        assert row["subset"] == "OVERALL" and row["num"] == row["n"] == 0
        assert row["score"] is None and row["ci95"] is None
        assert row["interval_note"] == EVERY_RESULT_ERRORED
        html = signed_in(api, key).get(f"/console/runs/{broken['id']}").text
        assert EVERY_RESULT_ERRORED in html


class TestNoScoreNote:
    def test_a_metric_whose_every_result_errored_says_so(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        refusing(judge)
        key = api.new_key()
        client = api.client(key)
        broken = judged(api, client, "judge down", refused=True)
        (metric,) = broken["per_metric"]
        assert metric["n"] == 0 and metric["errored"] == 2
        assert metric["ci95"] is None and metric["ci_method"] is None
        # It was null, while docs/api.md says a note explains every missing interval.
        assert metric["interval_note"] == EVERY_RESULT_ERRORED
        page = signed_in(api, key).get(f"/console/evaluations/{broken['id']}")
        assert EVERY_RESULT_ERRORED in page.text
