"""The SDK READMEs' complete examples, run as written against a live Loupe (only the server's
URL and the key swapped for the test's: the image is inline, as a reader runs it), and the
comparisons page's `loupe-client compare` example and CI job (docs/comparisons.md)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.sdk.conftest import SDK_PYTHON, TYPESCRIPT
from tests.sdk.helpers import while_queue_runs


def first_block(readme: Path, language: str) -> str:
    return re.search(rf"```{language}\n(.*?)```", readme.read_text(), re.S).group(1)


class TestPythonReadme:
    def test_the_complete_example_runs(
        self, api: Api, judge: ScriptedJudge, capsys: pytest.CaptureFixture[str]
    ) -> None:
        judge.script(plausible_answer)
        source = first_block(SDK_PYTHON / "README.md", "python")
        # Its image was https://example.com/logo.png, which no reader's Loupe could fetch
        # as an image (422): the test swapped it for its own.
        assert '"lp_..."' in source and "example.com" not in source
        source = source.replace("http://127.0.0.1:8000", api.base_url).replace(
            '"lp_..."', repr(api.new_key())
        )
        while_queue_runs(api, lambda: exec(compile(source, "README.md", "exec"), {}))
        printed = capsys.readouterr().out.splitlines()
        assert printed[0] == "completed 4 of 4 passed"
        assert printed[-1].startswith("404 Not Found ")


class TestTypeScriptReadme:
    def test_the_example_runs_under_node(
        self, built: Path, api: Api, judge: ScriptedJudge, tmp_path: Path
    ) -> None:
        judge.script(plausible_answer)
        source = first_block(TYPESCRIPT / "README.md", "ts")
        assert "example.com" not in source
        # A relative import, so that tsc finds the built declarations beside it.
        index = os.path.relpath(TYPESCRIPT / "dist" / "src" / "index.js", tmp_path)
        index = index if index.startswith(".") else f"./{index}"
        source = source.replace("http://127.0.0.1:8000", api.base_url).replace(
            'from "@loupe/client"', f'from "{index}"'
        )
        example = tmp_path / "example.mts"
        example.write_text(source)
        # Checked by the compiler as a user's code would be, then run as an ES module.
        tsc = TYPESCRIPT / "node_modules" / ".bin" / "tsc"
        options = ["--target", "ES2022", "--module", "NodeNext", "--strict", "--skipLibCheck"]
        types = ["--types", "node", "--typeRoots", str(TYPESCRIPT / "node_modules" / "@types")]
        compiled = subprocess.run(
            [str(tsc), *options, *types, "--outDir", str(tmp_path), str(example)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert compiled.returncode == 0, compiled.stdout + compiled.stderr
        module = tmp_path / "example.mjs"
        env = {**os.environ, "LOUPE_API_KEY": api.new_key()}
        ran = while_queue_runs(
            api,
            lambda: subprocess.run(
                ["node", str(module)], capture_output=True, text=True, env=env, timeout=300
            ),
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert ran.stdout.startswith("completed ")
        assert ran.stdout.splitlines()[-1].startswith("404 Not Found ")


# The comparisons page of the docs site (the README's example until the README was slimmed).
COMPARISONS = SDK_PYTHON.parents[1] / "docs" / "comparisons.md"


def compare_example() -> tuple[str, list[str]]:
    """The docs' `loupe-client compare` step (its arguments) and the output it shows."""
    text = COMPARISONS.read_text()
    command = re.search(r"run: (loupe-client compare .*)\n", text)
    shown = re.search(r"```\n(metric +baseline → candidate.*?)```", text, re.S)
    assert command and shown, "the comparisons page's compare example moved"
    return command.group(1), shown.group(1).splitlines()


