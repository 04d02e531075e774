"""`Idempotency-Key` with Stripe's semantics on every POST that creates something.

For each creating route: a retried request with the same key answers the first response again
(status, body, `Location`) and creates nothing new, counted through the route's list; the key
with another body, or on another route, is refused; a twin arriving while the first request
runs gets 409; a first request that fails leaves the key free. The OpenAI-compatible routes
answer those refusals in their own dialect.
"""

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from app import idempotency
from app.db import utcnow
from app.evaluations.schemas import EvaluationCreate
from app.models import IdempotencyKey
from tests.comparisons.helpers import quiz_dataset
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import wait_run

PROBLEM_JSON = "application/problem+json"
ROWS = [
    {"item": {"question": "Capital of France?", "answer": "Paris"}},
    {"item": {"question": "Two plus two?", "answer": "4"}},
]
CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ item.answer }}",
    "reference": "{{ item.answer }}",
}


@dataclass
class Tenant:
    """A fresh tenant with what its creating requests refer to."""

    api: Api
    client: httpx.Client
    dataset_id: str = ""
    eval_id: str = ""
    baseline_id: str = ""
    candidate_id: str = ""
    judge_url: str = ""


@dataclass(frozen=True)
class Creating:
    """One creating route: how to send it (`variant` changes one field) and count its objects."""

    name: str
    status: int
    send: Callable[[Tenant, dict[str, str], int], httpx.Response]
    count: Callable[[Tenant], int]
    needs: tuple[str, ...] = ()
    openai: bool = False


def _listed(path: str) -> Callable[[Tenant], int]:
    return lambda tenant: len(
        tenant.client.get(path.format(t=tenant), params={"limit": 100}).json()["data"]
    )


def _evaluation_body(variant: int) -> dict[str, Any]:
    return {
        "name": f"retried {variant}",
        "test_cases": [{"input": "2+2?", "actual_output": "4", "expected_output": "4"}],
        "metrics": [{"type": "exact_match"}],
    }


