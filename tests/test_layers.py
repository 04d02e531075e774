"""The layers written down in .importlinter hold (issue 25): `make test` runs `lint-imports`.

Each contract is checked on its own, so a failure names the rule broken and prints
import-linter's report of the imports that break it.
"""

import configparser
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".importlinter"
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
PREFIX = "importlinter:contract:"

CONTRACTS = ["layers", "pure", "core", "kinds", "services", "cycles", "private"]


def _lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), str(CONFIG), "--no-cache", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_contract_is_checked_here() -> None:
    parser = configparser.ConfigParser()
    parser.read(CONFIG)
    written = [section.removeprefix(PREFIX) for section in parser if section.startswith(PREFIX)]
    assert sorted(written) == sorted(CONTRACTS)


@pytest.mark.parametrize("contract", CONTRACTS)
def test_import_contract_holds(contract: str) -> None:
    checked = _lint_imports("--contract", contract)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 kept, 0 broken" in checked.stdout, checked.stdout