class TestCompareReadme:
    def test_the_gate_prints_what_the_readme_shows(self, api: Api) -> None:
        # The README's table lacked the interval's method the CLI prints beside it.
        from tests.comparisons.helpers import PLANTED, evaluation
        from tests.sdk.test_cli import loupe_client

        command, shown = compare_example()
        key = api.new_key()
        client = api.client(key)
        baseline = evaluation(api, client, set())
        candidate = evaluation(api, client, set(PLANTED))
        args = command.split()[2:]
        args = [
            {'"$BASELINE_EVAL_ID"': baseline, '"$CANDIDATE_EVAL_ID"': candidate}.get(arg, arg)
            for arg in args
        ]
        gated = loupe_client(api, key, "compare", *args)
        assert gated.returncode == 1, gated.stdout + gated.stderr
        printed = re.sub(r"comparison cmp_\w+", "comparison cmp_...", gated.stdout + gated.stderr)
        assert printed.splitlines() == shown, printed


# The shell GitHub Actions runs a step's `run:` with, by the step's (or the job's default)
# `shell` (docs.github.com, "jobs.<job_id>.steps[*].shell"): none means `bash -e`.
GITHUB_SHELLS = {
    None: ["bash", "-e"],
    "bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail"],
    "sh": ["sh", "-e"],
}


def ci_job() -> dict:
    """The comparisons page's CI job (`A CI job with loupe-client`), parsed."""
    text = COMPARISONS.read_text()
    block = re.search(r"```yaml\n(# \.github/workflows/eval\.yml\njobs:.*?)```", text, re.S)
    assert block, "the comparisons page's CI job moved"
    return yaml.safe_load(block.group(1))["jobs"]["evaluate"]


def judged_step(job: dict) -> tuple[list[str], str]:
    """The job's `loupe-client evaluate` step: the shell GitHub runs it with, and its script."""
    step = next(step for step in job["steps"] if "loupe-client evaluate" in step.get("run", ""))
    shell = step.get("shell", job.get("defaults", {}).get("run", {}).get("shell"))
    return GITHUB_SHELLS[shell], step["run"]


class TestCiJobExample:
    """The documented CI job's evaluate step, run as GitHub Actions would run it."""

    def run_step(self, api: Api, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
        shell, script = judged_step(ci_job())
        (tmp_path / "eval").mkdir()
        cases = [
            {"id": f"q{i}", "input": f"{i}+{i}?", "actual_output": str(2 * i)} for i in range(3)
        ]
        for case in cases:
            case["expected_output"] = case["actual_output"]
        (tmp_path / "eval" / "cases.jsonl").write_text(
            "".join(json.dumps(case) + "\n" for case in cases)
        )
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        wrapper = bin_dir / "loupe-client"
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m loupe_client "$@"\n')
        wrapper.chmod(0o755)
        github_env = tmp_path / "github_env"
        github_env.touch()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
        env |= {
            "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}",
            "PYTHONPATH": str(SDK_PYTHON),
            "NO_PROXY": "127.0.0.1",
            "no_proxy": "127.0.0.1",
            "LOUPE_URL": api.base_url,
            "LOUPE_API_KEY": api.new_key(),
            "GITHUB_ENV": str(github_env),
        }
        (tmp_path / "step.sh").write_text(script.replace("${{ github.sha }}", "0123abc"))
        ran = while_queue_runs(
            api,
            lambda: subprocess.run(
                [*shell, str(tmp_path / "step.sh")],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
            ),
        )
        return ran, github_env

    def test_the_step_passes_when_the_gate_passes(
        self, api: Api, judge: ScriptedJudge, tmp_path: Path
    ) -> None:
        judge.script(plausible_answer)
        ran, github_env = self.run_step(api, tmp_path)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert re.fullmatch(r"CANDIDATE=evn_\w+\n", github_env.read_text())

    def test_the_step_fails_when_the_gate_fails(
        self, api: Api, judge: ScriptedJudge, tmp_path: Path
    ) -> None:
        # A helpfulness of 0.2 is below the step's --fail-below 0.7: the gate prints FAIL and
        # exits 1, which `| tee` must not swallow.
        def low_helpfulness(request: dict) -> Reply | dict:
            if task_of(request) == "g_eval_score":
                return {"reason": "It does not help.", "score": 2}
            return plausible_answer(request)

        judge.script(low_helpfulness)
        ran, _ = self.run_step(api, tmp_path)
        assert "FAIL: below 0.7: helpfulness" in ran.stdout, ran.stdout + ran.stderr
        assert ran.returncode != 0, ran.stdout + ran.stderr
