"""Every API route that changes something had its audit event decided (the outside authorization
audit): `AUDITED` names, for every operation of the OpenAPI document whose method is not GET,
the action it leaves on the trail, or why it leaves none; a new route fails
`test_every_change_had_its_audit_decided` until it is added here (and its event is tested where
its domain's are: tests/audit/test_audit_events.py, tests/lifecycle/test_contract.py, the
labels', review queues' and alignments' own). The batches of an open evaluation, which no other
test followed onto the trail, are followed here."""

import json
from typing import Any

from app.main import create_app
from tests.audit.helpers import events, key_actor
from tests.evaluations.test_batches import append, cases, open_evaluation
from tests.fixtures.api import Api, fast_settings

# Why a route that changes something leaves no event.
STORES_NOTHING = "prices a submission without keeping it"
INGESTED = "ingested calls are data, as results are: the online rules judging them are audited"
# Each operation's action (`<object type>.<verb>`), or the reason it has none.
AUDITED: dict[tuple[str, str], str] = {
    ("POST", "/v1/evaluations"): "evaluation.create",
    ("POST", "/v1/evaluations/estimate"): STORES_NOTHING,
    ("DELETE", "/v1/evaluations/{evaluation_id}"): "evaluation.delete",
    ("POST", "/v1/evaluations/{evaluation_id}/test_cases"): "evaluation.append",
    ("POST", "/v1/evaluations/{evaluation_id}/close"): "evaluation.close",
    ("POST", "/v1/evaluations/{evaluation_id}/cancel"): "evaluation.cancel",
    ("POST", "/v1/runs"): "run.create",
    ("POST", "/v1/runs/estimate"): STORES_NOTHING,
    ("DELETE", "/v1/runs/{run_id}"): "run.delete",
    ("POST", "/v1/runs/{run_id}/cancel"): "run.cancel",
    ("POST", "/v1/evals"): "eval.create",
    ("POST", "/v1/evals/{eval_id}"): "eval.update",
    ("DELETE", "/v1/evals/{eval_id}"): "eval.delete",
    ("POST", "/v1/evals/{eval_id}/runs"): "eval_run.create",
    ("POST", "/v1/evals/{eval_id}/runs/estimate"): STORES_NOTHING,
    # Older openai SDKs cancel with a POST to the run itself.
    ("POST", "/v1/evals/{eval_id}/runs/{run_id}"): "eval_run.cancel",
    ("DELETE", "/v1/evals/{eval_id}/runs/{run_id}"): "eval_run.delete",
    ("POST", "/v1/evals/{eval_id}/runs/{run_id}/cancel"): "eval_run.cancel",
    ("POST", "/v1/online_rules"): "online_rule.create",
    ("PATCH", "/v1/online_rules/{rule_id}"): "online_rule.update",
    ("DELETE", "/v1/online_rules/{rule_id}"): "online_rule.delete",
    ("POST", "/v1/online_rules/{rule_id}/enable"): "online_rule.enable",
    ("POST", "/v1/online_rules/{rule_id}/disable"): "online_rule.disable",
    ("POST", "/v1/online_rules/{rule_id}/backfill"): "online_rule.backfill",
    ("POST", "/v1/traces"): INGESTED,
    ("POST", "/v1/logs"): INGESTED,
    ("POST", "/v1/alignments"): "alignment.create",
    ("DELETE", "/v1/alignments/{alignment_id}"): "alignment.delete",
    ("POST", "/v1/alignments/{alignment_id}/activate"): "alignment.activate",
    ("POST", "/v1/alignments/{alignment_id}/decline"): "alignment.decline",
    ("POST", "/v1/alignments/{alignment_id}/cancel"): "alignment.cancel",
    ("POST", "/v1/webhook_endpoints"): "webhook_endpoint.create",
    ("DELETE", "/v1/webhook_endpoints/{endpoint_id}"): "webhook_endpoint.delete",
    ("POST", "/v1/datasets"): "dataset.create",
    ("DELETE", "/v1/datasets/{dataset_id}"): "dataset.delete",
    ("POST", "/v1/models"): "model.create",
    ("DELETE", "/v1/models/{model_id}"): "model.delete",
    ("POST", "/v1/comparisons"): "comparison.create",
    ("DELETE", "/v1/comparisons/{comparison_id}"): "comparison.delete",
    ("POST", "/v1/files"): "file.create",
    ("DELETE", "/v1/files/{file_id}"): "file.delete",
    # A label given again by its giver is `label.update`.
    ("POST", "/v1/labels"): "label.create",
    ("POST", "/v1/labels/import"): "label.import",
    ("DELETE", "/v1/labels/{label_id}"): "label.delete",
    ("POST", "/v1/review_queues"): "review_queue.create",
    ("DELETE", "/v1/review_queues/{queue_id}"): "review_queue.delete",
    ("POST", "/v1/review_queues/{queue_id}/claim"): "review_item.claim",
    ("POST", "/v1/review_queues/{queue_id}/items/{item_id}/label"): "label.create",
    ("POST", "/v1/review_queues/{queue_id}/items/{item_id}/release"): "review_item.release",
}


def _changes() -> set[tuple[str, str]]:
    document = create_app(fast_settings()).openapi()
    return {
        (method.upper(), path)
        for path, operations in document["paths"].items()
        for method in operations
        if method.upper() not in ("GET", "HEAD", "OPTIONS")
    }


def test_every_change_had_its_audit_decided() -> None:
    undecided = sorted(_changes() - set(AUDITED))
    assert not undecided, f"decide each route's audit event and add it to AUDITED: {undecided}"
    assert set(AUDITED) == _changes(), sorted(set(AUDITED) - _changes())
    for route, action in AUDITED.items():
        # An action is `<object type>.<verb>`; a reason is words.
        assert " " in action or action.count(".") == 1, route


def test_an_open_evaluations_batches_and_close_are_audited(api: Api) -> None:
    key = api.new_key()
    client = api.client(key)
    created = open_evaluation(client, cases(0, 1))
    evaluation_id = created["id"]
    appended = append(client, evaluation_id, cases(1, 2))
    assert appended.status_code == 202, appended.text
    closed = client.post(f"/v1/evaluations/{evaluation_id}/close")
    assert closed.status_code == 200, closed.text
    api.wait(client, evaluation_id)
    found: list[dict[str, Any]] = list(reversed(events(client, object_id=evaluation_id)))
    assert [(e["action"], e["object_type"]) for e in found] == [
        ("evaluation.create", "evaluation"),
        ("evaluation.append", "evaluation"),
        ("evaluation.close", "evaluation"),
    ], found
    assert {e["actor"] for e in found} == {key_actor(api, key)}
    assert found[1]["details"] == {"first_index": 1, "test_cases": 2}
    assert found[2]["details"] == {"test_cases": 3}
    assert key not in json.dumps(found)
    # Another tenant's admin reads none of them.
    stranger = api.client(api.new_key())
    assert events(stranger, object_id=evaluation_id) == []
