"""The `loupe` processes a bench starts run the code beside the bench (bench/procs.py)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.procs import ROOT, pythonpath

# What a console script (`loupe`) sees: no current directory on sys.path.
WHERE_APP_IS = "import sys; sys.path.pop(0); import app; print(app.__file__)"


def app_imported_by(env_pythonpath: str) -> Path:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", WHERE_APP_IS],
        env={**env, "PYTHONPATH": env_pythonpath},
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(done.stdout.strip())


class TestPythonpath:
    def test_a_service_imports_this_checkouts_app(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # A worktree's bench run without PYTHONPATH: the virtualenv's editable install would
        # give `loupe` the checkout it was installed from.
        monkeypatch.delenv("PYTHONPATH", raising=False)
        assert app_imported_by(pythonpath()) == ROOT / "app" / "__init__.py"

    def test_a_probe_put_first_keeps_this_checkout(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("PYTHONPATH", raising=False)
        probe = ROOT / "bench" / "memory_probe"
        path = pythonpath(probe)
        assert path.split(os.pathsep)[0] == str(probe)
        assert app_imported_by(path) == ROOT / "app" / "__init__.py"

    def test_an_older_checkout_on_pythonpath_still_wins(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        older = tmp_path / "before"
        (older / "app").mkdir(parents=True)
        (older / "app" / "__init__.py").write_text("")
        monkeypatch.setenv("PYTHONPATH", str(older))
        assert app_imported_by(pythonpath()) == older / "app" / "__init__.py"
