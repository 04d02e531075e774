"""An open evaluation's test cases appended in batches, then closed, through the HTTP API in
embedded and distributed mode."""

import time
from pathlib import Path
from typing import Any

import httpx

from tests.fixtures.api import Api, side_app
from tests.sdk.helpers import RED

from .test_endpoints import error_locs, problem

METRICS = [{"type": "exact_match"}]


def cases(first: int, count: int, **fields: Any) -> list[dict[str, Any]]:
    return [
        {"id": f"c{i}", "input": f"q{i}", "actual_output": "a", "expected_output": "a", **fields}
        for i in range(first, first + count)
    ]


def open_evaluation(client: httpx.Client, test_cases: list[dict[str, Any]]) -> dict[str, Any]:
    response = client.post(
        "/v1/evaluations", json={"open": True, "test_cases": test_cases, "metrics": METRICS}
    )
    assert response.status_code == 202, response.text
    return response.json()


def append(
    client: httpx.Client, evaluation_id: str, test_cases: list[dict[str, Any]], key: str = ""
) -> httpx.Response:
    headers = {"Idempotency-Key": key} if key else {}
    return client.post(
        f"/v1/evaluations/{evaluation_id}/test_cases",
        json={"test_cases": test_cases},
        headers=headers,
    )


def wait_scored(api: Api, client: httpx.Client, evaluation_id: str) -> dict[str, Any]:
    """Run the queue and poll until nothing appended is pending; returns the evaluation."""
    deadline = time.monotonic() + 60
    while True:
        api.run_queue()
        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
        if body["result_counts"]["pending"] == 0:
            return body
        assert time.monotonic() < deadline, body["result_counts"]
        time.sleep(0.05)


