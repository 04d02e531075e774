"""Deleting evaluations, runs, datasets and webhook endpoints, on both backends: tenant-scoped,
404 afterwards, rows gone, and images no row references any more removed from the blob store,
safely while another request is storing the same image."""

import base64
import hashlib
import io
import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import func, select

from app.evaluations import recovery, service
from app.evaluations.schemas import EvaluationCreate
from app.models import Blob, BlobOwner, Dataset, DatasetRow, Evaluation, Result
from app.models import TestCase as StoredCase
from app.tenants.service import hash_key, tenant_by_key_hash
from tests.evaluations.test_endpoints import judged_body
from tests.fixtures.api import (
    Api,
    app_in_mode,
    side_app,
)
from tests.fixtures.jobs import assert_nothing_failed_or_requeued, stopped, wait_for
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.runs.helpers import upload, wait_run


def unique_png() -> tuple[str, str]:
    """A data URL of an image no other test uses, and the SHA-256 it is stored under."""
    image = Image.new("RGB", (8, 8), tuple(random.randrange(256) for _ in range(3)))
    pixels = image.load()
    for x in range(8):
        pixels[x, 0] = tuple(random.randrange(256) for _ in range(3))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    data = buffer.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    return "data:image/png;base64," + base64.b64encode(data).decode(), digest


def body(image_url: str, name: str = "deletable") -> dict[str, Any]:
    return {
        "name": name,
        "test_cases": [
            {
                "input": ["What colour?", {"type": "image_url", "image_url": {"url": image_url}}],
                "actual_output": "red",
                "expected_output": "red",
            }
        ],
        "metrics": [{"type": "exact_match"}],
    }


def submit(api: Api, client, payload: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/evaluations", json=payload)
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


def count(api: Api, statement: Any) -> int:
    with api.served.runtime.session() as session:
        return session.scalar(statement) or 0


def rows_where(api: Api, column: Any, value: str) -> int:
    """How many rows of `column`'s table have `value` in it."""
    return count(api, select(func.count()).select_from(column.class_).where(column == value))


def blob_exists(api: Api, digest: str) -> bool:
    return count(api, select(func.count()).select_from(Blob).where(Blob.sha256 == digest)) == 1


class TestDeleteEvaluation:
    def test_gone_with_its_rows_and_unused_image(self, api: Api) -> None:
        url, digest = unique_png()
        with api.tenant_client() as client:
            done = submit(api, client, body(url))
            assert blob_exists(api, digest)
            response = client.delete(f"/v1/evaluations/{done['id']}")
            assert response.status_code == 204
            assert client.get(f"/v1/evaluations/{done['id']}").status_code == 404
            assert client.get(f"/v1/evaluations/{done['id']}/results").status_code == 404
            again = client.delete(f"/v1/evaluations/{done['id']}")
        assert again.status_code == 404
        assert again.headers["content-type"].startswith("application/problem+json")
        for column in (StoredCase.evaluation_id, Result.evaluation_id, Evaluation.id):
            assert rows_where(api, column, done["id"]) == 0
        assert not blob_exists(api, digest)
        assert rows_where(api, BlobOwner.sha256, digest) == 0

    def test_an_image_another_evaluation_uses_stays(self, api: Api) -> None:
        url, digest = unique_png()
        with api.tenant_client() as client, api.tenant_client() as other:
            first = submit(api, client, body(url))
            kept = submit(api, other, body(url))
            assert client.delete(f"/v1/evaluations/{first['id']}").status_code == 204
            assert blob_exists(api, digest)
            # The other tenant still reads its images.
            case = other.get(f"/v1/evaluations/{kept['id']}/test_cases").json()["data"][0]
            media_url = case["input"][1]["image_url"]["url"]
            assert other.get(media_url).status_code == 200
            # The deleting tenant no longer owns the image.
            assert client.get(media_url).status_code == 404

    def test_another_tenant_gets_404(self, api: Api) -> None:
        url, _ = unique_png()
        with api.tenant_client() as owner, api.tenant_client() as stranger:
            done = submit(api, owner, body(url))
            assert stranger.delete(f"/v1/evaluations/{done['id']}").status_code == 404
            assert owner.get(f"/v1/evaluations/{done['id']}").status_code == 200

    def test_a_running_evaluation_must_be_canceled_first(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                    "metrics": [
                        {
                            "type": "g_eval",
                            "name": "right",
                            "criteria": "Is it right?",
                            "evaluation_params": ["input", "actual_output"],
                        }
                    ],
                },
            )
            evaluation_id = response.json()["id"]
            refused = client.delete(f"/v1/evaluations/{evaluation_id}")
            assert refused.status_code == 409
            assert "cancel it first" in refused.json()["detail"]
            assert client.post(f"/v1/evaluations/{evaluation_id}/cancel").status_code == 200
            assert client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def unflushed(request: pytest.FixtureRequest, judge_server: ScriptedJudge) -> Iterator[Api]:
    """Loupe whose jobs store results only at the end: a job sees a cancel late, so a delete
    that follows the cancel comes before the job's next write (the race made certain)."""
    overrides = {"judge_base_url": judge_server.base_url, "result_flush_seconds": 3600}
    with app_in_mode(request, "unflushed", **overrides) as app:
        yield app


