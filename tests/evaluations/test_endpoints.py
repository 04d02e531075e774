"""The evaluations API end to end, in embedded and distributed mode."""

from typing import Any

from tests.fixtures.api import Api


def evaluation_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "smoke",
        "metadata": {"team": "search"},
        "test_cases": [
            {"id": "tc-a", "input": "2+2?", "actual_output": "4", "expected_output": "4"},
            {
                "input": "capital?",
                "actual_output": [{"type": "text", "text": "Paris"}],
                "expected_output": "paris",
            },
            {"input": "colour?", "actual_output": "blue", "expected_output": "red"},
        ],
        "metrics": [
            {"type": "exact_match"},
            {"type": "exact_match", "name": "loose", "case_sensitive": False},
        ],
    }
    body.update(overrides)
    return body


class TestCreate:
    def test_submit_and_poll_to_completion(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=evaluation_body())
        assert response.status_code == 202, response.text
        created = response.json()
        assert response.headers["location"] == f"/v1/evaluations/{created['id']}"
        assert created["status"] == "queued"
        assert created["result_counts"] == {
            "total": 6,
            "passed": 0,
            "failed": 0,
            "errored": 0,
            "pending": 6,
        }

        final = api.wait(client, created["id"])
        assert final["status"] == "completed"
        assert final["result_counts"] == {
            "total": 6,
            "passed": 3,
            "failed": 3,
            "errored": 0,
            "pending": 0,
        }
        summary = {m["metric"]: m for m in final["per_metric"]}
        assert summary["exact_match"]["mean_score"] == 1 / 3
        assert summary["loose"]["pass_rate"] == 2 / 3
        assert final["started_at"] and final["completed_at"]
        assert "retry-after" not in client.get(f"/v1/evaluations/{created['id']}").headers

        results = client.get(f"/v1/evaluations/{created['id']}/results").json()
        assert results["object"] == "list" and results["has_more"] is False
        rows = results["data"]
        assert [(r["test_case_id"], r["metric"]) for r in rows] == [
            ("tc-a", "exact_match"),
            ("tc-a", "loose"),
            ("1", "exact_match"),
            ("1", "loose"),
            ("2", "exact_match"),
            ("2", "loose"),
        ]
        assert rows[2]["passed"] is False and rows[3]["passed"] is True
        assert rows[2]["reason"].startswith("actual_output differs")
        assert rows[3]["logs"] == {
            "actual": "paris",
            "expected": "paris",
            "case_sensitive": False,
            "strip": True,
        }
