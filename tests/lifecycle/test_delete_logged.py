"""A delete is a lifecycle event like submit, cancel and finish: one `evaluation.deleted` log
line and one count, sent once the deletion commits (it used to leave no trace)."""

import logging

from app.telemetry.metrics import EVALUATIONS_DELETED
from tests.fixtures.api import Api


class TestDelete:
    def test_is_logged_and_counted_once_it_commits(
        self, api: Api, log_records: list[logging.LogRecord]
    ) -> None:
        counter = EVALUATIONS_DELETED.labels("evaluation")
        before = counter._value.get()
        client = api.tenant_client()
        response = client.post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        assert api.wait(client, evaluation_id)["status"] == "completed"

        def deleted() -> list[logging.LogRecord]:
            return [
                record
                for record in log_records
                if record.getMessage() == "evaluation.deleted"
                and getattr(record, "evaluation_id", None) == evaluation_id
            ]

        assert deleted() == []
        assert client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204
        (line,) = deleted()
        assert line.kind == "evaluation" and line.status == "completed"  # type: ignore[attr-defined]
        assert line.tenant_id  # type: ignore[attr-defined]
        assert counter._value.get() == before + 1
        # A delete refused (already gone) sends nothing.
        assert client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 404
        assert len(deleted()) == 1 and counter._value.get() == before + 1
