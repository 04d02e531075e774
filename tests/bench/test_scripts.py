"""Every script in bench/ starts, and docs/benchmarks.md cites only scripts, flags and results
files that exist: a figure's command must still be runnable as written."""

import py_compile
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
DOC = ROOT / "docs" / "benchmarks.md"
# Run by another virtualenv's python (deepeval is not one of Loupe's dependencies), with
# positional arguments only; `procs` is a module the others import.
NOT_COMMANDS = {"deepeval_conversation_calls", "deepeval_rate_limit", "procs"}
SCRIPTS = sorted(path.stem for path in BENCH.glob("*.py") if path.stem not in NOT_COMMANDS)


@pytest.fixture(scope="module")
def usage() -> dict[str, str]:
    """Each script's --help, which imports it whole and lists its flags."""

    def help_of(name: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, str(BENCH / f"{name}.py"), "--help"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )

    with ThreadPoolExecutor(4) as pool:
        answers = dict(zip(SCRIPTS, pool.map(help_of, SCRIPTS), strict=True))
    failed = {
        name: done.stderr[-2000:]
        for name, done in answers.items()
        if done.returncode != 0 or not done.stdout.startswith("usage:")
    }
    assert failed == {}
    return {name: done.stdout for name, done in answers.items()}


def cited_commands() -> list[tuple[str, list[str]]]:
    """(script, flags) for every `bench/<script>.py ...` in the doc, continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", DOC.read_text())
    return [
        (match[1], re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", match[2]))
        for match in re.finditer(r"(?<![\w/])bench/(\w+)\.py([^\n`|]*)", text)
    ]


class TestScripts:
    def test_every_script_starts_and_answers_help(self, usage: dict[str, str]) -> None:
        assert set(usage) == set(SCRIPTS)

    def test_the_other_virtualenvs_scripts_compile(self) -> None:
        for name in NOT_COMMANDS:
            py_compile.compile(str(BENCH / f"{name}.py"), doraise=True)


class TestTheDocCitesWhatExists:
    def test_every_cited_flag_is_one_its_script_takes(self, usage: dict[str, str]) -> None:
        commands = cited_commands()
        assert len(commands) > 30
        unknown = [
            (name, flag)
            for name, flags in commands
            if name not in NOT_COMMANDS
            for flag in flags
            if not re.search(rf"(?<![\w-]){flag}\b", usage.get(name, ""))
        ]
        assert unknown == []

    def test_every_cited_script_exists(self) -> None:
        missing = {name for name, _ in cited_commands() if not (BENCH / f"{name}.py").exists()}
        assert missing == set()

    def test_every_cited_results_file_exists(self) -> None:
        cited = set(re.findall(r"bench/results/([\w.-]+\.json)", DOC.read_text()))
        assert cited
        assert {name for name in cited if not (BENCH / "results" / name).exists()} == set()
