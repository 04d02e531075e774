"""OpenAI eval runs through the evaluations API, on both backends: listed only when asked for
(`GET /v1/evaluations?kind=eval_run`), readable by the id listed, never cancelled or deleted
there (that is /v1/evals' to do: a 409 names its routes)."""

import openai
from loupe_client import Loupe

from tests.evals.helpers import CRITERIA, ROWS, create_eval, wait
from tests.fixtures.api import Api


def plain_evaluation(api: Api, key: str) -> str:
    with api.client(key) as http:
        response = http.post(
            "/v1/evaluations",
            json={
                "name": "plain",
                "test_cases": [
                    {"id": "a", "input": "2+2?", "actual_output": "4", "expected_output": "4"}
                ],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        api.wait(http, evaluation_id)
    return evaluation_id


class TestKindFilter:
    def test_eval_runs_are_listed_only_when_asked_for_and_read_by_their_id(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        key = client.api_key
        evaluation_id = plain_evaluation(api, key)
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(
            ev.id, name="nightly", data_source={"type": "jsonl", "source": source}
        )
        wait(api, client, ev.id, run.id)
        criterion_id = ev.testing_criteria[0].id  # type: ignore[union-attr]

        with api.client(key) as http:
            # Unchanged by default: clients listing evaluations see no eval run.
            plain = http.get("/v1/evaluations").json()
            assert [e["id"] for e in plain["data"]] == [evaluation_id]
            assert plain["data"][0]["kind"] == "evaluation"
            same = http.get("/v1/evaluations", params={"kind": "evaluation"}).json()
            assert [e["id"] for e in same["data"]] == [evaluation_id]

            runs = http.get("/v1/evaluations", params={"kind": "eval_run"}).json()
            assert [e["id"] for e in runs["data"]] == [run.id]
            listed = runs["data"][0]
            assert listed["kind"] == "eval_run" and listed["name"] == "nightly"
            assert listed["status"] == "completed"
            assert [m["metric"] for m in listed["per_metric"]] == [criterion_id]
            assert listed["per_metric"][0]["passed"] + listed["per_metric"][0]["failed"] == 2
            named = http.get("/v1/evaluations", params={"kind": "eval_run", "name": "night"})
            assert [e["id"] for e in named.json()["data"]] == [run.id]
            assert (
                http.get("/v1/evaluations", params={"kind": "eval_run", "status": "failed"}).json()[
                    "data"
                ]
                == []
            )
            after = http.get("/v1/evaluations", params={"kind": "eval_run", "after": run.id})
            assert after.status_code == 200 and after.json()["data"] == []

            # What a listed id leads to: the run read as an evaluation, results and cases.
            read = http.get(f"/v1/evaluations/{run.id}")
            assert read.status_code == 200 and read.json()["kind"] == "eval_run"
            results = http.get(f"/v1/evaluations/{run.id}/results").json()["data"]
            assert len(results) == 2 and {r["metric"] for r in results} == {criterion_id}
            cases = http.get(f"/v1/evaluations/{run.id}/test_cases").json()["data"]
            assert len(cases) == 2
            # Cancelling and deleting it stay with /v1/evals (which also drop its eval_run row):
            # the evaluation routes say so, naming those routes.
            path = f"/v1/evals/{ev.id}/runs/{run.id}"
            managed = (
                f"{run.id} is an evaluation of kind 'eval_run' (OpenAI eval run), canceled and "
                f"deleted through its own routes: POST {path}/cancel cancels it, "
                f"DELETE {path} deletes it."
            )
            for refused in (
                http.delete(f"/v1/evaluations/{run.id}"),
                http.post(f"/v1/evaluations/{run.id}/cancel"),
            ):
                assert refused.status_code == 409, refused.text
                assert refused.json()["detail"] == managed
            assert http.get(f"/v1/evaluations/{run.id}").status_code == 200

        # The Python SDK's iterator takes the same filter.
        with Loupe(api.base_url, key, httpx_args={"trust_env": False}) as loupe:
            assert [e.id for e in loupe.evaluations.list()] == [evaluation_id]
            assert [e.id for e in loupe.evaluations.list(kind="eval_run")] == [run.id]

        with api.tenant_client() as other:
            assert other.get("/v1/evaluations", params={"kind": "eval_run"}).json()["data"] == []
            assert other.get(f"/v1/evaluations/{run.id}").status_code == 404
            assert other.delete(f"/v1/evaluations/{run.id}").status_code == 404

    def test_an_unknown_kind_or_a_cursor_of_another_kind_is_refused(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        with api.client(client.api_key) as http:
            refused = http.get("/v1/evaluations", params={"kind": "run"})
            assert refused.status_code == 422
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert [e["pointer"] for e in refused.json()["errors"]] == ["/query/kind"]
            cursor = http.get(
                "/v1/evaluations", params={"kind": "eval_run", "after": "eval_0193c4"}
            )
            assert cursor.status_code == 400
            assert "evalrun_" in cursor.json()["detail"]
