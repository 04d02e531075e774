"""Every POST that stores an object and answers 201 (a comparison's: 200) names it in
`Location`, through the real HTTP API on both backends: the path of its GET, which answers 200
with the same id. A retry
under the same `Idempotency-Key` replays the header with the body. The table below covers
every 201 the OpenAPI document declares, so a new create without a row here fails, and the
document describes the header on each.
"""

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.fixtures.api import Api, fast_settings
from tests.fixtures.judge import ScriptedJudge, plausible_answer

JUDGED = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
}
CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ item.answer }}",
    "reference": "{{ item.answer }}",
}
ROWS = [{"item": {"question": "Capital of France?", "answer": "Paris"}}]


@dataclass
class Tenant:
    """A fresh tenant and the objects its creates refer to, by the path parameter or field
    that names them."""

    api: Api
    client: httpx.Client
    judge_url: str
    ids: dict[str, str] = field(default_factory=dict)
    results: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Creating:
    """One creating route: its POST path and its object's GET path (OpenAPI templates, `{id}`
    the created object's), how to send it (`variant` makes another object), what it needs."""

    post: str
    read: str
    send: Callable[[Tenant, dict[str, str], int], httpx.Response]
    needs: tuple[str, ...] = ()
    # 201, but a comparison's create answers 200 as it always has (clients generated from
    # earlier releases read a comparison from a 200 only), naming it in `Location` all the same.
    status: int = 201
    # Where the answer holds the created object's id (a review queue's label: its `label`).
    id_of: Callable[[dict[str, Any]], str] = lambda body: str(body["id"])


def _completed(tenant: Tenant, metrics: list[dict[str, Any]], count: int) -> dict[str, Any]:
    cases = [
        {"id": f"c{i}", "input": f"question {i}", "actual_output": "a", "expected_output": "a"}
        for i in range(count)
    ]
    response = tenant.client.post("/v1/evaluations", json={"test_cases": cases, "metrics": metrics})
    assert response.status_code == 202, response.text
    final = tenant.api.wait(tenant.client, response.json()["id"])
    assert final["status"] == "completed", final
    return final


def tenant_for(api: Api, judge: ScriptedJudge, creating: Creating) -> Tenant:
    tenant = Tenant(api=api, client=api.tenant_client(), judge_url=judge.base_url)
    if "judged" in creating.needs:
        judge.script(plausible_answer)
        judged = _completed(tenant, [JUDGED], 2)["id"]
        tenant.ids["evaluation_id"] = judged
        page = tenant.client.get(f"/v1/evaluations/{judged}/results").json()["data"]
        tenant.results = sorted(result["id"] for result in page)
    if "evaluations" in creating.needs:
        tenant.ids["baseline_id"], tenant.ids["candidate_id"] = (
            _completed(tenant, [{"type": "exact_match"}], 2)["id"] for _ in range(2)
        )
    if "queue" in creating.needs:
        response = _send_review_queue(tenant, {}, 0)
        assert response.status_code == 201, response.text
        tenant.ids["queue_id"] = response.json()["id"]
    if "eval" in creating.needs:
        response = _send_eval(tenant, {}, 0)
        assert response.status_code == 201, response.text
        tenant.ids["eval_id"] = response.json()["id"]
    return tenant


def _send_review_queue(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "name": f"review {variant}",
        "evaluation_ids": [tenant.ids["evaluation_id"]],
        "metric": "helpful",
        "routing": {"audit_share": 1},
    }
    return tenant.client.post("/v1/review_queues", json=body, headers=headers)


