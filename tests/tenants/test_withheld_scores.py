"""A key with `write` but not `read` creates and changes evaluations and comparisons, and reads no
score in their answers (the ninth round's security read): the comparison's create answer
carried every per-metric verdict, which the same key could not GET. The answers keep their
documented shape (the SDK parses them), their scores emptied."""

import time
import uuid

from loupe_client import Loupe

from app.api.withheld import WITHHELD
from tests.comparisons.helpers import PLANTED, compare, evaluation
from tests.fixtures.api import Api


def test_a_key_without_read_gets_a_comparisons_receipt_not_its_scores(api: Api) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    full = api.client(api.new_key(tenant))
    baseline = evaluation(api, full, set())
    candidate = evaluation(api, full, set(PLANTED))
    with api.client(api.new_key(tenant, ["write"])) as writer:
        created = compare(writer, baseline, candidate)
        assert created.status_code == 200, created.text
        body = created.json()
        assert body["metrics"] == [], body
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
        assert first.status_code == 200 and first.json()["metrics"]
        replayed = writer.post(
            "/v1/comparisons",
            json={"baseline_id": baseline, "candidate_id": candidate},
            headers=again,
        )
        assert replayed.status_code == 200, replayed.text
        assert replayed.json() == {**first.json(), "metrics": []}


def test_a_key_without_read_gets_an_evaluation_without_its_scores(api: Api) -> None:
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    full = api.client(api.new_key(tenant))
    writing = api.new_key(tenant, ["write"])
    with api.client(writing) as writer:
        made = writer.post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert made.status_code == 202, made.text
        assert made.json()["per_metric"] == [] and made.headers["Loupe-Withheld"] == "read"
        final = api.wait(full, made.json()["id"])
        assert final["per_metric"][0]["mean_score"] == 1.0
        # Closing an open evaluation answers it as it stands, its means left out.
        case = {"input": "q", "actual_output": "a", "expected_output": "a"}
        opened = writer.post(
            "/v1/evaluations",
            json={"open": True, "test_cases": [case], "metrics": [{"type": "exact_match"}]},
        )
        assert opened.status_code == 202, opened.text
        evaluation_id = opened.json()["id"]
        deadline = time.monotonic() + 60
        while not full.get(f"/v1/evaluations/{evaluation_id}").json()["result_counts"]["passed"]:
            assert time.monotonic() < deadline
            api.run_queue()
            time.sleep(0.05)
        closed = writer.post(f"/v1/evaluations/{evaluation_id}/close")
        assert closed.status_code == 200, closed.text
        assert closed.json()["per_metric"] == [] and closed.json()["id"] == evaluation_id
        assert full.get(f"/v1/evaluations/{evaluation_id}").json()["per_metric"][0]["mean_score"]
    # The Python SDK parses the answer as any other.
    with Loupe(base_url=api.base_url, api_key=writing) as sdk:
        parsed = sdk.evaluations.create(
            metrics=[{"type": "exact_match"}],
            test_cases=[{"input": "q", "actual_output": "a", "expected_output": "a"}],
        )
        assert parsed.id.startswith("evn_") and parsed.per_metric == []
    full.close()


def test_every_kinds_scored_object_is_withheld(api: Api) -> None:
    """The kinds' objects (a run's report, an eval run's criteria results, an alignment's
    report) are withheld as the core's are: each kind names its own in the registry."""
    assert WITHHELD["run"] == {"report": []}
    assert WITHHELD["eval.run"] == {"per_testing_criteria_results": []}
    assert WITHHELD["alignment"] == {"report": None}
    assert {"evaluation", "comparison"} <= set(WITHHELD)
