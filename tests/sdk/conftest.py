"""The SDK tests import `loupe_client` from sdk/python as committed (no install needed) and
build the TypeScript client once per module."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SDK_PYTHON = ROOT / "sdk" / "python"
TYPESCRIPT = ROOT / "sdk" / "typescript"

if str(SDK_PYTHON) not in sys.path:
    sys.path.insert(0, str(SDK_PYTHON))


def npm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["npm", *args], cwd=TYPESCRIPT, capture_output=True, text=True, timeout=600
    )


@pytest.fixture(scope="module")
def built() -> Path:
    """The client and its tests compiled by tsc into sdk/typescript/dist."""
    assert (TYPESCRIPT / "node_modules" / ".bin" / "tsc").exists(), (
        "sdk/typescript has no node_modules: run `make sdk` (npm ci from the lockfile)"
    )
    compiled = npm("run", "--silent", "build")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    return TYPESCRIPT / "dist" / "test" / "live.test.js"
