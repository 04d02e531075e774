"""A 404 or 409 about a resource named in the path names that path parameter in `errors`,
as every other problem names its field: the id not found, or the resource whose state
conflicts with what was asked."""

import pytest

from tests.fixtures.api import Api

EXACT = [{"type": "exact_match"}]
CASE = {"input": "q", "actual_output": "a", "expected_output": "a"}


@pytest.mark.parametrize(
    ("method", "path", "field"),
    [
        ("GET", "/v1/evaluations/evn_nope", "path.evaluation_id"),
        ("POST", "/v1/evaluations/evn_nope/cancel", "path.evaluation_id"),
        ("DELETE", "/v1/evaluations/evn_nope", "path.evaluation_id"),
        ("GET", "/v1/runs/run_nope", "path.run_id"),
        ("GET", "/v1/datasets/ds_nope", "path.dataset_id"),
        ("GET", "/v1/online_rules/rule_nope", "path.rule_id"),
        ("GET", "/v1/comparisons/cmp_nope", "path.comparison_id"),
        ("GET", "/v1/webhook_endpoints/we_nope/deliveries", "path.endpoint_id"),
        ("GET", "/v1/models/model_nope", "path.model_id"),
        ("GET", "/v1/alignments/aln_nope", "path.alignment_id"),
        ("GET", "/v1/evals/eval_nope/runs/evalrun_nope", "path.eval_id"),
        ("GET", "/v1/files/file_nope", "path.file_id"),
    ],
)
def test_a_missing_id_in_the_path_is_named(api: Api, method: str, path: str, field: str) -> None:
    with api.tenant_client() as client:
        response = client.request(method, path)
    assert response.status_code == 404, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    errors = response.json()["errors"]
    assert [error["loc"] for error in errors] == [field], errors
    assert errors[0]["pointer"] == "/" + field.replace(".", "/")


def test_an_unknown_route_still_names_no_field(api: Api) -> None:
    with api.tenant_client() as client:
        body = client.get("/v1/nothing/here").json()
    assert body["status"] == 404 and "errors" not in body


def test_a_conflict_names_the_resource_in_the_path(api: Api) -> None:
    with api.tenant_client() as client:
        submitted = client.post("/v1/evaluations", json={"test_cases": [CASE], "metrics": EXACT})
        evaluation_id = submitted.json()["id"]
        api.wait(client, evaluation_id)
        appended = client.post(
            f"/v1/evaluations/{evaluation_id}/test_cases", json={"test_cases": [CASE]}
        )
    assert appended.status_code == 409, appended.text
    errors = appended.json()["errors"]
    assert [error["loc"] for error in errors] == ["path.evaluation_id"], errors
    assert errors[0]["msg"] == appended.json()["detail"]
