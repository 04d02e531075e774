"""`loupe serve` as a real process (embedded mode, SQLite), configured through LOUPE_* variables
as an operator would, with its stderr (the log lines) kept in a file for the test to read."""

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tests.fixtures.api import TERMINAL
from tests.fixtures.services import free_port

LOUPE = Path(sys.executable).with_name("loupe")
JUDGE_KEY = "sk-operator-judge-0123456789"


@dataclass
class ServedProcess:
    base_url: str
    key: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def client(self, key: str | None = None) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url,
            headers={"Authorization": f"Bearer {key or self.key}"},
            timeout=30,
            trust_env=False,
        )

    def wait(self, client: httpx.Client, evaluation_id: str) -> dict:
        """Poll until the evaluation is final (fails if the server process dies first)."""
        while True:
            body = client.get(f"/v1/evaluations/{evaluation_id}").json()
            if body["status"] in TERMINAL:
                return body
            assert self.process.poll() is None, self.log()
            time.sleep(0.05)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def json_lines(self) -> list[dict[str, Any]]:
        """Every line of the log, parsed (a line that is not JSON fails the test)."""
        return [json.loads(line) for line in self.log().splitlines() if line]


def loupe_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of a `loupe` process: no LOUPE_/OPENAI_ variables of the test
    session's, a database in `tmp_path`, and `settings` as LOUPE_<NAME> variables."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("LOUPE_", "OPENAI_"))
    }
    env["LOUPE_DATABASE_URL"] = f"sqlite:///{tmp_path}/loupe.db"
    env.update({f"LOUPE_{name.upper()}": value for name, value in settings.items()})
    return env


@contextmanager
def loupe_serve(tmp_path: Path, judge_base_url: str, **settings: str) -> Iterator[ServedProcess]:
    """`loupe serve` with the scripted judge as the operator's judge; a tenant key made by
    `loupe keys create` first."""
    port = free_port()
    values = {
        "port": str(port),
        "judge_base_url": judge_base_url,
        "judge_api_key": JUDGE_KEY,
        "judge_model": "judge-model",
        "judge_max_attempts": "2",
        "judge_backoff_base_seconds": "0.01",
        "judge_backoff_cap_seconds": "0.02",
        "secret_key": "test-secret-key-of-at-least-32-bytes",
        "allow_private_urls": "true",
        "result_flush_seconds": "0.1",
        **settings,
    }
    env = loupe_env(tmp_path, **values)
    created = subprocess.run(
        [str(LOUPE), "keys", "create", "--create-tenant", "--tenant", f"t-{uuid.uuid4().hex[:8]}"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip().splitlines()[-1]
    log_path = tmp_path / "serve.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(LOUPE), "serve"], env=env, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=log
        )
    served = ServedProcess(f"http://127.0.0.1:{port}", key, process, log_path)
    try:
        while True:
            try:
                ready = httpx.get(f"{served.base_url}/readyz", trust_env=False)
                if ready.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, served.log()
            time.sleep(0.1)
        yield served
    finally:
        process.terminate()
        process.wait()
