"""Run jobs: a retried job never asks the candidate again for a stored answer; a run's
recovery as GET shows it; run webhooks; the VLMEvalKit MCQ format end to end; the dataset upload
size limit."""

import base64
import json
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import delete, select, update
from standardwebhooks import Webhook

from app import migrate
from app.evaluations import tasks
from app.models import Evaluation, Result, RunScore
from app.runs import tasks as run_tasks
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from tests.evaluations.test_tasks import age
from tests.fixtures.api import Api, ServedApp, sqlite_settings
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.runs.helpers import (
    CANDIDATE,
    EXAMPLES,
    example_zip,
    register_model,
    report,
    samples,
    upload,
    wait_run,
)

RESULT_COLUMNS = [column.key for column in Result.__table__.columns]


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as server:
        yield server


def finished_vqa_run(api: Api, client: httpx.Client) -> tuple[str, dict[str, Any]]:
    """A 5-sample VQA run of given predictions, scored: its id and final body."""
    data = example_zip("vqa/example_vqa.jsonl")
    dataset = upload(client, "vqa.zip", data, "general_vqa").json()
    predictions = [{"index": i, "prediction": "A circle"} for i in range(5)]
    run = client.post("/v1/runs", json={"dataset_id": dataset["id"], "predictions": predictions})
    run_id = run.json()["id"]
    return run_id, wait_run(api, client, run_id)


class TestRetries:
    def test_a_rerun_job_reuses_stored_predictions(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(lambda request: Reply(content="A circle"))
        client = api.tenant_client()
        data = example_zip("vqa/example_vqa.jsonl")
        dataset = upload(client, "vqa.zip", data, "general_vqa").json()
        model_id = register_model(client, judge.base_url)
        run = client.post("/v1/runs", json={"dataset_id": dataset["id"], "model_id": model_id})
        run_id = run.json()["id"]
        first = wait_run(api, client, run_id)
        assert len(judge.requests) == 5
        # Lose every result (as if the job died after storing the predictions), run it again.
        # The report's sums are written with the results they count, so they go too.
        runtime = api.served.runtime
        with runtime.session() as session:
            session.execute(delete(Result).where(Result.evaluation_id == run_id))
            session.execute(delete(RunScore).where(RunScore.run_id == run_id))
            session.execute(
                update(Evaluation).where(Evaluation.id == run_id).values(status="in_progress")
            )
            session.commit()
        tasks.score_slice(runtime, run_id, 0, 5)
        again = client.get(f"/v1/runs/{run_id}").json()
        assert again["status"] == "completed"
        assert len(judge.requests) == 5
        assert report(again) == report(first)
        assert [s["prediction"] for s in samples(client, run_id)] == ["A circle"] * 5

    def test_a_duplicate_jobs_rows_count_once_in_the_report(self, api: Api) -> None:
        # Two jobs on one slice (a re-enqueue racing a slow original) both try to store every
        # result: the unique key keeps one of each, and only rows actually stored are summed.
        client = api.tenant_client()
        run_id, first = finished_vqa_run(api, client)
        runtime = api.served.runtime
        with runtime.session() as session:
            stored = session.scalars(select(Result).where(Result.evaluation_id == run_id)).all()
            twins = [
                {column: getattr(result, column) for column in RESULT_COLUMNS} | {"id": f"x{i}"}
                for i, result in enumerate(stored)
            ]
            inserted = UnscopedJobRepository(session).insert_results(twins)
            run_tasks.RunKind().tally(session, run_id, inserted)
            session.commit()
        assert inserted == []
        again = client.get(f"/v1/runs/{run_id}").json()
        assert report(again) == report(first)
        assert again["result_counts"]["total"] == first["result_counts"]["total"] == 5
        scores = [s["scores"]["bleu-1"] for s in samples(client, run_id)]
        assert report(again)[("bleu-1", "OVERALL")] == (5, round(sum(scores) / 5, 4))


class TestRecovery:
    def test_get_shows_a_stalled_then_recovering_run(self, api: Api) -> None:
        client = api.tenant_client()
        run_id, first = finished_vqa_run(api, client)
        assert first["recovery"] is None
        # Its job stored every result, then its worker died before it could finish the run:
        # three beats missed, not yet LOUPE_STUCK_AFTER_SECONDS (the ticker has not acted).
        stalled_after = 3 * api.settings.heartbeat_seconds
        assert stalled_after + 2 < api.settings.stuck_after_seconds
        beat = age(api, run_id, stalled_after + 1, status="in_progress", completed_at=None)
        stalled = client.get(f"/v1/runs/{run_id}")
        assert stalled.json()["status"] == "in_progress"
        assert stalled.headers["Retry-After"]
        recovery = stalled.json()["recovery"]
        assert recovery["state"] == "stalled"
        assert datetime.fromisoformat(recovery["last_heartbeat_at"]) == beat
        assert recovery["dispatch_attempts"] == 1
        # What the ticker's re-enqueue leaves: a fresh heartbeat and a second attempt.
        age(api, run_id, 0, dispatch_attempts=2)
        recovering = client.get(f"/v1/runs/{run_id}").json()["recovery"]
        assert (recovering["state"], recovering["dispatch_attempts"]) == ("recovering", 2)
        # The list shows runs without it, as GET /v1/evaluations does.
        (listed,) = client.get("/v1/runs").json()["data"]
        assert listed["recovery"] is None
        # The new job finds every result stored and finishes the run.
        tasks.score_slice(api.served.runtime, run_id, 0, 5)
        final = client.get(f"/v1/runs/{run_id}").json()
        assert (final["status"], final["recovery"]) == ("completed", None)
        assert report(final) == report(first)


class TestRunWebhooks:
    def test_completed_run_delivers_a_signed_run_event(
        self, api: Api, receiver: WebhookReceiver
    ) -> None:
        client = api.tenant_client()
        endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
        line = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_text().splitlines()[1]
        dataset = upload(client, "one.jsonl", line.encode(), "general_vqa").json()
        run = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset["id"],
                "predictions": [{"index": 0, "prediction": "Green"}],
                "webhook_url": receiver.url,
            },
        ).json()
        wait_run(api, client, run["id"])
        deadline = time.monotonic() + 20
        while not receiver.received and time.monotonic() < deadline:
            api.run_queue()
            time.sleep(0.05)
        request = receiver.received[0]
        payload = Webhook(endpoint["secret"]).verify(request.body, request.headers)
        assert payload["type"] == "run.completed"
        assert payload["data"]["id"] == run["id"] and payload["data"]["object"] == "run"