class TestBatches:
    def test_batches_are_scored_but_completed_only_once_closed(self, api: Api) -> None:
        client = api.tenant_client()
        created = open_evaluation(client, cases(0, 1))
        evaluation_id = created["id"]
        assert (created["open"], created["test_case_count"]) == (True, 1)
        for batch in range(3):
            answer = append(client, evaluation_id, cases(1 + 2 * batch, 2), key=f"b{batch}")
            assert answer.status_code == 202, answer.text
            # Where to poll, and when: as every 202 that starts work answers.
            assert answer.headers["location"] == f"/v1/evaluations/{evaluation_id}"
            assert answer.headers["retry-after"] == "2"
            assert answer.json() == {
                "object": "test_case_batch",
                "evaluation_id": evaluation_id,
                "first_index": 1 + 2 * batch,
                "count": 2,
                "test_case_count": 3 + 2 * batch,
            }
        scored = wait_scored(api, client, evaluation_id)
        # Every appended case is scored, and still not completed: more may come.
        assert scored["status"] == "in_progress" and scored["open"] is True
        assert scored["test_case_count"] == 7 and scored["result_counts"]["passed"] == 7

        closed = client.post(f"/v1/evaluations/{evaluation_id}/close")
        assert closed.status_code == 200, closed.text
        assert (closed.json()["status"], closed.json()["open"]) == ("completed", False)
        # Closing again changes nothing.
        again = client.post(f"/v1/evaluations/{evaluation_id}/close").json()
        assert (again["status"], again["completed_at"]) == (
            "completed",
            closed.json()["completed_at"],
        )
        results = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"]
        assert [r["test_case_id"] for r in results] == [f"c{i}" for i in range(7)]

    def test_closed_before_its_cases_are_scored_completes_with_its_last_job(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, [])["id"]
        assert append(client, evaluation_id, cases(0, 3)).status_code == 202
        assert client.post(f"/v1/evaluations/{evaluation_id}/close").status_code == 200
        done = api.wait(client, evaluation_id)
        assert done["status"] == "completed" and done["result_counts"]["passed"] == 3

    def test_an_evaluation_with_no_case_is_not_closed_into_a_green_completed(
        self, api: Api
    ) -> None:
        # A pipeline whose upload produced nothing closed it "completed", 0 / 0 results.
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, [])["id"]
        refused = problem(client.post(f"/v1/evaluations/{evaluation_id}/close"), 409)
        assert refused["type"].endswith("/evaluation-empty"), refused
        assert "append at least one batch" in refused["detail"]
        still = client.get(f"/v1/evaluations/{evaluation_id}").json()
        assert (still["open"], still["status"]) != (False, "completed")
        # Appending then closing works; an empty one can still be canceled and deleted.
        assert append(client, evaluation_id, cases(0, 1)).status_code == 202
        assert client.post(f"/v1/evaluations/{evaluation_id}/close").status_code == 200
        assert api.wait(client, evaluation_id)["status"] == "completed"
        empty = open_evaluation(client, [])["id"]
        assert client.post(f"/v1/evaluations/{empty}/cancel").status_code == 200
        assert client.delete(f"/v1/evaluations/{empty}").status_code == 204

    def test_a_retried_batch_is_appended_once(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, [])["id"]
        first = append(client, evaluation_id, cases(0, 2), key="batch-1")
        retry = append(client, evaluation_id, cases(0, 2), key="batch-1")
        assert first.status_code == retry.status_code == 202
        assert retry.json() == first.json() and retry.headers["idempotent-replayed"] == "true"
        other = problem(append(client, evaluation_id, cases(5, 2), key="batch-1"), 422)
        assert "different request body" in other["detail"]
        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
        assert body["test_case_count"] == 2

    def test_every_case_at_fault_is_named_in_one_answer(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, cases(0, 2))["id"]
        batch = [
            *cases(1, 1),  # c1: an earlier batch's id
            {"id": "x", "input": "q", "actual_output": "a"},  # exact_match needs expected_output
            {"input": "q", "actual_output": "a", "expected_output": "a"},  # its index, "4"
            {"id": "4", "input": "q", "actual_output": "a", "expected_output": "a"},
        ]
        body = problem(append(client, evaluation_id, batch), 422)
        assert sorted(error_locs(body)) == [
            "test_cases[0].id",
            "test_cases[1].expected_output",
            "test_cases[2].id",
        ]
        assert client.get(f"/v1/evaluations/{evaluation_id}").json()["test_case_count"] == 2
        # Another tenant's open evaluation is not found.
        stranger = api.tenant_client()
        problem(append(stranger, evaluation_id, cases(9, 1)), 404)
        problem(stranger.post(f"/v1/evaluations/{evaluation_id}/close"), 404)

    def test_a_batch_whose_only_fault_is_a_taken_id_is_a_422_naming_it(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, cases(0, 2))["id"]
        body = problem(append(client, evaluation_id, cases(1, 1)), 422)
        message = "id 'c1' is already a test case of this evaluation (an earlier batch)"
        assert body["errors"] == [
            {
                "loc": "test_cases[0].id",
                "pointer": "/test_cases/0/id",
                "msg": message,
                "type": "duplicate_id",
            }
        ]
        assert body["detail"] == f"test_cases[0].id: {message}"
        assert body["type"].endswith("/validation")
        assert client.get(f"/v1/evaluations/{evaluation_id}").json()["test_case_count"] == 2
        assert append(client, evaluation_id, cases(2, 1)).status_code == 202

    def test_a_batch_goes_through_the_media_pipeline(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, [])["id"]
        image = {"type": "image_url", "image_url": {"url": RED}}
        broken = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}
        refused = append(client, evaluation_id, cases(0, 2, input=["What is it?", broken]))
        assert error_locs(problem(refused, 422)) == [
            "test_cases[0].input[1].image_url.url",
            "test_cases[1].input[1].image_url.url",
        ]
        assert append(client, evaluation_id, cases(0, 1, input=["?", image])).status_code == 202
        stored = client.get(f"/v1/evaluations/{evaluation_id}/test_cases").json()["data"]
        assert "/v1/media/" in stored[0]["input"][1]["image_url"]["url"]

    def test_an_evaluation_not_open_takes_no_batch(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, cases(0, 1))["id"]
        client.post(f"/v1/evaluations/{evaluation_id}/close")
        assert problem(append(client, evaluation_id, cases(1, 1)), 409)["detail"]
        plain = client.post(
            "/v1/evaluations", json={"test_cases": cases(0, 1), "metrics": METRICS}
        ).json()["id"]
        problem(append(client, plain, cases(1, 1)), 409)
        # Without open, a submit still needs a test case.
        missing = client.post("/v1/evaluations", json={"metrics": METRICS})
        assert error_locs(problem(missing, 422)) == ["test_cases"]

    def test_canceled_while_open_then_deleted(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = open_evaluation(client, cases(0, 1))["id"]
        canceled = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert canceled.json()["status"] == "canceled"
        problem(append(client, evaluation_id, cases(1, 1)), 409)
        assert client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204


def test_the_cap_on_all_batches_names_its_setting(tmp_path: Path) -> None:
    with side_app(tmp_path, max_evaluation_test_cases=3) as app:
        client = app.tenant_client()
        evaluation_id = open_evaluation(client, cases(0, 2))["id"]
        body = problem(append(client, evaluation_id, cases(2, 2)), 422)
        assert error_locs(body) == ["test_cases"]
        assert "LOUPE_MAX_EVALUATION_TEST_CASES" in body["detail"]


class TestEveryProblemInOneAnswer:
    """A batch's schema errors, a metric's needs, ids earlier batches hold and the cap on all
    batches (3 here) are named in one 422, not one kind a round."""

    def test_a_batch_failing_its_schema_is_told_its_taken_ids_and_the_cap_too(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path, max_evaluation_test_cases=3) as app:
            client = app.tenant_client()
            evaluation_id = open_evaluation(client, cases(0, 2))["id"]
            batch = [
                {**cases(0, 1)[0], "score": 1},  # no such field, and an earlier batch's id
                *cases(1, 1),  # an earlier batch's id
                {"id": "x", "input": "q", "actual_output": "a"},  # no expected_output
            ]
            body = problem(append(client, evaluation_id, batch), 422)
            assert sorted((error["loc"], error["type"]) for error in body["errors"]) == [
                ("test_cases", "too_long"),
                ("test_cases[0].id", "duplicate_id"),
                ("test_cases[0].score", "extra_forbidden"),
                ("test_cases[1].id", "duplicate_id"),
                ("test_cases[2].expected_output", "missing_for_metric"),
            ]
            cap = next(error for error in body["errors"] if error["loc"] == "test_cases")
            assert "LOUPE_MAX_EVALUATION_TEST_CASES" in cap["msg"]
            assert "(and 2 more)" in body["detail"]
            assert client.get(f"/v1/evaluations/{evaluation_id}").json()["test_case_count"] == 2

    def test_a_batch_passing_its_schema_is_told_its_taken_ids_and_the_cap_with_its_needs(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path, max_evaluation_test_cases=3) as app:
            client = app.tenant_client()
            evaluation_id = open_evaluation(client, cases(0, 2))["id"]
            batch = [*cases(1, 1), {"id": "x", "input": "q", "actual_output": "a"}]
            body = problem(append(client, evaluation_id, batch), 422)
            assert sorted((error["loc"], error["type"]) for error in body["errors"]) == [
                ("test_cases", "too_long"),
                ("test_cases[0].id", "duplicate_id"),
                ("test_cases[1].expected_output", "missing_for_metric"),
            ]
            assert "LOUPE_MAX_EVALUATION_TEST_CASES" in body["detail"]
            assert client.get(f"/v1/evaluations/{evaluation_id}").json()["test_case_count"] == 2
