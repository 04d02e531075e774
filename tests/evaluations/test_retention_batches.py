"""Retention deletes an expired evaluation's results and test cases in bounded transactions
before the evaluation itself: everything old goes, nothing newer, images stay exactly while
something still uses them."""

import dataclasses
import time
from datetime import timedelta
from typing import Any

from sqlalchemy import delete, event, func, select, update

from app.db import utcnow
from app.evaluations import recovery
from app.models import Blob, Evaluation, MetricSummary, Result
from app.models import TestCase as StoredCase
from app.runtime import Runtime
from tests.evaluations.test_delete import unique_png
from tests.fixtures.api import Api


def body(*images: str, cases: int = 5) -> dict[str, Any]:
    return {
        "test_cases": [
            {
                "input": ["What colour?", {"type": "image_url", "image_url": {"url": image}}]
                if image
                else "What colour?",
                "actual_output": "red",
                "expected_output": "red" if n % 2 else "blue",
            }
            for n, image in enumerate([*images, *[None] * (cases - len(images))])
        ],
        "metrics": [{"type": "exact_match"}, {"type": "bleu"}],
    }


def submitted(api: Api, client: Any, payload: dict[str, Any]) -> str:
    response = client.post("/v1/evaluations", json=payload)
    assert response.status_code == 202, response.text
    assert api.wait(client, response.json()["id"])["status"] == "completed"
    return str(response.json()["id"])


def rows_of(api: Api, evaluation_id: str) -> dict[str, int]:
    with api.served.runtime.session() as session:
        return {
            model.__tablename__: session.scalar(
                select(func.count()).select_from(model).where(column == evaluation_id)
            )
            or 0
            for model, column in (
                (Result, Result.evaluation_id),
                (StoredCase, StoredCase.evaluation_id),
                (MetricSummary, MetricSummary.evaluation_id),
                (Evaluation, Evaluation.id),
            )
        }


def blob_exists(api: Api, digest: str) -> bool:
    with api.served.runtime.session() as session:
        return session.scalar(select(func.count()).where(Blob.sha256 == digest)) == 1


def days_ago(api: Api, evaluation_id: str, days: float, column: str = "completed_at") -> None:
    """Move one of the evaluation's timestamps `days` into the past."""
    with api.served.runtime.session() as session:
        session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id)
            .values({column: utcnow() - timedelta(days=days)})
        )
        session.commit()


def completed_days_ago(api: Api, evaluation_id: str, days: float) -> None:
    days_ago(api, evaluation_id, days)


class TestShedRows:
    def test_results_and_cases_go_in_bounded_deletes_the_evaluation_stays(self, api: Api) -> None:
        with api.tenant_client() as client:
            evaluation_id = submitted(api, client, body(cases=5))
        statements: list[str] = []

        def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.lstrip().upper().startswith("DELETE FROM RESULT"):
                statements.append(statement)

        engine = api.served.runtime.engine
        event.listen(engine, "before_cursor_execute", seen)
        try:
            # Two metrics, 4 rows a batch: 2 test cases a transaction, so 3 of them.
            deleted = recovery.shed_rows(api.served.runtime, evaluation_id, batch_rows=4)
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        assert deleted == 5 * 2 + 5
        assert len(statements) == 3
        assert rows_of(api, evaluation_id) == {
            "result": 0,
            "test_case": 0,
            "metric_summary": 2,
            "evaluation": 1,
        }

    def test_a_running_evaluation_is_left_alone(self, api: Api) -> None:
        with api.tenant_client() as client:
            evaluation_id = submitted(api, client, body(cases=3))
        with api.served.runtime.session() as session:
            session.execute(
                update(Evaluation)
                .where(Evaluation.id == evaluation_id)
                .values(status="in_progress")
            )
            session.commit()
        assert recovery.shed_rows(api.served.runtime, evaluation_id, batch_rows=1) == 0
        assert rows_of(api, evaluation_id)["result"] == 6