def _send_label(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {"result_id": tenant.results[variant], "value": 0.5}
    return tenant.client.post("/v1/labels", json=body, headers=headers)


def _send_review_label(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    # Each variant labels an item of its own, claimed once: a replay names the same item.
    queue_id = tenant.ids["queue_id"]
    item_id = tenant.ids.get(f"item_{variant}")
    if item_id is None:
        claimed = tenant.client.post(f"/v1/review_queues/{queue_id}/claim")
        assert claimed.status_code == 200, claimed.text
        item_id = tenant.ids[f"item_{variant}"] = claimed.json()["id"]
    path = f"/v1/review_queues/{queue_id}/items/{item_id}/label"
    return tenant.client.post(path, json={"value": 0.5}, headers=headers)


def _send_model(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {"base_url": tenant.judge_url, "model": f"candidate-{variant}", "api_key": "sk-x"}
    return tenant.client.post("/v1/models", json=body, headers=headers)


def _send_dataset(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    row = {"messages": [{"role": "user", "content": "Say 0."}], "answer": "0"}
    return tenant.client.post(
        "/v1/datasets",
        files={"file": ("say.jsonl", json.dumps(row).encode() + b"\n")},
        data={"format": "general_vqa", "name": f"say {variant}"},
        headers=headers,
    )


def _send_online_rule(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "name": f"support bot {variant}",
        "filter": [{"attribute": "service.name", "op": "eq", "value": "support-bot"}],
        "sampling": {"rate": 0.1},
        "metrics": [{"type": "answer_relevancy", "threshold": 0.7}],
    }
    return tenant.client.post("/v1/online_rules", json=body, headers=headers)


def _send_eval(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "name": f"capitals {variant}",
        "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
        "testing_criteria": [CRITERION],
    }
    return tenant.client.post("/v1/evals", json=body, headers=headers)


def _send_eval_run(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    source = {"type": "file_content", "content": ROWS}
    body = {"name": f"nightly {variant}", "data_source": {"type": "jsonl", "source": source}}
    path = f"/v1/evals/{tenant.ids['eval_id']}/runs"
    return tenant.client.post(path, json=body, headers=headers)


def _send_webhook_endpoint(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {"url": f"http://127.0.0.1:9/hooks/{variant}"}
    return tenant.client.post("/v1/webhook_endpoints", json=body, headers=headers)


def _send_comparison(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "baseline_id": tenant.ids["baseline_id"],
        "candidate_id": tenant.ids["candidate_id"],
        "alpha": (0.05, 0.01)[variant],
    }
    return tenant.client.post("/v1/comparisons", json=body, headers=headers)


CREATING = [
    Creating("/v1/review_queues", "/v1/review_queues/{id}", _send_review_queue, needs=("judged",)),
    Creating("/v1/labels", "/v1/labels/{id}", _send_label, needs=("judged",)),
    Creating(
        "/v1/review_queues/{queue_id}/items/{item_id}/label",
        "/v1/labels/{id}",
        _send_review_label,
        needs=("judged", "queue"),
        id_of=lambda body: str(body["label"]["id"]),
    ),
    Creating("/v1/models", "/v1/models/{id}", _send_model),
    Creating("/v1/datasets", "/v1/datasets/{id}", _send_dataset),
    Creating("/v1/online_rules", "/v1/online_rules/{id}", _send_online_rule),
    Creating("/v1/evals", "/v1/evals/{id}", _send_eval),
    Creating(
        "/v1/evals/{eval_id}/runs",
        "/v1/evals/{eval_id}/runs/{id}",
        _send_eval_run,
        needs=("eval",),
    ),
    Creating("/v1/webhook_endpoints", "/v1/webhook_endpoints/{id}", _send_webhook_endpoint),
    Creating(
        "/v1/comparisons",
        "/v1/comparisons/{id}",
        _send_comparison,
        needs=("evaluations",),
        status=200,
    ),
]


def located(tenant: Tenant, creating: Creating, response: httpx.Response) -> str:
    """The created object's `Location`, checked to be its GET path, which reads it back."""
    assert response.status_code == creating.status, response.text
    created = creating.id_of(response.json())
    expected = creating.read.format(id=created, **tenant.ids)
    assert response.headers.get("location") == expected
    read = tenant.client.get(expected)
    assert read.status_code == 200, read.text
    assert read.json()["id"] == created
    return expected


def settle(tenant: Tenant, creating: Creating, location: str) -> None:
    """Let the jobs an eval run started finish, so none is left in the shared queue."""
    if creating.post != "/v1/evals/{eval_id}/runs":
        return
    for _ in range(1200):
        tenant.api.run_queue()
        if tenant.client.get(location).json()["status"] not in ("queued", "in_progress"):
            return
        time.sleep(0.05)
    raise AssertionError(f"{location} never finished")


@pytest.mark.parametrize("creating", CREATING, ids=lambda creating: creating.post)
class TestEveryCreate:
    def test_location_reads_the_created_object_also_when_replayed(
        self, api: Api, judge: ScriptedJudge, creating: Creating
    ) -> None:
        tenant = tenant_for(api, judge, creating)
        first = located(tenant, creating, creating.send(tenant, {}, 0))

        headers = {"Idempotency-Key": secrets.token_hex(8)}
        keyed = creating.send(tenant, headers, 1)
        second = located(tenant, creating, keyed)
        assert second != first
        replayed = creating.send(tenant, headers, 1)
        assert replayed.headers["idempotent-replayed"] == "true"
        assert replayed.json() == keyed.json()
        assert located(tenant, creating, replayed) == second
        for location in (first, second):
            settle(tenant, creating, location)


class TestLabelReplaced:
    def test_a_label_given_again_is_a_200_naming_nothing_new(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        label = next(creating for creating in CREATING if creating.post == "/v1/labels")
        tenant = tenant_for(api, judge, label)
        first = located(tenant, label, _send_label(tenant, {}, 0))
        again = _send_label(tenant, {}, 0)
        assert again.status_code == 200, again.text
        assert "location" not in again.headers
        assert first == f"/v1/labels/{again.json()['id']}"


class TestDocument:
    def test_every_201_is_in_the_table_and_documents_location(self) -> None:
        spec = create_app(fast_settings()).openapi()
        declared = {
            path
            for path, item in spec["paths"].items()
            if "201" in item.get("post", {}).get("responses", {})
        }
        assert declared == {creating.post for creating in CREATING if creating.status == 201}
        for creating in CREATING:
            answer = spec["paths"][creating.post]["post"]["responses"][str(creating.status)]
            location = answer.get("headers", {}).get("Location", {})
            assert location.get("required") is True, creating.post
