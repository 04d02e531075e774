"""What a queued or running run still uses is kept from deletion alike: its dataset (409) and
its candidate model (it answered 204, and the run's remaining samples each failed
`candidate_missing`)."""

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import register_model
from tests.runs.test_endpoints import vqa_dataset


class TestModelInUse:
    def test_is_kept_while_a_run_calls_it_and_deleted_once_none_does(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        dataset_id = vqa_dataset(client)
        model_id = register_model(client, judge.base_url)
        judge.hold()
        try:
            body = {"dataset_id": dataset_id, "model_id": model_id, "limit": 1}
            created = client.post("/v1/runs", json=body)
            assert created.status_code == 202, created.text
            run_id = created.json()["id"]
            refused = client.delete(f"/v1/models/{model_id}")
            assert refused.status_code == 409, refused.text
            problem = refused.json()
            assert problem["type"].endswith("/model-in-use") and run_id in problem["detail"]
            assert [error["loc"] for error in problem["errors"]] == ["path.model_id"], problem
            # The dataset the run reads answers the same way.
            assert client.delete(f"/v1/datasets/{dataset_id}").status_code == 409
            assert client.get(f"/v1/models/{model_id}").status_code == 200
            assert client.post(f"/v1/runs/{run_id}/cancel").status_code == 200
        finally:
            judge.release()
        assert client.delete(f"/v1/models/{model_id}").status_code == 204
        assert client.get(f"/v1/models/{model_id}").status_code == 404
        assert client.get(f"/v1/runs/{run_id}").json()["status"] == "canceled"