def _send_evaluation(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    return tenant.client.post("/v1/evaluations", json=_evaluation_body(variant), headers=headers)


def _send_run(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    predictions = [{"index": i, "prediction": f"ANSWER: {'ABC'[variant]}"} for i in range(2)]
    body = {"dataset_id": tenant.dataset_id, "predictions": predictions, "limit": 2}
    return tenant.client.post("/v1/runs", json=body, headers=headers)


def _send_eval(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "name": f"retried eval {variant}",
        "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
        "testing_criteria": [CRITERION],
    }
    return tenant.client.post("/v1/evals", json=body, headers=headers)


def _send_eval_run(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    source = {"type": "file_content", "content": ROWS}
    body = {"name": f"nightly {variant}", "data_source": {"type": "jsonl", "source": source}}
    return tenant.client.post(f"/v1/evals/{tenant.eval_id}/runs", json=body, headers=headers)


def _send_comparison(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {
        "baseline_id": tenant.baseline_id,
        "candidate_id": tenant.candidate_id,
        "alpha": (0.05, 0.01, 0.1)[variant],
    }
    return tenant.client.post("/v1/comparisons", json=body, headers=headers)


def _jsonl(variant: int) -> bytes:
    rows = ROWS if variant == 0 else ROWS[:1]
    return "\n".join(json.dumps(row) for row in rows).encode()


def _dataset_jsonl(variant: int) -> bytes:
    rows = [
        {"messages": [{"role": "user", "content": f"Q{i}?"}], "answer": "A"}
        for i in range(2 + variant)
    ]
    return "\n".join(json.dumps(row) for row in rows).encode()


def _send_dataset(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    return tenant.client.post(
        "/v1/datasets",
        files={"file": ("qa.jsonl", _dataset_jsonl(variant))},
        data={"format": "general_vqa", "name": "retried"},
        headers=headers,
    )


def _send_file(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    return tenant.client.post(
        "/v1/files",
        files={"file": ("rows.jsonl", _jsonl(variant))},
        data={"purpose": "evals"},
        headers=headers,
    )


def _send_model(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {"base_url": tenant.judge_url, "model": f"candidate-{variant}", "api_key": "sk-x"}
    return tenant.client.post("/v1/models", json=body, headers=headers)


def _send_webhook(tenant: Tenant, headers: dict[str, str], variant: int) -> httpx.Response:
    body = {"url": f"http://127.0.0.1:9/hooks/{variant}"}
    return tenant.client.post("/v1/webhook_endpoints", json=body, headers=headers)


CREATING = [
    Creating("evaluations", 202, _send_evaluation, _listed("/v1/evaluations")),
    Creating("runs", 202, _send_run, _listed("/v1/runs"), needs=("dataset",)),
    Creating("evals", 201, _send_eval, _listed("/v1/evals"), openai=True),
    Creating(
        "eval_runs",
        201,
        _send_eval_run,
        _listed("/v1/evals/{t.eval_id}/runs"),
        needs=("eval",),
        openai=True,
    ),
    Creating(
        "comparisons", 200, _send_comparison, _listed("/v1/comparisons"), needs=("evaluations",)
    ),
    Creating("datasets", 201, _send_dataset, _listed("/v1/datasets")),
    Creating("files", 200, _send_file, _listed("/v1/files"), openai=True),
    Creating("models", 201, _send_model, _listed("/v1/models")),
    Creating("webhook_endpoints", 201, _send_webhook, _listed("/v1/webhook_endpoints")),
]
BY_NAME = {creating.name: creating for creating in CREATING}


def tenant_for(api: Api, judge: ScriptedJudge, creating: Creating) -> Tenant:
    tenant = Tenant(api=api, client=api.tenant_client(), judge_url=judge.base_url)
    if "dataset" in creating.needs:
        tenant.dataset_id = quiz_dataset(tenant.client, rows=2)
    if "eval" in creating.needs:
        response = _send_eval(tenant, {}, 0)
        assert response.status_code == 201, response.text
        tenant.eval_id = response.json()["id"]
    if "evaluations" in creating.needs:
        ids = []
        for variant in range(2):
            response = _send_evaluation(tenant, {}, variant)
            assert response.status_code == 202, response.text
            ids.append(api.wait(tenant.client, response.json()["id"])["id"])
        tenant.baseline_id, tenant.candidate_id = ids
    return tenant


def settle(tenant: Tenant, creating: Creating, created: dict[str, Any]) -> None:
    """Let the jobs a created run started finish, so none is left in the shared queue."""
    if creating.name == "evaluations":
        tenant.api.wait(tenant.client, created["id"])
    elif creating.name == "runs":
        wait_run(tenant.api, tenant.client, created["id"])
    elif creating.name == "eval_runs":
        path = f"/v1/evals/{tenant.eval_id}/runs/{created['id']}"
        for _ in range(1200):
            tenant.api.run_queue()
            if tenant.client.get(path).json()["status"] not in ("queued", "in_progress"):
                return
        raise AssertionError(f"{path} never finished")


def refused(response: httpx.Response, status: int, openai: bool) -> dict[str, Any]:
    """The refusal: problem+json naming the header; on OpenAI routes, a 400 with `error`."""
    expected = 400 if openai and status == 422 else status
    assert response.status_code == expected, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    body = response.json()
    assert body["errors"][0]["loc"] == "header.Idempotency-Key"
    if openai:
        assert body["error"]["param"] == "header.Idempotency-Key"
    return body


@pytest.mark.parametrize("creating", CREATING, ids=lambda creating: creating.name)
class TestEveryCreatingRoute:
    def test_retry_replays_and_creates_nothing(
        self, api: Api, judge: ScriptedJudge, creating: Creating
    ) -> None:
        tenant = tenant_for(api, judge, creating)
        before = creating.count(tenant)
        headers = {"Idempotency-Key": secrets.token_hex(8)}
        first = creating.send(tenant, headers, 0)
        assert first.status_code == creating.status, first.text
        retried = creating.send(tenant, headers, 0)
        assert retried.status_code == first.status_code
        assert retried.json() == first.json()
        assert retried.headers["idempotent-replayed"] == "true"
        assert retried.headers.get("location") == first.headers.get("location")
        assert creating.count(tenant) == before + 1
        # Without a key, another request creates another.
        again = creating.send(tenant, {}, 2)
        assert again.status_code == creating.status, again.text
        assert again.json()["id"] != first.json()["id"]
        assert creating.count(tenant) == before + 2
        for created in (first.json(), again.json()):
            settle(tenant, creating, created)

    def test_key_with_another_body_is_refused(
        self, api: Api, judge: ScriptedJudge, creating: Creating
    ) -> None:
        tenant = tenant_for(api, judge, creating)
        headers = {"Idempotency-Key": secrets.token_hex(8)}
        first = creating.send(tenant, headers, 0)
        assert first.status_code == creating.status, first.text
        before = creating.count(tenant)
        body = refused(creating.send(tenant, headers, 1), 422, creating.openai)
        assert "different request body" in body["detail"]
        assert creating.count(tenant) == before
        settle(tenant, creating, first.json())

    def test_twin_of_a_running_request_is_409(
        self, api: Api, judge: ScriptedJudge, creating: Creating
    ) -> None:
        tenant = tenant_for(api, judge, creating)
        key = secrets.token_hex(8)
        first = creating.send(tenant, {"Idempotency-Key": key}, 0)
        assert first.status_code == creating.status, first.text
        settle(tenant, creating, first.json())
        # Put the key back as it was while the first request ran: reserved, no response yet.
        with api.served.runtime.session() as session:
            session.execute(
                update(IdempotencyKey)
                .where(IdempotencyKey.key == key)
                .values(status_code=None, response_body=None)
            )
            session.commit()
        before = creating.count(tenant)
        twin = creating.send(tenant, {"Idempotency-Key": key}, 0)
        assert "in progress" in refused(twin, 409, creating.openai)["detail"]
        assert twin.headers["retry-after"] == "1"
        assert creating.count(tenant) == before


class TestAcrossRoutes:
    def test_key_on_another_route_is_refused(self, api: Api, judge: ScriptedJudge) -> None:
        tenant = tenant_for(api, judge, BY_NAME["models"])
        headers = {"Idempotency-Key": secrets.token_hex(8)}
        assert _send_model(tenant, headers, 0).status_code == 201
        body = refused(_send_webhook(tenant, headers, 0), 422, openai=False)
        assert "another route" in body["detail"]
        assert _listed("/v1/webhook_endpoints")(tenant) == 0
        # On an OpenAI route, in its dialect.
        refused(_send_file(tenant, headers, 0), 422, openai=True)
        assert _listed("/v1/files")(tenant) == 0

    def test_same_json_on_another_route_is_refused(self, api: Api, judge: ScriptedJudge) -> None:
        """The route is in the fingerprint, not only the body: an eval's body posted to
        `/v1/evals` and then, with the same key, to an eval's runs is a reuse."""
        tenant = tenant_for(api, judge, BY_NAME["eval_runs"])
        headers = {"Idempotency-Key": secrets.token_hex(8)}
        source = {"type": "file_content", "content": ROWS}
        body = {"name": "same", "data_source": {"type": "jsonl", "source": source}}
        path = f"/v1/evals/{tenant.eval_id}/runs"
        first = tenant.client.post(path, json=body, headers=headers)
        assert first.status_code == 201, first.text
        other = _send_eval(tenant, {}, 1).json()["id"]
        refused(
            tenant.client.post(f"/v1/evals/{other}/runs", json=body, headers=headers),
            422,
            openai=True,
        )
        assert _listed(f"/v1/evals/{other}/runs")(tenant) == 0
        settle(tenant, BY_NAME["eval_runs"], first.json())


class TestFailures:
    @pytest.mark.parametrize("name", ["datasets", "files", "evals", "runs"])
    def test_a_failed_first_request_leaves_the_key_free(
        self, api: Api, judge: ScriptedJudge, name: str
    ) -> None:
        creating = BY_NAME[name]
        tenant = tenant_for(api, judge, creating)
        headers = {"Idempotency-Key": secrets.token_hex(8)}
        broken = {
            "datasets": lambda: tenant.client.post(
                "/v1/datasets",
                files={"file": ("qa.jsonl", b'{"answer": 1}\n')},
                data={"format": "general_vqa"},
                headers=headers,
            ),
            "files": lambda: tenant.client.post(
                "/v1/files",
                files={"file": ("rows.jsonl", b"not json\n")},
                data={"purpose": "evals"},
                headers=headers,
            ),
            "evals": lambda: tenant.client.post(
                "/v1/evals",
                # Refused by the service, after the key was reserved.
                json={"data_source_config": {"type": "logs"}, "testing_criteria": [CRITERION]},
                headers=headers,
            ),
            "runs": lambda: tenant.client.post(
                "/v1/runs",
                json={"dataset_id": tenant.dataset_id, "predictions": [{"index": 99}]},
                headers=headers,
            ),
        }[name]()
        assert broken.status_code in (400, 422), broken.text
        assert "idempotent-replayed" not in broken.headers
        first = creating.send(tenant, headers, 0)
        assert first.status_code == creating.status, first.text
        assert "idempotent-replayed" not in first.headers
        settle(tenant, creating, first.json())


class TestWebhookSecret:
    def test_replay_shows_the_secret_and_the_key_stores_it_sealed(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        tenant = tenant_for(api, judge, BY_NAME["webhook_endpoints"])
        key = secrets.token_hex(8)
        first = _send_webhook(tenant, {"Idempotency-Key": key}, 0).json()
        replayed = _send_webhook(tenant, {"Idempotency-Key": key}, 0).json()
        assert replayed["secret"] == first["secret"]
        with api.served.runtime.session() as session:
            stored = session.scalars(select(IdempotencyKey).where(IdempotencyKey.key == key)).one()
        assert first["secret"] not in json.dumps(stored.response_body)

    def test_another_key_of_the_tenant_gets_no_replay_of_the_secret(self, api: Api) -> None:
        """The secret is shown once, to who registered the endpoint: another key of the tenant
        sending the same key and body got the replay, and with it the secret that signs every
        delivery, which it may not read otherwise (registering the URL again would change it)."""
        team = f"hooks-{secrets.token_hex(4)}"
        first, other = (api.client(api.new_key(team, scopes)) for scopes in (None, ["write"]))
        key = {"Idempotency-Key": secrets.token_hex(8)}
        body = {"url": "http://127.0.0.1:9/hooks/shared"}
        made = first.post("/v1/webhook_endpoints", json=body, headers=key)
        assert made.status_code == 201, made.text
        refused = other.post("/v1/webhook_endpoints", json=body, headers=key)
        assert refused.status_code == 422, refused.text
        assert made.json()["secret"] not in refused.text
        assert refused.json()["errors"][0]["loc"] == "header.Idempotency-Key", refused.text
        replayed = first.post("/v1/webhook_endpoints", json=body, headers=key)
        assert replayed.headers["Idempotent-Replayed"] == "true"
        assert replayed.json()["secret"] == made.json()["secret"]


class TestClaimedKey:
    def test_a_key_whose_work_committed_is_never_taken_over(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """A request that died after committing its work but before storing its response
        leaves the key claimed: retries get 409, never a second object, however late."""
        tenant = tenant_for(api, judge, BY_NAME["models"])
        key = secrets.token_hex(8)
        assert _send_model(tenant, {"Idempotency-Key": key}, 0).status_code == 201
        with api.served.runtime.session() as session:
            session.execute(
                update(IdempotencyKey)
                .where(IdempotencyKey.key == key)
                .values(
                    status_code=idempotency.CLAIMED,
                    response_body=None,
                    created_at=utcnow() - idempotency.ABANDONED_AFTER - timedelta(minutes=1),
                )
            )
            session.commit()
        refused(_send_model(tenant, {"Idempotency-Key": key}, 0), 409, openai=False)
        assert _listed("/v1/models")(tenant) == 1


def test_every_creating_post_documents_the_header() -> None:
    from app.main import create_app
    from tests.fixtures.api import fast_settings

    spec = create_app(fast_settings()).openapi()
    creating = {
        "/v1/evaluations",
        "/v1/runs",
        "/v1/evals",
        "/v1/evals/{eval_id}/runs",
        "/v1/comparisons",
        "/v1/datasets",
        "/v1/files",
        "/v1/models",
        "/v1/webhook_endpoints",
        "/v1/labels",
    }
    for path in creating:
        headers = [
            parameter["name"]
            for parameter in spec["paths"][path]["post"].get("parameters", [])
            if parameter["in"] == "header"
        ]
        assert headers == ["Idempotency-Key"], path


class TestKeysFromTheLastRelease:
    def test_an_evaluation_key_stored_before_the_upgrade_still_replays(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """The last release fingerprinted `POST /v1/evaluations` by its body alone; a retry
        after the upgrade, within the key's day, replays instead of a 422."""
        tenant = tenant_for(api, judge, BY_NAME["evaluations"])
        key = secrets.token_hex(8)
        first = _send_evaluation(tenant, {"Idempotency-Key": key}, 0)
        assert first.status_code == 202, first.text
        body = EvaluationCreate.model_validate(_evaluation_body(0)).model_dump(mode="json")
        with api.served.runtime.session() as session:
            session.execute(
                update(IdempotencyKey)
                .where(IdempotencyKey.key == key)
                .values(fingerprint=idempotency.fingerprint(body))
            )
            session.commit()
        retried = _send_evaluation(tenant, {"Idempotency-Key": key}, 0)
        assert retried.status_code == 202 and retried.json() == first.json()
        assert retried.headers["idempotent-replayed"] == "true"
        refused(_send_evaluation(tenant, {"Idempotency-Key": key}, 1), 422, openai=False)
        assert _listed("/v1/evaluations")(tenant) == 1
        settle(tenant, BY_NAME["evaluations"], first.json())
