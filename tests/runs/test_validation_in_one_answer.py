"""POST /v1/runs answers every problem of a request in one 422 (issue 24, item 7): the schema's
and the checks that read the tenant's datasets, models, webhooks and judges, each naming its
field."""

from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.runs.test_endpoints import vqa_dataset

UNREGISTERED_WEBHOOK = "http://127.0.0.1:9/never-registered"


def locs(found: dict) -> set[str]:
    return {error["loc"] for error in found["errors"]}


class TestOneAnswer:
    def test_a_schema_error_hides_nothing_else(self, api: Api) -> None:
        """A name too long (the schema) with an unknown model, a subset the dataset lacks and
        an unregistered webhook: all four, where only the name was named before."""
        with api.tenant_client() as client:
            body = {
                "dataset_id": vqa_dataset(client),
                "model_id": "model_unknown",
                "subsets": ["zz"],
                "webhook_url": UNREGISTERED_WEBHOOK,
                "name": "n" * 300,
            }
            found = problem(client.post("/v1/runs", json=body), 422)
        assert locs(found) == {"name", "model_id", "subsets[0]", "webhook_url"}, found
        assert not [e for e in found["errors"] if "Value error, " in e["msg"]]

    def test_an_unknown_dataset_hides_nothing_else(self, api: Api) -> None:
        """The dataset, the model, the webhook and the judge's model: one answer."""
        body = {
            "dataset_id": "ds_unknown",
            "model_id": "model_unknown",
            "webhook_url": UNREGISTERED_WEBHOOK,
            "judge": {"strategy": "llm", "model_id": "model_gone"},
        }
        with api.tenant_client() as client:
            found = problem(client.post("/v1/runs", json=body), 422)
        assert locs(found) == {"dataset_id", "model_id", "webhook_url", "judge.model_id"}, found

    def test_clusters_and_predictions_together(self, api: Api) -> None:
        """A cluster column the rows lack and a prediction for no sample, in one answer (the
        cluster column used to be answered first)."""
        with api.tenant_client() as client:
            body = {
                "dataset_id": vqa_dataset(client),
                "subsets": ["example_vqa"],
                "limit": 1,
                "cluster_by": "category",
                "predictions": [
                    {"index": 0, "prediction": "x"},
                    {"index": 3, "prediction": "y"},
                ],
            }
            found = problem(client.post("/v1/runs", json=body), 422)
        assert [e["loc"] for e in found["errors"]] == ["cluster_by", "predictions[1]"]

    def test_the_model_validators_message_reads_as_written(self, api: Api) -> None:
        with api.tenant_client() as client:
            body = {"dataset_id": vqa_dataset(client)}
            found = problem(client.post("/v1/runs", json=body), 422)
        assert [e["msg"] for e in found["errors"]] == [
            "give exactly one of model_id or predictions"
        ]
        # Named where a client can point: model_id, not the body.
        assert [e["pointer"] for e in found["errors"]] == ["/model_id"]

    def test_a_bad_limit_does_not_hide_two_sources(self, api: Api) -> None:
        # The one-source rule was a model validator: any field's error skipped it.
        with api.tenant_client() as client:
            body = {
                "dataset_id": vqa_dataset(client),
                "limit": 1.5,
                "model_id": "model_nope",
                "predictions": [{"index": 0, "prediction": "x"}],
            }
            found = problem(client.post("/v1/runs", json=body), 422)
        named = [(e["loc"], e["msg"]) for e in found["errors"]]
        assert named[0][0] == "limit", named
        assert ("model_id", "give exactly one of model_id or predictions") in named, named
