"""The newcomer path: `loupe serve` on the embedded default, then the README's curl steps."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.fixtures.services import free_port

ROOT = Path(__file__).resolve().parent.parent
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
        env.pop("LOUPE_REDIS_URL", None)
        server = subprocess.Popen(
            [str(BIN / "loupe"), "serve"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 30
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
                '"result_counts":{"total":2,"passed":1,"failed":1,"errored":0,"pending":0}'
                in done.stdout
            )
            assert '"reason":"actual_output matches expected_output"' in done.stdout
        finally:
            server.terminate()
            server.wait(timeout=15)

    def test_keys_create_prints_the_key_last(self, tmp_path: Path) -> None:
        env = {**os.environ, "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/k.db"}
        out = (
            subprocess.run(
                [str(BIN / "loupe"), "keys", "create", "--tenant", "acme"],
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
