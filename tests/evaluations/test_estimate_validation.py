"""Issue 27's audit: a bad estimate or submission names every fault in one answer, a panel's
judges are distinct once resolved, the estimate paths answer 405 to other methods, and the
estimate says when the tenant's daily budget will not cover it."""

import csv
import io
import json
import os
from typing import Any

import pytest

from app.tenants import limits, repository
from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_stability import G_EVAL, Disagreeing, evaluated
from tests.evaluations.test_stability import cases as stable_cases
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.test_endpoints import vqa_dataset
from tests.usage.test_costs import cases, judge_reply

BAD_PANEL_BODY = {
    "test_cases": [{"id": "a", "input": "q"}],
    "metrics": [
        {
            "type": "g_eval",
            "name": "h",
            "evaluation_steps": ["x"],
            "evaluation_params": ["input", "actual_output"],
            "judge": {
                "panel": [{"model_id": "model_nope", "weight": -1}, {"model_id": "model_nope2"}]
            },
        }
    ],
}


def g_eval(judge: dict[str, Any]) -> dict[str, Any]:
    return {
        "test_cases": [{"id": "a", "input": "q", "actual_output": "a"}],
        "metrics": [
            {
                "type": "g_eval",
                "name": "h",
                "evaluation_steps": ["x"],
                "evaluation_params": ["input", "actual_output"],
                "judge": judge,
            }
        ],
    }


class TestEveryFaultInOneAnswer:
    @pytest.mark.parametrize("path", ["/v1/evaluations/estimate", "/v1/evaluations"])
    def test_a_refused_panel_still_has_its_models_and_the_metrics_needs_checked(
        self, api: Api, path: str
    ) -> None:
        with api.tenant_client() as client:
            found = problem(client.post(path, json=BAD_PANEL_BODY), 422)
        assert sorted(error_locs(found)) == [
            "metrics[0].judge.panel[0].model_id",
            "metrics[0].judge.panel[0].weight",
            "metrics[0].judge.panel[1].model_id",
            "test_cases[0].actual_output",
        ], found

    def test_every_bad_query_parameter_of_results(self, api: Api) -> None:
        body = {
            "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
            "metrics": [{"type": "exact_match"}],
        }
        with api.tenant_client() as client:
            submitted = client.post("/v1/evaluations", json=body)
            assert submitted.status_code == 202, submitted.text
            query = "fragile=maybe&limit=abc&status=zzz&bogus=1"
            found = problem(
                client.get(f"/v1/evaluations/{submitted.json()['id']}/results?{query}"), 400
            )
        assert sorted(error_locs(found)) == [
            "query.bogus",
            "query.fragile",
            "query.limit",
            "query.status",
        ], found
        assert "limit" in found["detail"] and "bogus" in found["detail"]

    def test_a_run_estimate_names_a_refused_field_once(self, api: Api) -> None:
        with api.tenant_client() as client:
            body = {"dataset_id": vqa_dataset(client), "limit": -1, "predictions": []}
            found = problem(client.post("/v1/runs/estimate", json=body), 422)
        locs = error_locs(found)
        assert locs.count("limit") == 1, found
        assert len(locs) == len(set(locs)), found


class TestEstimatePathsTakePostOnly:
    @pytest.mark.parametrize(
        "path", ["/v1/evaluations/estimate", "/v1/runs/estimate", "/v1/evals/eval_x/runs/estimate"]
    )
    @pytest.mark.parametrize("method", ["GET", "DELETE"])
    def test_405_with_allow_post(self, api: Api, path: str, method: str) -> None:
        with api.tenant_client() as client:
            response = client.request(method, path)
        assert response.status_code == 405, response.text
        assert response.headers["allow"] == "POST"
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["status"] == 405


class TestPanelJudgesDistinctOnceResolved:
    def test_the_servers_judge_twice_is_refused(self, api: Api) -> None:
        """`{}` is the server's judge; `{"model": "judge-model"}` names it by its model."""
        body = g_eval({"panel": [{}, {"model": "judge-model"}]})
        with api.tenant_client() as client:
            for path in ("/v1/evaluations/estimate", "/v1/evaluations"):
                found = problem(client.post(path, json=body), 422)
                assert error_locs(found) == ["metrics[0].judge.panel[1]"], found
                assert found["errors"][0]["type"] == "duplicate_judge"

    def test_another_model_on_the_servers_endpoint_is_another_judge(self, api: Api) -> None:
        body = g_eval({"panel": [{}, {"model": "other-model"}]})
        with api.tenant_client() as client:
            response = client.post("/v1/evaluations/estimate", json=body)
        assert response.status_code == 200, response.text


def set_budget(api: Api, name: str, usd: float | None) -> None:
    with api.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, name)
        assert tenant is not None
        limits.set_limits(session, tenant, daily_usd=usd)
        session.commit()


class TestEstimateAndTheDailyBudget:
    def test_a_note_when_less_is_left_than_it_costs_then_when_none_is(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_reply)
        name = f"estimate-budget-{api.mode}-{os.urandom(3).hex()}"
        key = api.new_key(name)
        body = {"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(3)}
        with api.client(key) as client:
            unlimited = client.post("/v1/evaluations/estimate", json=body).json()
            assert not [note for note in unlimited["notes"] if "budget" in note]
            set_budget(api, name, unlimited["usd"] / 2)
            short = client.post("/v1/evaluations/estimate", json=body)
            assert short.status_code == 200, short.text
            (note,) = [note for note in short.json()["notes"] if "budget" in note]
            assert "is left today" in note

            done = client.post("/v1/evaluations", json=body)
            assert done.status_code == 202, done.text
            api.wait(client, done.json()["id"])
            spent = client.post("/v1/evaluations/estimate", json=body)
            assert spent.status_code == 200, spent.text
            (note,) = [note for note in spent.json()["notes"] if "budget" in note]
            assert "is spent today" in note and "429" in note
            assert client.post("/v1/evaluations", json=body).status_code == 429


class TestExportFragile:
    def test_the_export_takes_the_fragile_filter(self, api: Api, judge: ScriptedJudge) -> None:
        script = Disagreeing({("judge-model", "steady"): [8], ("judge-model", "shaky"): [2, 8, 9]})
        judge.script(script)
        spec = {**G_EVAL, "judge": {"samples": 3}}
        with api.tenant_client() as client:
            final = evaluated(
                api, client, {"metrics": [spec], "test_cases": stable_cases("steady", "shaky")}
            )
            url = f"/v1/evaluations/{final['id']}/results/export"
            for fragile, expected in (("true", ["shaky"]), ("false", ["steady"])):
                exported = client.get(url, params={"format": "csv", "fragile": fragile})
                assert exported.status_code == 200, exported.text
                rows = csv.DictReader(io.StringIO(exported.text))
                assert [row["test_case_id"] for row in rows] == expected
            lines = client.get(url, params={"fragile": "true"}).text.splitlines()
            assert [json.loads(line)["test_case_id"] for line in lines] == ["shaky"]
