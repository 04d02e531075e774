"""The audit trail is kept LOUPE_AUDIT_RETENTION_DAYS (365 by default), pruned by the ticker;
the ticker's own changes (retention deleting an evaluation) are recorded as `system`'s."""

from pathlib import Path

from tests.audit.helpers import events
from tests.fixtures.api import Api, side_app
from workers.jobs import tick

EVALUATION = {
    "name": "kept a while",
    "test_cases": [{"input": "2+2?", "actual_output": "4", "expected_output": "4"}],
    "metrics": [{"type": "exact_match"}],
}


class TestRetention:
    def test_the_ticker_prunes_events_past_the_setting(self, tmp_path: Path) -> None:
        # A millisecond: every event recorded before the tick is past it (the app's own ticker
        # waits an hour, so the explicit tick is the only one).
        with (
            side_app(tmp_path, audit_retention_days=0.001 / 86400, tick_seconds=3600) as app,
            app.tenant_client() as client,
        ):
            response = client.post("/v1/evaluations", json=EVALUATION)
            assert response.status_code == 202, response.text
            assert [e["action"] for e in events(client)] == ["evaluation.create"]
            tick(app.served.runtime)
            assert events(client) == []
            # The evaluation itself is kept: only its trail aged out.
            assert client.get(f"/v1/evaluations/{response.json()['id']}").status_code == 200

    def test_kept_for_a_year_by_default(self, api: Api) -> None:
        assert api.settings.audit_retention_days == 365
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=EVALUATION)
        assert response.status_code == 202, response.text
        tick(api.served.runtime)
        assert [e["action"] for e in events(client)] == ["evaluation.create"]

    def test_retention_deleting_an_evaluation_is_the_systems_act(self, tmp_path: Path) -> None:
        with (
            side_app(tmp_path, retention_days=0.001 / 86400, tick_seconds=3600) as app,
            app.tenant_client() as client,
        ):
            response = client.post("/v1/evaluations", json=EVALUATION)
            assert response.status_code == 202, response.text
            evaluation_id = response.json()["id"]
            app.wait(client, evaluation_id)
            tick(app.served.runtime)
            assert client.get(f"/v1/evaluations/{evaluation_id}").status_code == 404
            deleted = events(client, action="evaluation.delete")
            assert [(e["actor"], e["object_id"]) for e in deleted] == [("system", evaluation_id)]
            assert deleted[0]["details"]["status"] == "completed"
