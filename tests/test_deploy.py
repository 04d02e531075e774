"""docker-compose.yml and the Dockerfile describe a deployment the code can actually run."""

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from typer.testing import CliRunner

from app.cli import cli
from app.config import Settings
from tests.fixtures.api import Api

ROOT = Path(__file__).resolve().parent.parent
LOUPE_SERVICES = ("migrate", "api", "worker")
# Stands in for `${VAR}`, `${VAR:-default}` and `${VAR:?message}` the way compose fills them.
_INTERPOLATION = re.compile(r"\$\{(\w+)(?:[:?-][^}]*)?\}")


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))


def service(name: str) -> dict[str, Any]:
    services = compose()["services"]
    assert name in services, f"docker-compose.yml has no {name!r} service"
    return services[name]


def argv(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(arg) for arg in command]


def environment(name: str) -> dict[str, str]:
    """The service's environment as the container sees it, with test values interpolated."""
    raw = service(name).get("environment", {})
    if isinstance(raw, list):
        raw = dict(item.split("=", 1) for item in raw)
    return {
        key: _INTERPOLATION.sub("test-secret-of-at-least-32-bytes-long", str(value))
        for key, value in raw.items()
    }


def env_files(name: str) -> list[str | dict[str, Any]]:
    """The service's env_file entries (a path, or {path, required})."""
    entries = service(name).get("env_file") or []
    return [entries] if isinstance(entries, str | dict) else list(entries)


def healthcheck_argv(test: str | list[str]) -> list[str]:
    """A compose healthcheck `test` as an argv (CMD form) or a shell line (CMD-SHELL form)."""
    if isinstance(test, str):
        return ["sh", "-c", test]
    kind, *rest = test
    assert kind in ("CMD", "CMD-SHELL"), test
    return rest if kind == "CMD" else ["sh", "-c", rest[0]]


def run_loupe(args: list[str]) -> None:
    """Assert `loupe <args>` names a real command with real flags (parsed, not run)."""
    assert args and args[0] == "loupe", f"expected a `loupe` command, got {args}"
    result = CliRunner().invoke(cli, [*args[1:], "--help"])
    assert result.exit_code == 0, f"`{shlex.join(args)}` is not a loupe command: {result.output}"


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    instructions: list[tuple[str, str]] = []
    pending = ""
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, arguments = (pending + stripped).partition(" ")
        instructions.append((keyword.upper(), arguments.strip()))
        pending = ""
    return instructions


def exec_form(arguments: str) -> list[str]:
    """A Dockerfile instruction's JSON (exec) form, or its shell form wrapped in `sh -c`."""
    if arguments.startswith("["):
        return json.loads(arguments)
    return ["/bin/sh", "-c", arguments]


def probe(command: list[str], port: int) -> subprocess.CompletedProcess[str]:
    """Run a container health check here, against the API served on loopback at `port`."""
    assert command[0] == "python", f"health checks use the image's python, got {command}"
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.lower().endswith("_proxy") and not key.startswith("LOUPE_")
    }
    env["LOUPE_PORT"] = str(port)
    code = command[command.index("-c") + 1].replace(":8000/", f":{port}/")
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=30
    )


class TestCommandCheck:
    def test_rejects_what_the_cli_lacks(self) -> None:
        with pytest.raises(AssertionError):
            run_loupe(["loupe", "serve", "--no-such-flag"])
        with pytest.raises(AssertionError):
            run_loupe(["loupe", "scale"])

    def test_loupe_is_the_installed_script(self) -> None:
        pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        assert pyproject["project"]["scripts"]["loupe"] == "app.cli:main"


