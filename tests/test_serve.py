"""`loupe serve --workers N`: N API processes on one PostgreSQL and Redis (the embedded mode
refuses), with one /metrics summing what every process counted."""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.fixtures.api import postgres_settings
from tests.fixtures.services import PostgresServer, RedisServer, free_port
from tests.workers.test_worker_process import wait_for, worker_env, worker_process

LOUPE = Path(sys.executable).with_name("loupe")
POLLS = 40


def children(pid: int) -> list[int]:
    """Running processes whose parent is `pid`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def counted(text: str, name: str, **labels: str) -> float:
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


@contextmanager
def serving(env: dict[str, str], port: int, log_path: Path) -> Iterator[None]:
    """`loupe serve` with `env`, logging to `log_path`, until it answers /healthz; stopped
    however the block ends."""
    with log_path.open("wb") as log:
        serve = subprocess.Popen(
            [str(LOUPE), "serve"],
            env=env,
            cwd=log_path.parent,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        for _ in range(600):
            assert serve.poll() is None, log_path.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield
    finally:
        serve.terminate()
        serve.wait(timeout=30)


class TestServeWorkers:
    def test_embedded_mode_refuses_more_than_one(self, tmp_path: Path) -> None:
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/loupe.db"
        done = subprocess.run(
            [str(LOUPE), "serve", "--workers", "2"],
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert "needs LOUPE_REDIS_URL" in done.stderr

    def test_two_api_processes_share_one_database_and_queue(
        self, postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
    ) -> None:
        settings = postgres_settings(postgres_server, redis_server)
        port = free_port()
        env = {**worker_env(settings), "LOUPE_PORT": str(port)}
        log = (tmp_path / "serve.log").open("wb")
        serve = subprocess.Popen(
            [str(LOUPE), "serve", "--workers", "2"],
            env=env,
            cwd=tmp_path,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            base_url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 90
            while True:
                assert serve.poll() is None, (tmp_path / "serve.log").read_text()
                try:
                    if httpx.get(f"{base_url}/readyz", trust_env=False).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
                time.sleep(0.2)
            # uvicorn's supervisor and its two API processes.
            workers = [
                pid
                for pid in children(serve.pid)
                if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]
            assert len(workers) == 2, (tmp_path / "serve.log").read_text()

            key = subprocess.run(
                [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", "two-processes"],
                env=env,
                cwd=tmp_path,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()[-1]
            headers = {"Authorization": f"Bearer {key}"}
            body = {
                "metrics": [{"type": "exact_match"}],
                "test_cases": [
                    {"input": f"q{i}", "actual_output": "a", "expected_output": "a"}
                    for i in range(30)
                ],
            }
            with httpx.Client(base_url=base_url, headers=headers, trust_env=False) as client:
                created = client.post("/v1/evaluations", json=body)
                assert created.status_code == 202, created.text
                evaluation_id = created.json()["id"]
                with worker_process(settings, tmp_path / "worker") as worker:
                    final = wait_for(client, evaluation_id, worker)
                assert final["status"] == "completed"
                assert final["result_counts"]["passed"] == 30
                # New connections each time, so the requests spread over both processes.
                for _ in range(POLLS):
                    with httpx.Client(base_url=base_url, headers=headers, trust_env=False) as one:
                        assert one.get(f"/v1/evaluations/{evaluation_id}").status_code == 200
                polls_before = counted(
                    httpx.get(f"{base_url}/metrics", trust_env=False).text,
                    "loupe_http_requests_total",
                    route="/v1/evaluations/{evaluation_id}",
                    method="GET",
                )
                for _ in range(POLLS):
                    with httpx.Client(base_url=base_url, headers=headers, trust_env=False) as one:
                        assert one.get(f"/v1/evaluations/{evaluation_id}").status_code == 200
                scraped = httpx.get(f"{base_url}/metrics", trust_env=False).text
        finally:
            serve.terminate()
            try:
                serve.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(serve.pid, 9)
                serve.wait(timeout=10)
            log.close()

        # Whichever process answered the scrape, it counted every process's requests.
        polls_after = counted(
            scraped,
            "loupe_http_requests_total",
            route="/v1/evaluations/{evaluation_id}",
            method="GET",
        )
        assert polls_after - polls_before == POLLS
        assert counted(scraped, "loupe_evaluations_submitted_total", kind="evaluation") == 1


class TestServeOutput:
    def test_a_new_database_is_one_line_before_the_banner(self, tmp_path: Path) -> None:
        """Alembic's line per revision stays out of the console: `loupe serve` on a new
        database says once that it created the tables, then its banner."""
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
        port = free_port()
        env.update(
            LOUPE_DATABASE_URL=f"sqlite:///{tmp_path}/loupe.db",
            LOUPE_PORT=str(port),
        )
        log_path = tmp_path / "serve.log"
        with serving(env, port, log_path):
            pass
        lines = log_path.read_text().splitlines()
        banner = next(i for i, line in enumerate(lines) if line.startswith("Loupe on http://"))
        assert len(lines[:banner]) == 1, lines[:banner]
        created = "database ready: created every table (schema revision "
        assert lines[0].startswith(created), lines[0]
        assert not any("Running upgrade" in line for line in lines)

    def test_the_banner_comes_once_the_port_listens(self, tmp_path: Path) -> None:
        """A script waiting for the `Loupe on http://…` line connects at once: the line used
        to come before the app was made and warmed up, and a request then was refused."""
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
        port = free_port()
        env.update(LOUPE_DATABASE_URL=f"sqlite:///{tmp_path}/loupe.db", LOUPE_PORT=str(port))
        serve = subprocess.Popen(
            [str(LOUPE), "serve"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            assert serve.stdout is not None
            said = []
            while not (said and said[-1].startswith("Loupe on http://")):
                line = serve.stdout.readline().decode()
                assert line, "".join(said)
                said.append(line)
            # One request, no retry: answered, however long the start-up after the line takes.
            answer = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=120, trust_env=False)
            assert answer.status_code == 200, answer.text
        finally:
            serve.terminate()
            serve.wait(timeout=30)

    def test_serving_without_redis_says_so(
        self, postgres_server: PostgresServer, tmp_path: Path
    ) -> None:
        """The API serves while Redis is away (work is queued once it answers) and says so; a
        worker in the same state exits naming Redis."""
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
        port, nobody = free_port(), free_port()
        env.update(
            LOUPE_DATABASE_URL=postgres_server.create_database(f"loupe_away_{port}"),
            LOUPE_REDIS_URL=f"redis://:sekrit@127.0.0.1:{nobody}/0",
            LOUPE_PORT=str(port),
            LOUPE_SECRET_KEY="abcdefghijklmnopqrstuvwxyz012345",
        )
        log_path = tmp_path / "serve.log"
        with serving(env, port, log_path):
            # Ready all the same (the queue reported away): a Redis blink must not take every
            # API process out of service at once.
            ready = httpx.get(f"http://127.0.0.1:{port}/readyz")
            assert ready.status_code == 200, ready.text
            assert ready.json() == {
                "status": "degraded",
                "checks": {"database": "ok", "queue": "ConnectionError"},
            }
        said = log_path.read_text()
        assert f"warning: cannot connect to Redis at 127.0.0.1:{nobody} (LOUPE_REDIS_URL)" in said
        assert "serving anyway" in said and "sekrit" not in said
