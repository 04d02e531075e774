"""Recovery: the ticker re-enqueues evaluations whose jobs were lost, and gives up in bounds."""

from datetime import timedelta

import pytest
from rq import Queue
from sqlalchemy import update

from app.db import utcnow
from app.models import Evaluation
from tests.evaluations.test_endpoints import evaluation_body
from tests.fixtures.api import Api
from workers import jobs

distributed_only = pytest.mark.parametrize("api", ["distributed"], indirect=True)


def age(api: Api, evaluation_id: str, **values: object) -> None:
    """Make an evaluation look silent for longer than LOUPE_STUCK_AFTER_SECONDS."""
    stale = utcnow() - timedelta(seconds=api.settings.stuck_after_seconds + 5)
    with api.served.runtime.session() as session:
        session.execute(
            update(Evaluation)
            .where(Evaluation.id == evaluation_id)
            .values(heartbeat_at=stale, **values)
        )
        session.commit()


@distributed_only
class TestSweep:
    def test_lost_jobs_are_re_enqueued_and_complete(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        # Redis lost the queue (a flush, a failover): nothing will ever run the evaluation.
        Queue(api.settings.queue_name, connection=api.redis).empty()
        age(api, evaluation_id)
        jobs.tick()
        final = api.wait(client, evaluation_id)
        assert final["status"] == "completed"
        assert final["result_counts"]["pending"] == 0

    def test_waiting_jobs_are_not_duplicated(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        queue = Queue(api.settings.queue_name, connection=api.redis)
        waiting = queue.count
        age(api, evaluation_id)
        jobs.tick()
        assert queue.count == waiting
        with api.served.runtime.session() as session:
            assert session.get(Evaluation, evaluation_id).dispatch_attempts == 1
        api.wait(client, evaluation_id)

    def test_out_of_attempts_fails_with_an_error(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        Queue(api.settings.queue_name, connection=api.redis).empty()
        age(api, evaluation_id, dispatch_attempts=api.settings.max_dispatch_attempts)
        jobs.tick()
        final = client.get(f"/v1/evaluations/{evaluation_id}").json()
        assert final["status"] == "failed"
        assert final["error"]["type"] == "dispatch_exhausted"
        assert final["completed_at"] is not None