def vlmeval_tsv() -> bytes:
    image = base64.b64encode((EXAMPLES / "vmcq" / "images" / "red_circle.png").read_bytes())
    header = "index\tcategory\tquestion\tA\tB\tC\tanswer\timage\n"
    rows = [
        f"0\tcolour\tWhat is the background colour?\tBlue\tRed\tGreen\tB\t{image.decode()}\n",
        f"1\tshape\tWhat shape is white?\tSquare\tCircle\tTriangle\tB\t{image.decode()}\n",
    ]
    return (header + "".join(rows)).encode()


class TestVlmevalMcq:
    def test_upload_and_run_with_a_candidate(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(lambda request: Reply(content="Thinking.\nANSWER: B"))
        client = api.tenant_client()
        response = upload(client, "MMBench_mini.tsv", vlmeval_tsv(), "vlmeval_mcq")
        assert response.status_code == 201, response.text
        rows = client.get(f"/v1/datasets/{response.json()['id']}/rows").json()["data"]
        assert rows[0]["extra"] == {"index": "0", "category": "colour"}
        assert rows[0]["options"] == ["Blue", "Red", "Green"]
        model_id = register_model(client, judge.base_url)
        run = client.post(
            "/v1/runs", json={"dataset_id": response.json()["id"], "model_id": model_id}
        ).json()
        final = wait_run(api, client, run["id"])
        assert report(final)[("accuracy", "MMBench_mini")] == (2, 1.0)
        sent = [r for r in judge.requests if r["model"] == CANDIDATE]
        assert all(r["messages"][0]["content"][0]["type"] == "image_url" for r in sent)

    def test_bad_label_names_the_line(self, api: Api) -> None:
        client = api.tenant_client()
        data = vlmeval_tsv().replace(b"\tB\t", b"\tZ\t", 1)
        response = upload(client, "bad.tsv", data, "vlmeval_mcq")
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"].startswith("bad.tsv:2:answer")


class TestUploadLimit:
    def test_dataset_over_the_limit_gets_413(self, tmp_path: Path) -> None:
        settings = sqlite_settings(tmp_path, max_dataset_bytes=2048)
        migrate.upgrade(settings)
        with ServedApp(settings) as served:
            client = Api(mode="embedded", served=served).tenant_client()
            big = json.dumps({"messages": [{"role": "user", "content": "x" * 4096}]}).encode()
            response = upload(client, "big.jsonl", big, "general_vqa")
        assert response.status_code == 413
        assert response.headers["content-type"] == "application/problem+json"
        assert "LOUPE_MAX_DATASET_BYTES" in response.json()["detail"]
