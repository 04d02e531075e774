"""Regenerating the SDKs from the spec the app serves today changes nothing committed."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.main import create_app
from tests.sdk.conftest import ROOT

GENERATE = ROOT / "sdk" / "generate.py"


@pytest.fixture(scope="module")
def live_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """openapi.json as `loupe openapi` writes it, from the code as it is now."""
    path = tmp_path_factory.mktemp("spec") / "openapi.json"
    path.write_text(json.dumps(create_app().openapi(), indent=2, sort_keys=True) + "\n")
    return path


def differences(committed: Path, regenerated: Path) -> list[str]:
    """Files added, removed or changed between two trees, relative to them."""

    def files(root: Path) -> dict[str, bytes]:
        return {
            str(path.relative_to(root)): path.read_bytes()
            for path in root.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        }

    before, after = files(committed), files(regenerated)
    return sorted(
        f"{name}: "
        + ("not regenerated" if name not in after else "new" if name not in before else "changed")
        for name in before.keys() | after.keys()
        if before.get(name) != after.get(name)
    )


class TestDrift:
    def test_python_sdk_is_what_the_live_spec_generates(
        self, live_spec: Path, tmp_path: Path
    ) -> None:
        subprocess.run(
            [
                sys.executable,
                str(GENERATE),
                "--python",
                "--spec",
                str(live_spec),
                "--out",
                str(tmp_path),
            ],
            check=True,
        )
        committed = ROOT / "sdk" / "python" / "loupe_client"
        regenerated = tmp_path / "python" / "loupe_client"
        assert differences(committed / "_generated", regenerated / "_generated") == [], (
            "run `make openapi sdk` and commit the result"
        )
        assert (committed / "_version.py").read_text() == (regenerated / "_version.py").read_text()

    def test_typescript_types_are_what_the_live_spec_generates(
        self, live_spec: Path, tmp_path: Path
    ) -> None:
        typescript = ROOT / "sdk" / "typescript"
        assert (typescript / "node_modules" / ".bin" / "openapi-typescript").exists(), (
            "sdk/typescript has no node_modules: run `make sdk` (npm ci from the lockfile)"
        )
        subprocess.run(
            [sys.executable, str(GENERATE), "--typescript", "--spec", str(live_spec)]
            + ["--out", str(tmp_path)],
            check=True,
        )
        committed = typescript / "src" / "generated"
        regenerated = tmp_path / "typescript" / "src" / "generated"
        assert differences(committed, regenerated) == [], "run `make sdk` and commit the result"
        package = json.loads((typescript / "package.json").read_text())
        assert package["version"] == json.loads(live_spec.read_text())["info"]["version"]
