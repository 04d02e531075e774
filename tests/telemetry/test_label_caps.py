"""The provider metrics' label sets stay bounded in a process however many models tenants
register: past 32 model names on one host the rest count as model `other`, past 32 hosts as
host (and model) `other`. Scraped from a real `loupe serve` process after one evaluation whose
metrics each call another registered judge."""

import json
from collections import defaultdict
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from app.judges._telemetry import MAX_HOST_LABELS, MAX_MODEL_LABELS, OTHER
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.services import free_port
from tests.telemetry.served import loupe_serve

MODELS_ON_ONE_HOST = MAX_MODEL_LABELS + 8
OTHER_HOSTS = MAX_HOST_LABELS + 8
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
    def test_model_and_host_labels_are_capped_per_process(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(content=json.dumps({"reasoning": "r", "verdict": "A"})))
        # Nothing listens there: each call fails at once, counted as unreachable under its host.
        closed = free_port()
        one_host = [(judge.base_url, f"tenant-model-{i:02d}") for i in range(MODELS_ON_ONE_HOST)]
        other_hosts = [(f"http://127.0.0.{i + 2}:{closed}/v1", "m") for i in range(OTHER_HOSTS)]
        with (
            loupe_serve(tmp_path, judge.base_url, max_metrics=str(OTHER_HOSTS)) as served,
            served.client() as client,
        ):

            def evaluate(endpoints: list[tuple[str, str]]) -> dict:
                metrics = []
                for index, (base_url, model) in enumerate(endpoints):
                    registered = client.post(
                        "/v1/models",
                        json={"base_url": base_url, "model": model, "api_key": "sk-x"},
                    )
                    assert registered.status_code == 201, registered.text
                    metrics.append(
                        {
                            "type": "llm_accuracy",
                            "name": f"judged-by-{index}",
                            "judge": {"model_id": registered.json()["id"]},
                        }
                    )
                created = client.post(
                    "/v1/evaluations",
                    json={
                        "metrics": metrics,
                        "test_cases": [
                            {"input": "q", "actual_output": "a", "expected_output": "a"}
                        ],
                    },
                )
                assert created.status_code == 202, created.text
                return served.wait(client, created.json()["id"])["result_counts"]

            # One host first, so that it holds a host label when the others come.
            assert evaluate(one_host)["passed"] == MODELS_ON_ONE_HOST
            assert evaluate(other_hosts)["errored"] == OTHER_HOSTS
            exposition = client.get("/metrics").text
        for name, by_host in labels_seen(exposition).items():
            assert len(by_host) <= MAX_HOST_LABELS + 1, (name, sorted(by_host))
            assert by_host[OTHER] == {OTHER}, name
            models = by_host["127.0.0.1"]
            assert len(models) <= MAX_MODEL_LABELS + 1, (name, sorted(models))
            assert OTHER in models and "tenant-model-00" in models, name
