"""The lifecycle every kind with routes of Loupe's own shares, pinned over the kinds: a queued or
running one's delete answers 409 naming its cancel route, its cancel answers 200 once and 409
after and sends its terminal event to the `webhook_url` it was created with, its delete then
answers 204 and its reads 404, and its create, cancel and delete are audited alike; an
unregistered `webhook_url` is refused with one type and wording. (Eval runs keep OpenAI's
shapes: a running one's delete cancels it first.)"""

import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.alignments.helpers import HELPFULNESS, answer, cases, label_all
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of
from tests.fixtures.receiver import WebhookReceiver
from tests.lifecycle.test_every_kind import G_EVAL, given_predictions
from tests.runs.test_endpoints import vqa_dataset
from tests.webhooks.test_delivery import pump

RIGHT = {**G_EVAL, "name": "right"}


def an_evaluation(api: Api, client: httpx.Client, judge: ScriptedJudge, **extra: Any) -> str:
    judge.hold()
    body = {"test_cases": [{"input": "q", "actual_output": "a"}], "metrics": [RIGHT], **extra}
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return response.headers["location"]


def a_run(api: Api, client: httpx.Client, judge: ScriptedJudge, **extra: Any) -> str:
    body = {**given_predictions(vqa_dataset(client), 1), "metrics": [RIGHT], **extra}
    judge.hold()
    response = client.post("/v1/runs", json=body)
    assert response.status_code == 202, response.text
    return response.headers["location"]


def an_alignment(api: Api, client: httpx.Client, judge: ScriptedJudge, **extra: Any) -> str:
    judge.script(answer)
    response = client.post(
        "/v1/evaluations", json={"test_cases": cases(20), "metrics": [HELPFULNESS]}
    )
    assert response.status_code == 202, response.text
    evaluation_id = response.json()["id"]
    assert api.wait(client, evaluation_id)["status"] == "completed"
    label_all(client, evaluation_id, 20)
    result = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"][0]

    def notes_then_hold(request: dict) -> Any:
        # The notes are written before the create answers; the judging after it is held.
        if task_of(request) != "rubric_notes":
            judge.hold()
        return answer(request)

    judge.script(notes_then_hold)
    body = {"metric_version": result["metric_version"], **extra}
    response = client.post("/v1/alignments", json=body)
    assert response.status_code == 202, response.text
    return response.headers["location"]


MAKERS: dict[str, Callable[..., str]] = {
    "evaluation": an_evaluation,
    "run": a_run,
    "alignment": an_alignment,
}


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


@pytest.mark.parametrize("kind", list(MAKERS))
class TestContract:
    def test_cancel_and_delete_answer_alike(
        self, api: Api, judge: ScriptedJudge, receiver: WebhookReceiver, kind: str
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url})
        assert endpoint.status_code == 201, endpoint.text
        try:
            path = MAKERS[kind](api, client, judge, webhook_url=receiver.url)
            object_id = path.rsplit("/", 1)[1]
            created = client.get(path).json()
            assert created["status"] in ("queued", "in_progress"), created
            assert created["webhook_url"] == receiver.url

            refused = client.delete(path)
            assert refused.status_code == 409, refused.text
            problem = refused.json()
            assert problem["type"].endswith(f"/{kind}-not-finished"), problem
            assert f"POST {path}/cancel" in problem["detail"], problem

            canceled = client.post(f"{path}/cancel")
            assert canceled.status_code == 200, canceled.text
            assert canceled.json()["status"] == "canceled"
            again = client.post(f"{path}/cancel")
            assert again.status_code == 409, again.text
            assert again.json()["type"].endswith(f"/{kind}-terminal"), again.text
        finally:
            judge.script(plausible_answer)
            judge.release()

        [sent] = receiver.wait_for(1, pump=pump(api))
        event = json.loads(sent.body)
        assert event["type"] == f"{kind}.canceled" and event["data"]["id"] == object_id, event

        assert client.delete(path).status_code == 204
        assert client.get(path).status_code == 404
        assert client.delete(path).status_code == 404
        assert client.post(f"{path}/cancel").status_code == 404
        events = client.get("/v1/audit_events", params={"object_id": object_id}).json()["data"]
        assert [(event["action"], event["object_type"]) for event in reversed(events)] == [
            (f"{kind}.create", kind),
            (f"{kind}.cancel", kind),
            (f"{kind}.delete", kind),
        ], events

    def test_an_unregistered_webhook_is_refused_alike(self, api: Api, kind: str) -> None:
        client = api.tenant_client()
        url = "http://127.0.0.1:9/never-registered"
        bodies = {
            "evaluation": {
                "test_cases": [{"input": "q", "actual_output": "a"}],
                "metrics": [RIGHT],
            },
            "run": {**given_predictions(vqa_dataset(client), 1), "metrics": [RIGHT]},
            "alignment": {"metric_version": "mv_0123456789abcdef01234567"},
        }
        routes = {"evaluation": "/v1/evaluations", "run": "/v1/runs", "alignment": "/v1/alignments"}
        response = client.post(routes[kind], json={**bodies[kind], "webhook_url": url})
        assert response.status_code == 422, response.text
        [error] = [error for error in response.json()["errors"] if error["loc"] == "webhook_url"]
        assert error["type"] == "unregistered_webhook", error
        assert error["msg"] == (
            "not a registered webhook endpoint; register it with POST /v1/webhook_endpoints first"
        )
