"""Every kind goes through one lifecycle: the same admission limits, the same cancel wherever
it is asked for (API or console), side effects only after the change commits."""

import logging
import re
from pathlib import Path

from app.main import create_app
from app.telemetry.metrics import EVALUATIONS_FINISHED
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.runs.helpers import wait_run
from tests.runs.test_endpoints import vqa_dataset

G_EVAL = {
    "type": "g_eval",
    "criteria": "Is it right?",
    "evaluation_params": ["input", "actual_output"],
}


def given_predictions(dataset_id: str, count: int) -> dict:
    return {
        "dataset_id": dataset_id,
        "subsets": ["example_vqa"],
        "limit": count,
        "predictions": [
            {"subset": "example_vqa", "index": index, "prediction": "a"} for index in range(count)
        ],
    }


class TestAdmission:
    def test_a_dataset_run_past_max_test_cases_is_refused(self, tmp_path: Path) -> None:
        with side_app(tmp_path, max_test_cases=2) as app, app.tenant_client() as client:
            response = client.post("/v1/runs", json=given_predictions(vqa_dataset(client), 3))
            assert response.status_code == 422, response.text
            (error,) = response.json()["errors"]
            assert error["loc"] == "limit" and "LOUPE_MAX_TEST_CASES" in error["msg"]
            listed = client.get("/v1/runs").json()["data"]
            assert listed == []

    def test_a_dataset_run_has_max_metrics_not_sixteen(self, tmp_path: Path) -> None:
        # Scored without a judge: the run in the wide app completes on its own.
        metrics = [{"type": "exact_match", "name": f"m{index}"} for index in range(17)]
        with side_app(tmp_path, max_metrics=2) as app, app.tenant_client() as client:
            body = {**given_predictions(vqa_dataset(client), 1), "metrics": metrics[:3]}
            response = client.post("/v1/runs", json=body)
            assert response.status_code == 422, response.text
            assert any(
                error["loc"] == "metrics" and "LOUPE_MAX_METRICS" in error["msg"]
                for error in response.json()["errors"]
            ), response.text
        with side_app(tmp_path / "wide", max_metrics=20) as app, app.tenant_client() as client:
            body = {**given_predictions(vqa_dataset(client), 1), "metrics": metrics}
            response = client.post("/v1/runs", json=body)
            # 17 metrics are within LOUPE_MAX_METRICS=20 (the schema used to stop at 16).
            assert response.status_code == 202, response.text
            assert wait_run(app, client, response.json()["id"])["status"] == "completed"


class TestConsoleCancel:
    def test_is_counted_and_logged_like_an_api_cancel(
        self, api: Api, judge: ScriptedJudge, log_records: list[logging.LogRecord]
    ) -> None:
        judge.script(plausible_answer)
        judge.hold()
        counter = EVALUATIONS_FINISHED.labels("evaluation", "canceled")
        before = counter._value.get()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        key = api.new_key()
        response = api.client(key).post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a"}],
                "metrics": [{**G_EVAL, "name": "right"}],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        client = signed_in(api, key)
        page = client.get(f"/console/evaluations/{evaluation_id}")
        cancel = client.post(
            f"/console/evaluations/{evaluation_id}/cancel",
            data={"csrf_token": csrf_of(page.text)},
        )
        assert cancel.status_code == 303
        canceled = [
            record
            for record in log_records
            if record.getMessage() == "evaluation.canceled"
            and getattr(record, "evaluation_id", None) == evaluation_id
        ]
        assert len(canceled) == 1
        assert counter._value.get() == before + 1


class TestKinds:
    def test_each_kinds_cancel_route_exists(self, api: Api) -> None:
        """A delete refused while one runs names the route that cancels it (it used to name
        /v1/{kind}s/{id}/cancel, a route eval runs do not have)."""
        from fastapi.routing import iter_route_contexts

        from app.kinds import KINDS
        from app.models import Evaluation

        cancels = [
            re.compile(re.sub(r"\{[^}]+\}", "[^/]+", context.path) + "$")
            for context in iter_route_contexts(create_app().routes)
            if context.path and "POST" in (context.methods or ())
        ]
        assert set(KINDS) == {"evaluation", "run", "eval_run", "online", "alignment"}
        with api.served.runtime.session() as session:
            for name, entry in KINDS.items():
                evaluation = Evaluation(id=f"{name}_x", kind=name)
                path = entry.kind.cancel_path(session, evaluation)
                assert any(pattern.match(path) for pattern in cancels), path

    def test_the_evaluation_list_takes_the_kinds_that_say_they_are_listed(self, api: Api) -> None:
        """`?kind=` takes what the registry marks as listed (a run has `/v1/runs`), refused in
        the same answer as the other bad parameters; the OpenAPI document names the same."""
        from app.evaluations import kinds

        client = api.tenant_client()
        response = client.get("/v1/evaluations", params={"kind": "run", "limit": 0})
        assert response.status_code == 422, response.text
        errors = {error["loc"]: error["msg"] for error in response.json()["errors"]}
        assert set(errors) == {"query.kind", "query.limit"}
        assert errors["query.kind"] == "must be one of 'evaluation', 'eval_run', 'online'"
        assert client.get("/v1/evaluations", params={"kind": "eval_run"}).status_code == 200
        spec = client.get("/openapi.json").json()
        (kind,) = [
            each
            for each in spec["paths"]["/v1/evaluations"]["get"]["parameters"]
            if each["name"] == "kind"
        ]
        assert (
            kind["schema"]["enum"] == list(kinds.listed()) == ["evaluation", "eval_run", "online"]
        )
        evaluation = spec["components"]["schemas"]["Evaluation"]["properties"]["kind"]
        assert evaluation["enum"] == list(kinds.names())
