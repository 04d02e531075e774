"""A SIGKILLed `loupe worker` under the default recovery settings: the evaluation shows it is
stalled, resumes on another worker within 30 seconds and completes with every result once."""

import json
import os
import re
import signal
import time
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any

from app.config import Settings
from app.evaluations import service
from app.models import Evaluation
from tests.evaluations.test_tasks import fresh_judge
from tests.fixtures.api import postgres_settings
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.services import PostgresServer, RedisServer
from tests.workers.test_worker_process import (
    all_results,
    served_api,
    stored,
    wait_for,
    worker_process,
)

CASES = 240
DEFAULTS = Settings()


def judged_body() -> dict:
    return {
        "metrics": [{"type": "llm_accuracy"}],
        "test_cases": [
            {"input": f"q{i}", "actual_output": f"a{i}", "expected_output": f"a{i}"}
            for i in range(CASES)
        ],
    }


def shipped_recovery(
    postgres: PostgresServer, redis: RedisServer, judge: ScriptedJudge, **overrides: Any
) -> Settings:
    """Distributed settings with the recovery settings as shipped, not the suite's fast ones."""
    return postgres_settings(
        postgres,
        redis,
        judge_base_url=judge.base_url,
        tick_seconds=DEFAULTS.tick_seconds,
        stuck_after_seconds=DEFAULTS.stuck_after_seconds,
        heartbeat_seconds=DEFAULTS.heartbeat_seconds,
        **overrides,
    )