class TestRetentionInBatches:
    def test_everything_old_goes_nothing_new_and_images_as_still_used(self, api: Api) -> None:
        only_old, only_old_digest = unique_png()
        shared, shared_digest = unique_png()
        with api.tenant_client() as client:
            old = submitted(api, client, body(only_old, shared, cases=7))
            new = submitted(api, client, body(shared, cases=3))
            completed_days_ago(api, old, 10)
            completed_days_ago(api, new, 1)
            settings = api.served.runtime.settings.model_copy(update={"retention_days": 5.0})
            runtime: Runtime = dataclasses.replace(api.served.runtime, settings=settings)
            pruned = recovery.prune_expired(runtime)
            assert old in pruned and new not in pruned
            assert client.get(f"/v1/evaluations/{old}").status_code == 404
            page = client.get(f"/v1/evaluations/{new}/results", params={"limit": 100})
            assert len(page.json()["data"]) == 6
        assert rows_of(api, old) == dict.fromkeys(
            ("result", "test_case", "metric_summary", "evaluation"), 0
        )
        assert rows_of(api, new) == {
            "result": 6,
            "test_case": 3,
            "metric_summary": 2,
            "evaluation": 1,
        }
        assert not blob_exists(api, only_old_digest)
        assert blob_exists(api, shared_digest)


def appended_days_ago(api: Api, evaluation_id: str, days: float) -> None:
    days_ago(api, evaluation_id, days, "appended_at")


class TestOpenEvaluationsLeftOpen:
    def test_one_idle_past_retention_is_canceled_and_deleted_a_recent_one_stays(
        self, api: Api
    ) -> None:
        # An open evaluation never closed was never finished, so never deleted: it grew the
        # database past LOUPE_RETENTION_DAYS for good.
        with api.tenant_client() as client:
            opened = []
            for _ in range(3):
                response = client.post("/v1/evaluations", json={**body(cases=2), "open": True})
                assert response.status_code == 202, response.text
                opened.append(response.json()["id"])
            idle, recent, scoring = opened
            for evaluation_id in opened:
                wait_all_scored(api, client, evaluation_id)
            # A batch appended today keeps `recent`, though it was opened long ago.
            appended_days_ago(api, idle, 10)
            appended_days_ago(api, recent, 10)
            more = client.post(
                f"/v1/evaluations/{recent}/test_cases",
                json={"test_cases": body(cases=1)["test_cases"]},
            )
            assert more.status_code == 202, more.text
            wait_all_scored(api, client, recent)
            # One whose last batch is still being scored is left for a later sweep.
            appended_days_ago(api, scoring, 10)
            with api.served.runtime.session() as session:
                session.execute(delete(Result).where(Result.evaluation_id == scoring))
                session.commit()

            settings = api.served.runtime.settings.model_copy(update={"retention_days": 5.0})
            runtime: Runtime = dataclasses.replace(api.served.runtime, settings=settings)
            pruned = recovery.prune_expired(runtime)
            assert pruned == [idle]
            assert client.get(f"/v1/evaluations/{idle}").status_code == 404
            assert rows_of(api, idle) == dict.fromkeys(
                ("result", "test_case", "metric_summary", "evaluation"), 0
            )
            for kept in (recent, scoring):
                still = client.get(f"/v1/evaluations/{kept}").json()
                assert (still["open"], still["status"]) == (True, "in_progress"), still
            actions = [
                event["action"]
                for event in client.get("/v1/audit_events", params={"object_id": idle}).json()[
                    "data"
                ]
            ]
            assert actions == ["evaluation.delete", "evaluation.cancel", "evaluation.create"]


def wait_all_scored(api: Api, client: Any, evaluation_id: str) -> None:
    """Until every case appended so far has its results (an open one never completes)."""
    deadline = time.monotonic() + 60
    while True:
        api.run_queue()
        counts = client.get(f"/v1/evaluations/{evaluation_id}").json()["result_counts"]
        if counts["pending"] == 0:
            return
        assert time.monotonic() < deadline, counts
        time.sleep(0.05)
