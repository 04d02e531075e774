"""The newcomer path: `loupe serve` on the embedded default, then the README's curl steps;
and `loupe worker-health`, the worker container's health check."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from app import migrate
from tests.fixtures.api import postgres_settings
from tests.fixtures.services import PostgresServer, RedisServer, free_port
from tests.workers.test_worker_process import worker_env, worker_process

ROOT = Path(__file__).resolve().parent.parent
# Distributed mode refuses to start without one of at least 32 bytes.
SHARED_SECRET_KEY = "a-secret-key-shared-by-every-process"
BIN = Path(sys.executable).parent


def walkthrough(port: int) -> str:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- walkthrough:start -->\n```bash\n(.*?)```", readme, re.S)
    assert block, "README lost its walk-through block"
    return (
        block.group(1)
        .replace("127.0.0.1:8000", f"127.0.0.1:{port}")
        .replace(".venv/bin/loupe", str(BIN / "loupe"))
    )


class TestEmbeddedService:
    def test_readme_walkthrough_completes_an_evaluation(self, tmp_path: Path) -> None:
        port = free_port()
        env = {
            **os.environ,
            "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db",
            "LOUPE_PORT": str(port),
        }
        for name in ("LOUPE_REDIS_URL", "LOUPE_JUDGE_BASE_URL", "LOUPE_JUDGE_API_KEY"):
            env.pop(name, None)
        for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
            env.pop(name, None)
        server = subprocess.Popen(
            [str(BIN / "loupe"), "serve"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            # Generous: a loaded CI machine has taken over 30 s to start a fresh process.
            deadline = time.monotonic() + 120
            while True:
                try:
                    if (
                        httpx.get(f"http://127.0.0.1:{port}/readyz", trust_env=False).status_code
                        == 200
                    ):
                        break
                except httpx.TransportError:
                    pass
                assert server.poll() is None, server.stdout.read().decode()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "loupe serve did not become ready"
                time.sleep(0.1)
            done = subprocess.run(
                ["bash", "-euo", "pipefail", "-c", walkthrough(port)],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
            assert '"status":"completed"' in done.stdout
            assert (
                '"result_counts":{"total":2,"passed":1,"failed":1,"errored":0,"pending":0,'
                '"canceled":0,"skipped":0}' in done.stdout
            )
            assert '"reason":"actual_output matches expected_output"' in done.stdout
        finally:
            server.terminate()
            server.wait(timeout=15)
        # The start-up line says there is no judge, and how to configure one.
        printed = server.stdout.read().decode().splitlines()  # type: ignore[union-attr]
        [line] = [line for line in printed if line.startswith("Loupe on ")]
        assert line.startswith(f"Loupe on http://127.0.0.1:{port} (embedded worker); judge: none")
        assert "LOUPE_JUDGE_BASE_URL" in line

    def test_keys_create_prints_the_key_last(self, tmp_path: Path) -> None:
        env = {**os.environ, "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/k.db"}
        out = (
            subprocess.run(
                [str(BIN / "loupe"), "keys", "create", "--create-tenant", "--tenant", "acme"],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            .stdout.strip()
            .splitlines()
        )
        assert out[-1].startswith("lp_") and len(out[-1]) > 40
        # Only the hash is stored: the key is in no database file (WAL included).
        stored = b"".join(path.read_bytes() for path in tmp_path.glob("k.db*"))
        assert stored and out[-1].encode() not in stored


def worker_health(env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "loupe"), "worker-health"],
        env=env,
        cwd=cwd,  # an empty directory: no stray .env file
        capture_output=True,
        text=True,
        timeout=60,
    )


class TestWorkerHealth:
    def test_healthy_while_the_worker_runs_and_not_once_it_is_killed(
        self, postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
    ) -> None:
        settings = postgres_settings(postgres_server, redis_server)
        migrate.upgrade(settings)
        env = worker_env(settings)
        # Before any worker starts: the stores answer, but nothing serves the queue.
        result = worker_health(env, tmp_path)
        assert result.returncode == 1
        assert "no live worker" in result.stderr
        with worker_process(settings, tmp_path / "worker") as worker:
            deadline = time.monotonic() + 60
            while (result := worker_health(env, tmp_path)).returncode != 0:
                assert worker.alive(), worker.log_tail()
                assert time.monotonic() < deadline, result.stderr
            assert "healthy" in result.stdout
            # SIGKILL leaves the worker registered in Redis; its process is gone all the same.
            worker.kill()
            result = worker_health(env, tmp_path)
        assert result.returncode == 1
        assert "no live worker" in result.stderr

    def test_a_live_worker_stays_healthy_while_a_store_is_away(
        self, postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
    ) -> None:
        """The worker waits out an outage of either store: its liveness check reports the store
        and passes (a failing check would restart every worker at once, and their restarts'
        back-off would keep them down after the store is back); with no live worker where Redis
        answers, it fails, naming the store away too."""
        settings = postgres_settings(postgres_server, redis_server)
        migrate.upgrade(settings)
        nothing = f"127.0.0.1:{free_port()}"
        no_database = worker_env(
            settings, database_url=f"postgresql+psycopg://loupe@{nothing}/loupe"
        )
        result = worker_health(no_database, tmp_path)
        assert result.returncode == 1
        assert "no live worker" in result.stderr
        assert "database: OperationalError" in result.stderr
        with worker_process(settings, tmp_path / "worker") as worker:
            deadline = time.monotonic() + 60
            while worker_health(worker_env(settings), tmp_path).returncode != 0:
                assert worker.alive(), worker.log_tail()
                assert time.monotonic() < deadline
            result = worker_health(no_database, tmp_path)
            assert result.returncode == 0, result.stderr
            assert "database: OperationalError" in result.stderr and "is alive" in result.stderr
            result = worker_health(worker_env(settings, redis_url=f"redis://{nothing}/0"), tmp_path)
            assert result.returncode == 0, result.stderr
            assert "redis: ConnectionError" in result.stderr and "is alive" in result.stderr

    def test_embedded_mode_has_no_worker(self, tmp_path: Path) -> None:
        env = {key: value for key, value in os.environ.items() if not key.startswith("LOUPE_")}
        env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/h.db"
        result = worker_health(env, tmp_path)
        assert result.returncode == 1
        assert "LOUPE_REDIS_URL is not set" in result.stderr


def loupe_command(tmp_path: Path, *args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """`loupe <args>` in an empty directory (no .env) with only `variables` of Loupe's."""
    env = {
        key: value for key, value in os.environ.items() if not key.startswith(("LOUPE_", "OPENAI_"))
    }
    env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/c.db"
    env.update(variables)
    return subprocess.run(
        [str(BIN / "loupe"), *args], env=env, cwd=tmp_path, capture_output=True, text=True
    )


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line a failed command printed (never a traceback)."""
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("loupe: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


class TestConfigurationErrors:
    @pytest.mark.parametrize(
        ("command", "variable", "value", "says"),
        [
            ("migrate", "LOUPE_MODEL_PRICES", "not json", "LOUPE_MODEL_PRICES: not valid JSON:"),
            ("serve", "LOUPE_MODEL_PRICES", '{"x": {"input": 1}}', "LOUPE_MODEL_PRICES: x.output"),
            ("serve", "LOUPE_PORT", "abc", "LOUPE_PORT='abc': must be a valid integer"),
            ("migrate", "LOUPE_RETENTION_DAYS", "0", "LOUPE_RETENTION_DAYS='0': must be"),
            ("migrate", "LOUPE_STUCK_AFTER_SECONDS", "1", "LOUPE_STUCK_AFTER_SECONDS must be"),
            ("migrate", "LOUPE_DATABASE_URL", "nonsense", "LOUPE_DATABASE_URL: not a database"),
            (
                "migrate",
                "LOUPE_WEBHOOK_DISABLE_AFTER_HOURS",
                "-1",
                "LOUPE_WEBHOOK_DISABLE_AFTER_HOURS='-1': must be greater than or equal to 0",
            ),
            (
                "migrate",
                "LOUPE_WEBHOOK_DISABLE_AFTER_HOURS",
                "nan",
                "LOUPE_WEBHOOK_DISABLE_AFTER_HOURS='nan': must be a finite number",
            ),
        ],
    )
    def test_a_bad_setting_is_one_line_naming_it_and_exit_2(
        self, tmp_path: Path, command: str, variable: str, value: str, says: str
    ) -> None:
        result = loupe_command(tmp_path, command, **{variable: value})
        assert result.returncode == 2
        assert one_line(result).startswith(f"loupe: {says}")

    @pytest.mark.parametrize(
        ("variables", "says"),
        [
            # Scheme missing: every judged result would fail later.
            ({"LOUPE_JUDGE_BASE_URL": "127.0.0.1:18199/v1"}, "LOUPE_JUDGE_BASE_URL="),
            ({"LOUPE_JUDGE_BASE_URL": "localhost:8080/v1"}, "LOUPE_JUDGE_BASE_URL="),
            ({"LOUPE_JUDGE_BASE_URL": "ftp://judge.example/v1"}, "LOUPE_JUDGE_BASE_URL="),
            ({"LOUPE_JUDGE_BASE_URL": "http://judge.example:port/v1"}, "LOUPE_JUDGE_BASE_URL="),
            ({"OPENAI_BASE_URL": "127.0.0.1:18199/v1"}, "OPENAI_BASE_URL="),
        ],
    )
    def test_a_judge_url_without_scheme_or_host_is_refused_at_start_up(
        self, tmp_path: Path, variables: dict[str, str], says: str
    ) -> None:
        result = loupe_command(tmp_path, "serve", **variables)
        assert result.returncode == 2
        line = one_line(result)
        assert (
            line.startswith(f"loupe: {says}")
            and "http:// or https://" in line
            or ("port is not a number" in line)
        )
        assert "Loupe on" not in result.stdout

    def test_a_judge_url_with_scheme_is_taken(self, tmp_path: Path) -> None:
        # `migrate` reads the settings as `serve` does, and exits.
        result = loupe_command(
            tmp_path, "migrate", LOUPE_JUDGE_BASE_URL="http://127.0.0.1:18199/v1"
        )
        assert result.returncode == 0, result.stderr

    def test_an_unreachable_database_is_one_line_and_exit_1(self, tmp_path: Path) -> None:
        nothing = f"127.0.0.1:{free_port()}"
        url = f"postgresql://loupe:pg-password-123@{nothing}/loupe"
        for command in ("migrate", "serve"):
            result = loupe_command(
                tmp_path, command, LOUPE_DATABASE_URL=url, LOUPE_SECRET_KEY=SHARED_SECRET_KEY
            )
            assert result.returncode == 1
            line = one_line(result)
            assert line.startswith(f"loupe: cannot use the database at {nothing}")
            assert "LOUPE_DATABASE_URL" in line and "Connection refused" in line
            assert "pg-password-123" not in result.stderr

    @pytest.mark.parametrize("command", ["serve", "worker", "migrate"])
    @pytest.mark.parametrize("redis", [True, False])
    def test_distributed_mode_without_the_secret_key_is_refused(
        self, tmp_path: Path, command: str, redis: bool
    ) -> None:
        # Each machine would make its own key file: what one process encrypted or signed,
        # another could not read. Refused before any store is reached (none listens here).
        nothing = f"127.0.0.1:{free_port()}"
        variables = {"LOUPE_DATABASE_URL": f"postgresql://loupe:pw-1234567@{nothing}/loupe"}
        if redis:
            variables["LOUPE_REDIS_URL"] = f"redis://{nothing}/0"
        result = loupe_command(tmp_path, command, **variables)
        assert result.returncode == 2
        line = one_line(result)
        assert line.startswith("loupe: LOUPE_SECRET_KEY is not set: distributed mode")
        assert "pw-1234567" not in result.stderr
        assert not (tmp_path / "var" / "secret.key").exists()

    @pytest.mark.parametrize("command", ["serve", "worker"])
    @pytest.mark.parametrize("database", ["postgresql", "sqlite"])
    def test_a_secret_key_shorter_than_32_bytes_is_refused(
        self, tmp_path: Path, command: str, database: str
    ) -> None:
        nothing = f"127.0.0.1:{free_port()}"
        variables = {
            "LOUPE_SECRET_KEY": "0123456789abcdef",
            "LOUPE_REDIS_URL": f"redis://{nothing}/0",
        }
        if database == "postgresql":
            variables["LOUPE_DATABASE_URL"] = f"postgresql://loupe@{nothing}/loupe"
        result = loupe_command(tmp_path, command, **variables)
        assert result.returncode == 2
        line = one_line(result)
        assert line.startswith(
            "loupe: LOUPE_SECRET_KEY: must be at least 32 bytes, this one has 16"
        )
        assert "0123456789abcdef" not in result.stderr

    def test_a_short_secret_key_is_refused_in_embedded_mode_too(self, tmp_path: Path) -> None:
        result = loupe_command(tmp_path, "migrate", LOUPE_SECRET_KEY="short")
        assert result.returncode == 2
        assert one_line(result).startswith("loupe: LOUPE_SECRET_KEY: must be at least 32 bytes")

    @pytest.mark.parametrize("content", ["", " " * 32, "a" * 40, "short"])
    def test_a_key_file_without_a_usable_key_is_refused(self, tmp_path: Path, content: str) -> None:
        key_file = tmp_path / "secret.key"
        key_file.write_text(content)
        result = loupe_command(tmp_path, "migrate", LOUPE_SECRET_KEY_FILE=str(key_file))
        assert result.returncode == 2
        line = one_line(result)
        assert line.startswith(f"loupe: LOUPE_SECRET_KEY_FILE {key_file}: the key in it "), line

    def test_a_missing_key_file_is_made_with_a_usable_key(self, tmp_path: Path) -> None:
        key_file = tmp_path / "keys" / "secret.key"
        result = loupe_command(tmp_path, "migrate", LOUPE_SECRET_KEY_FILE=str(key_file))
        assert result.returncode == 0, result.stderr
        assert len(key_file.read_text()) >= 32
        assert key_file.stat().st_mode & 0o777 == 0o600
        assert [path.name for path in key_file.parent.iterdir()] == ["secret.key"]

    @pytest.mark.parametrize("key", [" " * 32, "a" * 40, "abab" * 10])
    def test_a_long_key_of_few_characters_is_refused(self, tmp_path: Path, key: str) -> None:
        result = loupe_command(tmp_path, "migrate", LOUPE_SECRET_KEY=key)
        assert result.returncode == 2
        line = one_line(result)
        assert line.startswith("loupe: LOUPE_SECRET_KEY: has only "), line
        assert "distinct characters, at least 8 are needed" in line

    def test_an_unknown_downgrade_revision_is_one_line_and_exit_2(self, tmp_path: Path) -> None:
        assert loupe_command(tmp_path, "migrate").returncode == 0
        result = loupe_command(tmp_path, "migrate", "--downgrade", "nosuchrev")
        assert result.returncode == 2
        line = one_line(result)
        assert line.startswith("loupe: --downgrade nosuchrev: Can't locate revision")
        assert "the database is at " in line and "no schema" not in line
