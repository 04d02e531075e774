"""A key with `write` but not `read` creates and changes evaluations and comparisons, and reads no
score in their answers (the ninth round's security read): the comparison's create answer
carried every per-metric verdict, which the same key could not GET."""

import uuid

from tests.comparisons.helpers import PLANTED, compare, evaluation
from tests.fixtures.api import Api

RECEIPT = {"object", "id", "kind", "status", "created_at", "baseline_id", "candidate_id"}


def test_a_key_without_read_gets_a_comparisons_receipt_not_its_scores(api: Api) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    full = api.client(api.new_key(tenant))
    baseline = evaluation(api, full, set())
    candidate = evaluation(api, full, set(PLANTED))
    with api.client(api.new_key(tenant, ["write"])) as writer:
        created = compare(writer, baseline, candidate)
        assert created.status_code == 200, created.text
        body = created.json()
        assert set(body) <= RECEIPT and "metrics" not in body and "unmatched" not in body, body
        assert body["object"] == "comparison" and body["baseline_id"] == baseline
        assert created.headers["Loupe-Withheld"] == "read"
        assert created.headers["Location"] == f"/v1/comparisons/{body['id']}"
        assert writer.get(created.headers["Location"]).status_code == 403
        # A key with `read` reads it whole.
        stored = full.get(created.headers["Location"]).json()
        assert stored["metrics"][0]["regressed_items"] == len(PLANTED)
        # Nor from another key's answer, replayed for the same Idempotency-Key.
        again = {"Idempotency-Key": uuid.uuid4().hex}
        first = full.post(
            "/v1/comparisons",
            json={"baseline_id": baseline, "candidate_id": candidate},
            headers=again,
        )
        assert first.status_code == 200 and "metrics" in first.json()
        replayed = writer.post(
            "/v1/comparisons",
            json={"baseline_id": baseline, "candidate_id": candidate},
            headers=again,
        )
        assert replayed.status_code == 200, replayed.text
        assert replayed.json() == {k: v for k, v in first.json().items() if k in RECEIPT}


def test_a_key_without_read_gets_an_evaluations_receipt(api: Api) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    full = api.client(api.new_key(tenant))
    with api.client(api.new_key(tenant, ["write"])) as writer:
        made = writer.post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert made.status_code == 202, made.text
        assert set(made.json()) <= {"object", "id", "kind", "status", "created_at"}, made.json()
        final = api.wait(full, made.json()["id"])
        assert final["per_metric"][0]["mean_score"] == 1.0
        # A rerun answers the evaluation as it stands: its receipt, no mean.
        rerun = writer.post(f"/v1/evaluations/{final['id']}/rerun", json={})
        assert rerun.status_code < 500, rerun.text
        assert "per_metric" not in rerun.text, rerun.text
    full.close()
