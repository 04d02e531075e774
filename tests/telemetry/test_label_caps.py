"""The provider metrics' label sets stay bounded and keep tenants' words off them: tenants may
name any model on the operator's judge, but only the names the operator configured (its judge
model and the models in LOUPE_MODEL_PRICES) are shown, each up to 32 per host; every other name
counts as model `other` (the host cap, 32 then `other`, is tested on LabelBudget itself: a
tenant's registered models all count as host `tenant`); online rules' series are capped per
process too, past MAX_RULE_LABELS rules as rule `other`. Scraped from a real `loupe serve`
process."""

import json
from collections import defaultdict
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from app.judges._telemetry import MAX_MODEL_LABELS, OTHER
from app.telemetry.metrics import MAX_RULE_LABELS
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.online.test_receiver import G_EVAL, semconv_span
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


def rules_seen(exposition: str) -> set[str]:
    """The `rule` label values of loupe_online_calls_total."""
    return {
        sample.labels["rule"]
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
        if sample.name == "loupe_online_calls_total"
    }


class TestRuleLabelCap:
    def test_rule_labels_are_capped_per_process(self, tmp_path: Path, judge: ScriptedJudge) -> None:
        # Rules are the tenants' to make, as many as they like: past MAX_RULE_LABELS a process
        # counts more as rule `other`, and each rule's own counts stay exact on the API.
        rules = MAX_RULE_LABELS + 4
        with loupe_serve(tmp_path, judge.base_url) as served, served.client() as client:
            made = []
            for n in range(rules):
                response = client.post(
                    "/v1/online_rules",
                    json={"name": f"rule-{n}", "sampling": {"rate": 0}, "metrics": [G_EVAL]},
                )
                assert response.status_code == 201, response.text
                made.append(response.json()["id"])
            spans = {"resourceSpans": [semconv_span("00f067aa0ba90301", "app", "Capital?")]}
            assert client.post("/v1/traces", json=spans).status_code == 200
            exposition = client.get("/metrics").text
            last = client.get(f"/v1/online_rules/{made[-1]}").json()["counts"]
        seen = rules_seen(exposition)
        assert len(seen) == MAX_RULE_LABELS + 1, len(seen)
        assert OTHER in seen and seen - {OTHER} <= set(made)
        other = [
            sample.value
            for family in text_string_to_metric_families(exposition)
            for sample in family.samples
            if sample.name == "loupe_online_calls_total"
            and sample.labels == {"rule": OTHER, "outcome": "received"}
        ]
        assert other == [4.0]
        assert (last["received"], last["matched"]) == (1, 1)