class TestCompose:
    def test_services(self) -> None:
        assert set(compose()["services"]) >= {"postgres", "redis", *LOUPE_SERVICES}

    def test_commands(self) -> None:
        assert argv(service("migrate")["command"]) == ["loupe", "migrate"]
        assert argv(service("api")["command"]) == [
            "loupe",
            "serve",
            "--no-migrate",
            "--workers",
            "2",
        ]
        assert argv(service("worker")["command"]) == ["loupe", "worker"]
        assert service("migrate").get("restart", "no") == "no", "migrate runs once"

    @pytest.mark.parametrize("name", LOUPE_SERVICES)
    def test_commands_exist_in_the_cli(self, name: str) -> None:
        run_loupe(argv(service(name)["command"]))

    @pytest.mark.parametrize("name", LOUPE_SERVICES)
    def test_environment_points_at_postgres_and_redis(self, name: str) -> None:
        env = environment(name)
        database = urlsplit(env["LOUPE_DATABASE_URL"])
        assert database.scheme == "postgresql+psycopg"
        assert (database.hostname, database.path) == ("postgres", "/loupe")
        postgres_env = environment("postgres")
        assert database.username == postgres_env["POSTGRES_USER"]
        assert database.password == postgres_env["POSTGRES_PASSWORD"]
        assert urlsplit(env["LOUPE_REDIS_URL"])[:2] == ("redis", "redis:6379")

        # Unknown LOUPE_ variables are ignored by Settings, so a typo would go unnoticed.
        fields = {f"LOUPE_{field.upper()}" for field in Settings.model_fields}
        assert {key for key in env if key.startswith("LOUPE_")} <= fields
        settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            **{key.removeprefix("LOUPE_").lower(): value for key, value in env.items()},
        )
        assert not settings.embedded and not settings.is_sqlite

    @pytest.mark.parametrize("name", LOUPE_SERVICES)
    def test_the_shared_secret_key_is_required(self, name: str) -> None:
        # Distributed mode refuses to start without it; compose says so before any container.
        raw = service(name).get("environment", {})
        assert re.fullmatch(r"\$\{LOUPE_SECRET_KEY:\?[^}]*32 bytes[^}]*\}", raw["LOUPE_SECRET_KEY"])
        Settings(_env_file=None, secret_key=environment(name)["LOUPE_SECRET_KEY"])  # type: ignore[call-arg]

    @pytest.mark.parametrize("name", LOUPE_SERVICES)
    def test_dot_env_reaches_the_containers(self, name: str) -> None:
        # Compose reads .env by itself only for ${...}; without env_file a judge configured
        # there never reaches Loupe. Optional, so a deployment without one still starts.
        assert {"path": ".env", "required": False} in env_files(name), env_files(name)

    @pytest.mark.parametrize("name", ("api", "worker"))
    def test_a_judge_in_dot_env_is_the_containers_judge(
        self, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        from dotenv import dotenv_values

        from app.evaluations.judging import operator_configured, startup_line

        dot_env = tmp_path / ".env"
        dot_env.write_text(
            "POSTGRES_PASSWORD=test-secret\n"
            "LOUPE_JUDGE_BASE_URL=http://vllm:8001/v1\n"
            "LOUPE_JUDGE_API_KEY=sk-judge\n"
            "LOUPE_JUDGE_MODEL=Qwen2.5-7B-Instruct\n"
            'LOUPE_MODEL_PRICES=\'{"Qwen2.5-7B-Instruct": {"input": 0.1, "output": 0.2}}\'\n'
            # The compose file's own values win over the file's.
            "LOUPE_DATABASE_URL=sqlite:///./var/loupe.db\n",
            encoding="utf-8",
        )
        # What the container gets: its env_file's lines, then `environment` over them.
        container: dict[str, str | None] = {}
        for entry in env_files(name):
            path = entry if isinstance(entry, str) else entry["path"]
            container.update(dotenv_values(tmp_path / path))
        container.update(environment(name))
        for key in os.environ:
            if key.startswith(("LOUPE_", "OPENAI_")):
                monkeypatch.delenv(key)
        for key, value in container.items():
            monkeypatch.setenv(key, value or "")
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert operator_configured(settings)
        assert startup_line(settings) == "judge: Qwen2.5-7B-Instruct at vllm:8001"
        assert settings.model_prices["Qwen2.5-7B-Instruct"].output == 0.2
        assert not settings.is_sqlite

    def test_api_listens_on_all_interfaces(self) -> None:
        env = environment("api")
        assert env["LOUPE_HOST"] == "0.0.0.0"
        published = [str(port).rsplit(":", 1)[-1] for port in service("api").get("ports", [])]
        assert env.get("LOUPE_PORT", "8000") in published

    @pytest.mark.parametrize("name", ("api", "worker"))
    def test_start_after_healthy_stores_and_migration(self, name: str) -> None:
        depends_on = service(name)["depends_on"]
        assert depends_on["postgres"]["condition"] == "service_healthy"
        assert depends_on["redis"]["condition"] == "service_healthy"
        assert depends_on["migrate"]["condition"] == "service_completed_successfully"
        assert service("migrate")["depends_on"]["postgres"]["condition"] == "service_healthy"

    def test_store_healthchecks(self) -> None:
        postgres = healthcheck_argv(service("postgres")["healthcheck"]["test"])
        assert postgres[0] == "pg_isready" or "pg_isready" in postgres[-1]
        redis = healthcheck_argv(service("redis")["healthcheck"]["test"])
        assert redis[:2] == ["redis-cli", "ping"] or "redis-cli ping" in redis[-1]

    def test_images(self) -> None:
        assert str(service("postgres")["image"]).startswith("postgres:15")
        assert str(service("redis")["image"]).startswith("redis:7")
        for name in LOUPE_SERVICES:
            assert service(name).get("build") == ".", f"{name} runs the image built from here"

    def test_redis_never_evicts_jobs(self) -> None:
        command = argv(service("redis")["command"])
        assert command[0] == "redis-server"
        assert command[command.index("--maxmemory-policy") + 1] == "noeviction"

    def test_several_workers(self) -> None:
        assert service("worker")["deploy"]["replicas"] >= 2

    def test_api_healthcheck_asks_readyz(self, api: Api) -> None:
        check = healthcheck_argv(service("api")["healthcheck"]["test"])
        assert any("/readyz" in part for part in check)
        result = probe(check, api.served.port)
        assert result.returncode == 0, result.stderr

    def test_worker_healthcheck_is_worker_health(self) -> None:
        healthcheck = service("worker")["healthcheck"]
        assert not healthcheck.get("disable", False)
        check = healthcheck_argv(healthcheck["test"])
        # tests/test_cli.py runs it against a real worker, Postgres and Redis.
        assert check == ["loupe", "worker-health"]
        run_loupe(check)


class TestSettingsReference:
    def test_settings_table_lists_every_setting(self) -> None:
        # The settings reference page, generated from Settings (docs/generate.py); the README's
        # hand-kept table it replaced.
        page = (ROOT / "docs" / "reference" / "settings.md").read_text(encoding="utf-8")
        rows = [line for line in page.splitlines() if line.startswith("| `LOUPE_")]
        documented = [
            name for row in rows for name in re.findall(r"`(LOUPE_\w+)`", row.split("|")[1])
        ]
        assert sorted(documented) == sorted(
            f"LOUPE_{name.upper()}" for name in Settings.model_fields
        )


class TestDockerfile:
    def test_base_image_and_user(self) -> None:
        instructions = dockerfile_instructions()
        assert instructions[0] == ("FROM", "python:3.11-slim")
        users = [arguments for keyword, arguments in instructions if keyword == "USER"]
        assert users and users[-1].split(":")[0] not in ("root", "0"), "runs as root"

    def test_runs_loupe_serve(self) -> None:
        instructions = dict(dockerfile_instructions())
        command = exec_form(instructions["ENTRYPOINT"]) if "ENTRYPOINT" in instructions else []
        command += exec_form(instructions["CMD"])
        assert command[0] == "loupe", command
        assert command[1] == "serve", command
        run_loupe(command)

    def test_healthcheck_asks_healthz(self, api: Api) -> None:
        arguments = dict(dockerfile_instructions())["HEALTHCHECK"]
        check = arguments.partition(" CMD ")[2]
        assert "/healthz" in check and "urllib" in check
        result = probe(exec_form(check.strip()), api.served.port)
        assert result.returncode == 0, result.stderr

    def test_healthcheck_fails_without_the_api(self) -> None:
        arguments = dict(dockerfile_instructions())["HEALTHCHECK"]
        # Port 9 (discard) on loopback: nothing serves HTTP there.
        result = probe(exec_form(arguments.partition(" CMD ")[2].strip()), 9)
        assert result.returncode != 0
