"""The provider metrics' label sets stay bounded and keep tenants' words off them: tenants may
name any model on the operator's judge, but only the names the operator configured (its judge
model and the models in LOUPE_MODEL_PRICES) are shown, each up to 32 per host; every other name
counts as model `other` (the host cap, 32 then `other`, is tested on LabelBudget itself: a
tenant's registered models all count as host `tenant`). Scraped from a real `loupe serve`
process after one evaluation whose metrics each name another judge model."""

import json
from collections import defaultdict
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from app.judges._telemetry import MAX_MODEL_LABELS, OTHER
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.telemetry.served import loupe_serve

MODEL_NAMES = MAX_MODEL_LABELS + 8
FAMILIES = (
    "loupe_provider_requests_total",
    "loupe_provider_request_duration_seconds_count",
)


def labels_seen(exposition: str) -> dict[str, dict[str, set[str]]]:
    """Per family: host -> the model label values counted under it."""
    seen: dict[str, dict[str, set[str]]] = {name: defaultdict(set) for name in FAMILIES}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            if sample.name in seen:
                seen[sample.name][sample.labels["host"]].add(sample.labels["model"])
    return seen


class TestLabelCaps:
    def test_model_labels_are_capped_per_process(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(content=json.dumps({"reasoning": "r", "verdict": "A"})))
        metrics = [
            {"type": "llm_accuracy", "name": f"judged-by-{i:02d}", "model": f"judge-model-{i:02d}"}
            for i in range(MODEL_NAMES)
        ] + [{"type": "llm_accuracy", "name": "own-words", "model": "carol-secret-judge-name"}]
        # The operator prices every judge-model-NN: all of them are names it configured.
        prices = {f"judge-model-{i:02d}": {"input": 1, "output": 1} for i in range(MODEL_NAMES)}
        with (
            loupe_serve(
                tmp_path,
                judge.base_url,
                max_metrics=str(MODEL_NAMES + 1),
                model_prices=json.dumps(prices),
            ) as served,
            served.client() as client,
        ):
            created = client.post(
                "/v1/evaluations",
                json={
                    "metrics": metrics,
                    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                },
            )
            assert created.status_code == 202, created.text
            counts = served.wait(client, created.json()["id"])["result_counts"]
            exposition = client.get("/metrics").text
        assert counts["passed"] == MODEL_NAMES + 1
        assert "carol-secret-judge-name" not in exposition
        for name, by_host in labels_seen(exposition).items():
            assert set(by_host) == {"127.0.0.1"}, name
            models = by_host["127.0.0.1"]
            assert len(models) == MAX_MODEL_LABELS + 1, (name, sorted(models))
            assert OTHER in models and "judge-model-00" in models, name