class TestDeleteAfterCancel:
    def test_a_job_finding_its_evaluation_deleted_stops_quietly(
        self,
        unflushed: Api,
        judge: ScriptedJudge,
        log_records: list[logging.LogRecord],
    ) -> None:
        """Cancel then delete while the job waits on the judge: at its next write the job
        finds the evaluation gone and ends, without an error, a retry or a stored row."""
        api = unflushed
        judge.script(plausible_answer)
        judge.hold()
        answers: list[int] = []
        try:
            with api.tenant_client() as client:
                evaluation_id = client.post("/v1/evaluations", json=judged_body(3)).json()["id"]

                def cancel_and_delete_once_asked() -> None:
                    wait_for(lambda: judge.requests, "the judge was never asked")
                    answers.append(
                        client.post(f"/v1/evaluations/{evaluation_id}/cancel").status_code
                    )
                    answers.append(client.delete(f"/v1/evaluations/{evaluation_id}").status_code)
                    judge.release()

                worker = threading.Thread(target=cancel_and_delete_once_asked)
                worker.start()
                api.run_queue()
                worker.join()
                wait_for(lambda: stopped(log_records, evaluation_id), "the job did not stop")
        finally:
            judge.release()
        assert answers == [200, 204]
        assert_nothing_failed_or_requeued(api, log_records)
        for column in (StoredCase.evaluation_id, Result.evaluation_id, Evaluation.id):
            assert rows_where(api, column, evaluation_id) == 0


class TestBlobCollectionRace:
    def test_a_submission_storing_the_image_keeps_it(self, api: Api) -> None:
        """Request B stores the image (uncommitted) while the deletion's collection runs; the
        blob must survive and B's evaluation must score with it."""
        url, digest = unique_png()
        key = api.new_key()
        runtime = api.served.runtime
        with api.client(key) as client:
            first = submit(api, client, body(url))
            with runtime.session() as session:
                tenant = tenant_by_key_hash(session, hash_key(key))
                session.expunge(tenant)
                # A: the deletion, committed; its collection comes next.
                digests = service.delete_loaded(
                    session, service.get_for_update(session, tenant, first["id"])
                )
                session.commit()
            assert digests == {digest}
            with runtime.session() as storing:
                # B: a submission of the same image, stored but not committed yet.
                created = service.create(
                    storing, tenant, EvaluationCreate.model_validate(body(url, "B")), api.settings
                )
                collected: list[list[str]] = []
                collector = threading.Thread(
                    target=lambda: collected.append(
                        service.collect_media(runtime, tenant.id, digests)
                    )
                )
                collector.start()
                collector.join(timeout=0.5)  # still waiting for B, or done: both must be safe
                storing.commit()
            collector.join()
            service.dispatch(runtime, created)
            assert collected == [[]]
            assert blob_exists(api, digest)
            done = api.wait(client, created.id)
            assert done["status"] == "completed" and done["result_counts"]["errored"] == 0

    def test_a_submission_after_the_collection_stores_it_again(self, api: Api) -> None:
        url, digest = unique_png()
        with api.tenant_client() as client:
            first = submit(api, client, body(url))
            assert client.delete(f"/v1/evaluations/{first['id']}").status_code == 204
            assert not blob_exists(api, digest)
            again = submit(api, client, body(url))
            assert again["status"] == "completed" and blob_exists(api, digest)


