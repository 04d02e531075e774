"""A run's candidate model is connected to only at addresses the model policy allows, checked on
every connection: a name answering an allowed address at registration and at the job's start,
and the scripted model's loopback address (outside the policy) when connecting, is refused
without a request reaching the model. Names under `.test` are answered by the scripted resolver
of tests/media/test_fetch_dns.py; the policy allows 127.0.0.2 only."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.api import Api, side_app
from tests.fixtures.dns import Resolver
from tests.fixtures.judge import ScriptedJudge
from tests.runs.helpers import example_zip, samples, upload, wait_run


@pytest.fixture
def app_allowing_127_0_0_2(tmp_path: Path) -> Iterator[Api]:
    with side_app(tmp_path, allow_private_urls=False, model_allow=["127.0.0.2/32"]) as app:
        yield app


class TestRebinding:
    def test_a_candidate_rebound_after_the_checks_is_refused_on_connecting(
        self, resolver: Resolver, app_allowing_127_0_0_2: Api, judge: ScriptedJudge
    ) -> None:
        app = app_allowing_127_0_0_2
        # Registration and the job's start see 127.0.0.2; the connection would go to 127.0.0.1.
        resolver.answers["candidate.test"] = ["127.0.0.2", "127.0.0.2", "127.0.0.1"]
        with app.tenant_client() as client:
            dataset = upload(client, "vqa.zip", example_zip("vqa/example_vqa.jsonl"), "general_vqa")
            assert dataset.status_code == 201, dataset.text
            registered = client.post(
                "/v1/models",
                json={"base_url": f"http://candidate.test:{judge.port}/v1", "model": "cand"},
            )
            assert registered.status_code == 201, registered.text
            run = client.post(
                "/v1/runs",
                json={"dataset_id": dataset.json()["id"], "model_id": registered.json()["id"]},
            )
            assert run.status_code == 202, run.text
            finished = wait_run(app, client, run.json()["id"])
            rows = samples(client, run.json()["id"])
        assert finished["status"] == "completed"
        assert finished["result_counts"]["errored"] == finished["result_counts"]["total"] > 0
        assert rows and all(
            [error["type"] for error in row["errors"]] == ["candidate_blocked"] for row in rows
        ), rows
        assert all(row["prediction"] is None for row in rows)
        message = rows[0]["errors"][0]["message"]
        assert message.startswith(
            f"the candidate endpoint candidate.test:{judge.port} is not allowed by the model "
            "policy: candidate.test resolves to a loopback address"
        )
        assert "LOUPE_MODEL_ALLOW" in message
        assert judge.requests == []