def living_members(group: int) -> list[int]:
    """Processes of a process group that are still running (not zombies)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # exited meanwhile
        state, pgid = fields[0], int(fields[2])
        if pgid == group and state != "Z":
            members.append(int(entry.name))
    return members


class TestRecovery:
    def test_sigkilled_worker_resumes_within_30_seconds(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        # Slow answers, few at a time: the evaluation takes long enough to be killed mid-run.
        judge.latency = 0.25
        settings = shipped_recovery(
            postgres_server,
            redis_server,
            judge,
            judge_concurrency=4,
            judge_max_concurrency=4,  # no growth: the run must last
            job_slice_size=CASES,
        )
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=judged_body())
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            with worker_process(settings, tmp_path / "first") as first:
                while stored(client.get(f"/v1/evaluations/{evaluation_id}").json()) < 20:
                    assert first.alive(), first.log_tail()
                    time.sleep(0.1)
                with worker_process(settings, tmp_path / "second") as second:
                    # The worker process alone, as the OOM killer or `kill -9 PID` would.
                    os.kill(first.process.pid, signal.SIGKILL)
                    first.process.wait(timeout=10)
                    killed_at = time.time()
                    # Nothing it started runs on (RQ's scheduler would be a forked child).
                    assert living_members(first.process.pid) == []
                    before = stored(client.get(f"/v1/evaluations/{evaluation_id}").json())
                    states = []
                    resumed_at = None
                    deadline = time.monotonic() + 240
                    while True:
                        body = client.get(f"/v1/evaluations/{evaluation_id}").json()
                        if body["recovery"]:
                            states.append(body["recovery"]["state"])
                        if resumed_at is None and stored(body) > before:
                            resumed_at = time.time()
                        if body["status"] != "in_progress":
                            break
                        assert second.alive(), second.log_tail()
                        assert time.monotonic() < deadline, (body, second.log_tail())
                        time.sleep(0.2)
                    assert second.alive(), second.log_tail()
            rows = all_results(client, evaluation_id)

        assert body["status"] == "completed", body
        assert body["recovery"] is None
        assert "stalled" in states and "recovering" in states
        assert states.index("stalled") < states.index("recovering")
        assert resumed_at is not None and resumed_at - killed_at <= 30
        assert len(rows) == CASES
        assert len({row["test_case_id"] for row in rows}) == CASES
        assert body["result_counts"]["errored"] == 0
        # The first results stored after the kill came from the second worker's job.
        created_after = [
            datetime.fromisoformat(row["created_at"]).timestamp()
            for row in rows
            if datetime.fromisoformat(row["created_at"]).timestamp() > killed_at
        ]
        assert min(created_after) - killed_at <= 30


SLICE = 300


class TestDeadJobAmongLiveOnes:
    def test_its_slice_resumes_within_30_seconds_while_the_other_runs_on(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """Two workers each score a slice; one is killed. The live one keeps the evaluation's
        heartbeat fresh, so only the dead job's lapsed lease shows the loss."""
        fresh_judge(judge)
        calls: list[tuple[float, int]] = []

        def answer(request: dict) -> dict:
            index = int(re.search(r"q(\d+);", json.dumps(request)).group(1))
            calls.append((time.time(), index // SLICE))
            return {"reasoning": "same answer", "verdict": "A"}

        judge.script(answer)
        judge.latency = 0.25
        settings = shipped_recovery(
            postgres_server,
            redis_server,
            judge,
            judge_concurrency=2,
            judge_max_concurrency=2,  # no growth: the run must last
            job_slice_size=SLICE,
        )
        body = {
            "metrics": [{"type": "llm_accuracy"}],
            "test_cases": [
                {"input": f"q{i};", "actual_output": f"a{i}", "expected_output": f"a{i}"}
                for i in range(2 * SLICE)
            ],
        }
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            with (
                worker_process(settings, tmp_path / "first") as first,
                worker_process(settings, tmp_path / "second") as second,
            ):
                # Both slices are being scored, one per worker.
                while {part for _, part in calls} != {0, 1}:
                    assert first.alive() and second.alive(), first.log_tail()
                    time.sleep(0.1)
                time.sleep(1)
                os.kill(first.process.pid, signal.SIGKILL)
                first.process.wait(timeout=10)
                killed_at = time.time()
                with worker_process(settings, tmp_path / "third") as third:
                    states = []
                    deadline = time.monotonic() + 240
                    while True:
                        state = client.get(f"/v1/evaluations/{evaluation_id}").json()
                        if state["recovery"]:
                            states.append(state["recovery"]["state"])
                        if state["status"] != "in_progress":
                            break
                        assert second.alive() and third.alive(), third.log_tail()
                        assert time.monotonic() < deadline, (state, third.log_tail())
                        time.sleep(0.2)
            rows = all_results(client, evaluation_id)

        assert state["status"] == "completed", state
        assert len({row["test_case_id"] for row in rows}) == len(rows) == 2 * SLICE
        assert state["result_counts"]["errored"] == 0
        # The killed worker's slice: the one whose calls stopped at the kill and came back.
        settle = killed_at + 2  # calls the killed worker had in flight still get answered
        gaps = {}
        for part in (0, 1):
            after = sorted(at for at, which in calls if which == part and at > settle)
            gaps[part] = after[0] - killed_at if after else None
        dead = max(gaps, key=lambda part: gaps[part] or 0)
        live = 1 - dead
        assert gaps[dead] is not None and 5 < gaps[dead] <= 30, gaps
        # The other worker scored on meanwhile: its slice had calls while the dead one's was
        # silent (an order of calls, not a time, so a busy machine cannot fail it).
        silent_until = killed_at + gaps[dead]
        assert any(which == live and settle < at < silent_until for at, which in calls), gaps
        # Never stalled; `recovering` only between the re-enqueue and the resumed slice's first
        # stored result (dispatch attempts count since progress), which polling may not see.
        assert "stalled" not in states, states


class TestProgressRenewsAttempts:
    def test_workers_killed_one_after_another_never_exhaust_a_progressing_evaluation(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """With two attempts allowed, two workers killed in turn, each after the evaluation
        made progress: every enqueue was counted for good, so the second kill failed it
        (`dispatch_exhausted`) while it was storing results. Attempts count since progress."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        judge.latency = 0.25
        settings = postgres_settings(
            postgres_server,
            redis_server,
            judge_base_url=judge.base_url,
            judge_concurrency=4,
            judge_max_concurrency=4,
            job_slice_size=CASES,
            max_dispatch_attempts=2,
        )
        with served_api(settings) as api:
            client = api.tenant_client()
            created = client.post("/v1/evaluations", json=judged_body())
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]

            def progress() -> int:
                return stored(client.get(f"/v1/evaluations/{evaluation_id}").json())

            with ExitStack() as workers:
                worker = workers.enter_context(worker_process(settings, tmp_path / "w0"))
                for turn in (1, 2):
                    reached = progress() + 20
                    deadline = time.monotonic() + 120
                    while progress() < reached:
                        assert worker.alive(), worker.log_tail()
                        assert time.monotonic() < deadline, worker.log_tail()
                        time.sleep(0.1)
                    os.kill(worker.process.pid, signal.SIGKILL)
                    worker.process.wait(timeout=10)
                    worker = workers.enter_context(worker_process(settings, tmp_path / f"w{turn}"))
                deadline = time.monotonic() + 240
                while (body := client.get(f"/v1/evaluations/{evaluation_id}").json())[
                    "status"
                ] == "in_progress":
                    assert worker.alive(), worker.log_tail()
                    assert time.monotonic() < deadline, (body, worker.log_tail())
                    time.sleep(0.2)
            rows = all_results(client, evaluation_id)
        assert body["status"] == "completed", body
        assert len({row["test_case_id"] for row in rows}) == len(rows) == CASES


class TestOneCopy:
    def test_a_slice_running_on_a_live_worker_is_not_queued_again(
        self,
        postgres_server: PostgresServer,
        redis_server: RedisServer,
        judge: ScriptedJudge,
        tmp_path: Path,
    ) -> None:
        """A dead worker's slice is found by two sweeps, its lapsed lease and the evaluation's
        stale heartbeat, a tick apart on different workers. The first re-enqueue starts at once
        on an idle worker; the second replaced that running job (RQ says "started", as of a
        dead worker's) with a fresh copy, and a third worker judged the slice's items again,
        billed and counted twice. A slice whose job holds a live lease is running: the sweep's
        dispatch leaves it be."""
        fresh_judge(judge)
        judge.script(lambda request: {"reasoning": "same answer", "verdict": "A"})
        cases = 10
        settings = postgres_settings(
            postgres_server, redis_server, judge_base_url=judge.base_url, job_slice_size=cases
        )
        body = {
            "metrics": [{"type": "llm_accuracy"}],
            "test_cases": [
                {"input": f"q{i};", "actual_output": f"a{i}", "expected_output": f"a{i}"}
                for i in range(cases)
            ],
        }
        with served_api(settings) as api:
            client = api.tenant_client()
            judge.hold()
            created = client.post("/v1/evaluations", json=body)
            assert created.status_code == 202, created.text
            evaluation_id = created.json()["id"]
            with (
                worker_process(settings, tmp_path / "first") as first,
                worker_process(settings, tmp_path / "second") as second,
            ):
                deadline = time.monotonic() + 120
                # One worker runs the slice (its calls held, its lease renewed).
                while judge.in_flight < 1:
                    assert first.alive() and second.alive(), first.log_tail()
                    assert time.monotonic() < deadline, first.log_tail() + second.log_tail()
                    time.sleep(0.05)
                runtime = api.served.runtime
                with runtime.session() as session:
                    evaluation = session.get(Evaluation, evaluation_id)
                    assert evaluation is not None
                    # What the sweep of stale heartbeats does once it claims the evaluation.
                    enqueued = service.dispatch(runtime, evaluation)
                judge.release()
                final = wait_for(client, evaluation_id, second)
            rows = all_results(client, evaluation_id)

        assert enqueued == 0
        assert final["status"] == "completed", final
        assert len({row["test_case_id"] for row in rows}) == len(rows) == cases
        assert final["usage"]["calls"] == len(judge.requests) == cases