class TestDeleteOthers:
    def test_dataset_and_its_images(self, api: Api) -> None:
        url, digest = unique_png()
        row = {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "Colour?"},
                        {"type": "image_url", "image_url": {"url": url}},
                    ],
                }
            ],
            "answer": "red",
        }
        with api.tenant_client() as client, api.tenant_client() as stranger:
            created = upload(client, "colours.jsonl", json.dumps(row).encode(), "general_vqa")
            assert created.status_code == 201, created.text
            dataset_id = created.json()["id"]
            assert blob_exists(api, digest)
            assert stranger.delete(f"/v1/datasets/{dataset_id}").status_code == 404
            run = client.post(
                "/v1/runs",
                json={
                    "dataset_id": dataset_id,
                    "predictions": [{"subset": "colours", "index": 0, "prediction": "red"}],
                },
            )
            assert run.status_code == 202, run.text
            run_id = run.json()["id"]
            wait_run(api, client, run_id)
            in_use = client.delete(f"/v1/datasets/{dataset_id}")
            assert in_use.status_code == 409 and "runs" in in_use.json()["detail"]
            assert client.delete(f"/v1/runs/{run_id}").status_code == 204
            assert client.get(f"/v1/runs/{run_id}").status_code == 404
            assert blob_exists(api, digest)  # the dataset row still names it
            assert client.delete(f"/v1/datasets/{dataset_id}").status_code == 204
            assert client.get(f"/v1/datasets/{dataset_id}").status_code == 404
        assert rows_where(api, DatasetRow.dataset_id, dataset_id) == 0
        assert rows_where(api, Dataset.id, dataset_id) == 0
        assert not blob_exists(api, digest)

    def test_webhook_endpoint(self, api: Api) -> None:
        url = f"http://127.0.0.1:9/{uuid.uuid4().hex}"
        with api.tenant_client() as client, api.tenant_client() as stranger:
            endpoint_id = client.post("/v1/webhook_endpoints", json={"url": url}).json()["id"]
            assert stranger.delete(f"/v1/webhook_endpoints/{endpoint_id}").status_code == 404
            assert client.delete(f"/v1/webhook_endpoints/{endpoint_id}").status_code == 204
            listed = client.get("/v1/webhook_endpoints").json()["data"]
            again = client.delete(f"/v1/webhook_endpoints/{endpoint_id}")
        assert listed == [] and again.status_code == 404

    def test_candidate_model(self, api: Api, judge: ScriptedJudge) -> None:
        with api.tenant_client() as client, api.tenant_client() as stranger:
            model_id = client.post(
                "/v1/models", json={"base_url": judge.base_url, "model": "m"}
            ).json()["id"]
            assert stranger.delete(f"/v1/models/{model_id}").status_code == 404
            assert client.delete(f"/v1/models/{model_id}").status_code == 204
            assert client.get(f"/v1/models/{model_id}").status_code == 404


class TestRetention:
    def test_the_ticker_prunes_finished_evaluations(self, tmp_path: Path) -> None:
        url, digest = unique_png()
        # 0.1 s: anything finished is due at the ticker's next turn.
        with side_app(tmp_path, retention_days=0.1 / 86400) as app, app.tenant_client() as client:
            done = submit(app, client, body(url))
            assert done["status"] == "completed"
            deadline = time.monotonic() + 30
            while client.get(f"/v1/evaluations/{done['id']}").status_code != 404:
                assert time.monotonic() < deadline, "not pruned"
                time.sleep(0.1)
            assert rows_where(app, StoredCase.evaluation_id, done["id"]) == 0
            # Its image goes once the delete has committed (an effect after the commit).
            while blob_exists(app, digest):
                assert time.monotonic() < deadline, "its image was not collected"
                time.sleep(0.1)

    def test_kept_without_the_setting(self, api: Api) -> None:
        url, _ = unique_png()
        with api.tenant_client() as client:
            done = submit(api, client, body(url))
            assert recovery.prune_expired(api.served.runtime) == []
            assert client.get(f"/v1/evaluations/{done['id']}").status_code == 200
