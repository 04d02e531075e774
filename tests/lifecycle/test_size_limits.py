"""The size limits are stated once (app/evaluations/admission.py `size_problems`) and point at
the field a client chose them with: an eval with more criteria than any run may have is refused
when it is made, and a dataset run over LOUPE_MAX_TEST_CASES names the field that chose its rows.
"""

from pathlib import Path

import httpx

from tests.evals.helpers import CRITERIA, ITEM_SCHEMA
from tests.fixtures.api import side_app
from tests.runs.helpers import example_zip, upload


def _eval(criteria: list[dict]) -> dict:
    return {
        "name": "wide",
        "data_source_config": {"type": "custom", "item_schema": ITEM_SCHEMA},
        "testing_criteria": criteria,
    }


def _criteria(count: int) -> list[dict]:
    return [{**CRITERIA[0], "name": f"exact {index}"} for index in range(count)]


class TestEvalCriteria:
    def test_more_criteria_than_max_metrics_are_refused_at_create(self, tmp_path: Path) -> None:
        # Such an eval used to be stored, and every run of it refused naming `testing_criteria`,
        # a field the run request does not have.
        with side_app(tmp_path, max_metrics=2) as app, app.tenant_client() as client:
            response = client.post("/v1/evals", json=_eval(_criteria(3)))
            assert response.status_code == 400, response.text
            body = response.json()
            (error,) = body["errors"]
            assert error["loc"] == "testing_criteria"
            assert "LOUPE_MAX_METRICS" in error["msg"]
            assert body["error"]["param"] == "testing_criteria"  # the OpenAI dialect
            assert client.get("/v1/evals").json()["data"] == []
            # At the limit it is made, and its run is not refused for its criteria.
            made = client.post("/v1/evals", json=_eval(_criteria(2)))
            assert made.status_code == 201, made.text


def _one_subset_dataset(client: httpx.Client) -> tuple[str, int]:
    response = upload(client, "vqa.zip", example_zip("vqa/example_vqa.jsonl"), "general_vqa")
    assert response.status_code == 201, response.text
    (subset,) = response.json()["subsets"]
    return response.json()["id"], response.json()["row_count"]


def _predicted(dataset_id: str, rows: int, **chosen: object) -> dict:
    return {
        "dataset_id": dataset_id,
        "predictions": [
            {"subset": "example_vqa", "index": index, "prediction": "a"} for index in range(rows)
        ],
        **chosen,
    }


class TestDatasetRunRows:
    def test_over_max_test_cases_names_the_field_that_chose_the_rows(self, tmp_path: Path) -> None:
        with side_app(tmp_path, max_test_cases=2) as app, app.tenant_client() as client:
            dataset_id, rows = _one_subset_dataset(client)
            assert rows > 2
            for chosen, field in [
                ({}, "dataset_id"),
                ({"subsets": ["example_vqa"]}, "subsets"),
            ]:
                response = client.post("/v1/runs", json=_predicted(dataset_id, rows, **chosen))
                assert response.status_code == 422, response.text
                (error,) = response.json()["errors"]
                # It used to name `limit`, which the client had not sent.
                assert error["loc"] == field, (chosen, error)
                assert "LOUPE_MAX_TEST_CASES" in error["msg"]
            assert client.get("/v1/runs").json()["data"] == []
