"""`loupe-client` as a CI step runs it: a subprocess against the served API, on both backends."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer
from tests.fixtures.services import free_port
from tests.sdk.conftest import SDK_PYTHON
from tests.sdk.helpers import RED, while_queue_runs

EXACT = '{"type": "exact_match", "threshold": 1}'


def loupe_client(
    api: Api | None, key: str | None, *args: str, queue: bool = False
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE_")}
    env["PYTHONPATH"] = str(SDK_PYTHON)
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1"
    if api is not None and key is not None:
        env |= {"LOUPE_URL": api.base_url, "LOUPE_API_KEY": key}

    def call() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "loupe_client", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    return while_queue_runs(api, call) if queue and api is not None else call()


def write_cases(path: Path, wrong: int, count: int = 20) -> Path:
    """`count` cases, the first `wrong` answered wrongly; the first asks about an image."""
    lines = [
        {
            "id": f"case-{i}",
            "input": ["What is shown?", {"image_url": RED}] if i == 0 else f"Repeat {i}.",
            "actual_output": "nope" if i < wrong else f"answer {i}",
            "expected_output": f"answer {i}",
        }
        for i in range(count)
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    return path


class TestEvaluate:
    def test_wait_and_gate_on_the_mean_score(self, api: Api, tmp_path: Path) -> None:
        key = api.new_key()
        good = loupe_client(
            api,
            key,
            "evaluate",
            str(write_cases(tmp_path / "good.jsonl", wrong=0)),
            "--metric",
            EXACT,
            "--wait",
            "--fail-below",
            "0.7",
            queue=True,
        )
        assert good.returncode == 0, good.stdout + good.stderr
        good_id, status, summary = good.stdout.splitlines()[:3]
        assert good_id.startswith("evn_")
        assert status == "completed: 20 passed, 0 failed, 0 errored of 20"
        # 20 of 20 exact: the mean's Wilson interval, named (a t interval had no width).
        assert summary.strip() == "exact_match: mean 1.000 [0.839, 1.000] wilson"

        bad = loupe_client(
            api,
            key,
            "evaluate",
            str(write_cases(tmp_path / "bad.jsonl", wrong=8)),
            "--metric",
            EXACT,
            "--wait",
            "--fail-below",
            "0.7",
            queue=True,
        )
        assert bad.returncode == 1, bad.stdout + bad.stderr
        assert "FAIL: below 0.7: exact_match" in bad.stdout
        bad_id = bad.stdout.splitlines()[0]

        exported = loupe_client(api, key, "results", bad_id, "--format", "csv")
        assert exported.returncode == 0, exported.stderr
        rows = list(csv.DictReader(io.StringIO(exported.stdout)))
        assert len(rows) == 20
        assert sorted(r["test_case_id"] for r in rows if r["score"] == "0.0") == sorted(
            f"case-{i}" for i in range(8)
        )

        regressed = loupe_client(api, key, "compare", good_id, bad_id)
        assert regressed.returncode == 1, regressed.stdout + regressed.stderr
        assert regressed.stdout.splitlines()[0].split()[:2] == ["metric", "baseline"]
        assert "REGRESSED" in regressed.stdout
        assert "FAIL: regressed: exact_match" in regressed.stdout
        improved = loupe_client(api, key, "compare", bad_id, good_id, "--metric", "exact_match")
        assert improved.returncode == 0, improved.stdout + improved.stderr
        assert "OK: no compared metric regressed" in improved.stdout

    def test_submit_without_waiting_prints_the_id(self, api: Api, tmp_path: Path) -> None:
        submitted = loupe_client(
            api,
            api.new_key(),
            "evaluate",
            str(write_cases(tmp_path / "c.jsonl", 0)),
            "--metric",
            EXACT,
        )
        assert submitted.returncode == 0, submitted.stderr
        assert submitted.stdout.strip().startswith("evn_")


G_EVAL = json.dumps(
    {
        "type": "g_eval",
        "name": "helpful",
        "evaluation_steps": ["Check the answer."],
        "evaluation_params": ["input", "actual_output"],
    }
)


def refused_cases(path: Path, refused: int, count: int = 10) -> Path:
    """`count` cases for G_EVAL; the judge refuses (the result errors) the first `refused`."""
    lines = [
        {
            "id": f"case-{i}",
            "input": f"{path.stem} question {i}" + (" [refused]" if i < refused else ""),
            "actual_output": f"answer {i}",
        }
        for i in range(count)
    ]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


class TestErroredResults:
    @pytest.fixture(autouse=True)
    def refusing(self, judge: ScriptedJudge) -> None:
        def answer(request: dict):  # type: ignore[no-untyped-def]
            if "[refused]" in json.dumps(request):
                return Reply(status=400)
            return plausible_answer(request)

        judge.script(answer)

    def test_every_result_errored_fails_the_wait(self, api: Api, tmp_path: Path) -> None:
        # It printed "completed: 0 passed, 0 failed, 10 errored of 10" and exited 0.
        key = api.new_key()
        cases = str(refused_cases(tmp_path / "down.jsonl", refused=10))
        down = loupe_client(api, key, "evaluate", cases, "--metric", G_EVAL, "--wait", queue=True)
        assert down.returncode == 1, down.stdout + down.stderr
        evaluation_id, status = down.stdout.splitlines()[:2]
        assert status == "completed with errors: 0 passed, 0 failed, 10 errored of 10"
        assert (
            "FAIL: 10 of 10 results errored (100%); --allow-errored SHARE allows some "
            "(0.1 = 10%)" in down.stdout
        )
        # The service says so plainly too.
        read = api.client(key).get(f"/v1/evaluations/{evaluation_id}").json()
        assert read["status"] == "completed" and read["completed_with_errors"] is True

    def test_allow_errored_lets_a_share_pass(self, api: Api, tmp_path: Path) -> None:
        key = api.new_key()
        cases = str(refused_cases(tmp_path / "flaky.jsonl", refused=1))
        strict = loupe_client(api, key, "evaluate", cases, "--metric", G_EVAL, "--wait", queue=True)
        assert strict.returncode == 1, strict.stdout + strict.stderr
        assert "FAIL: 1 of 10 results errored (10%)" in strict.stdout
        allowed = loupe_client(
            api,
            key,
            "evaluate",
            str(refused_cases(tmp_path / "flaky2.jsonl", refused=1)),
            "--metric",
            G_EVAL,
            "--wait",
            "--allow-errored",
            "0.1",
            queue=True,
        )
        assert allowed.returncode == 0, allowed.stdout + allowed.stderr
        assert allowed.stdout.splitlines()[1].startswith("completed with errors: ")
        assert "FAIL" not in allowed.stdout
        short = loupe_client(
            api,
            key,
            "evaluate",
            str(refused_cases(tmp_path / "flaky3.jsonl", refused=1)),
            "--metric",
            G_EVAL,
            "--wait",
            "--allow-errored",
            "0.05",
            queue=True,
        )
        assert short.returncode == 1, short.stdout + short.stderr
        assert (
            "FAIL: 1 of 10 results errored (10%); --allow-errored 0.05 allows up to 5%"
            in short.stdout
        )
        clean = loupe_client(
            api,
            key,
            "evaluate",
            str(refused_cases(tmp_path / "clean.jsonl", refused=0)),
            "--metric",
            G_EVAL,
            "--wait",
            queue=True,
        )
        assert clean.returncode == 0, clean.stdout + clean.stderr
        assert clean.stdout.splitlines()[1] == "completed: 10 passed, 0 failed, 0 errored of 10"

    def test_a_metric_with_no_score_fails_whatever_share_is_allowed(
        self, api: Api, tmp_path: Path
    ) -> None:
        # Every `helpful` result errored, every exact_match one scored: 10 of 20 errored, which
        # --allow-errored 0.5 allows, so it printed "helpful: mean —" and exited 0 with one of
        # its two metrics never measured.
        key = api.new_key()
        path = tmp_path / "half.jsonl"
        lines = [
            {"input": f"half question {i} [refused]", "actual_output": "a", "expected_output": "a"}
            for i in range(10)
        ]
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
        result = loupe_client(
            api,
            key,
            "evaluate",
            str(path),
            "--metric",
            G_EVAL,
            "--metric",
            EXACT,
            "--wait",
            "--allow-errored",
            "0.5",
            queue=True,
        )
        assert result.returncode == 1, result.stdout + result.stderr
        assert "FAIL: 10 of 20 results errored" not in result.stdout
        assert (
            "FAIL: no scored result: helpful (10 errored): --allow-errored allows a share of "
            "errored results, not a metric never measured"
        ) in result.stdout
        assert "exact_match" not in result.stdout.split("FAIL")[1]


class TestCannot:
    @pytest.mark.parametrize(
        "args, message",
        [
            (["evaluate", "CASES", "--metric", "{not json"], "not JSON"),
            (["evaluate", "CASES", "--metric", EXACT, "--fail-below", "0.5"], "needs --wait"),
            (["evaluate", "CASES", "--metric", EXACT, "--allow-errored", "0.1"], "needs --wait"),
            (
                ["evaluate", "CASES", "--metric", EXACT, "--wait", "--allow-errored", "10"],
                "'10' is not a share from 0 to 1",
            ),
            # --fail-below nan never failed (no mean is below NaN); --allow-errored nan was
            # refused: every number the gate takes is refused when not finite.
            (
                ["evaluate", "CASES", "--metric", EXACT, "--wait", "--fail-below", "nan"],
                "'nan' is not a finite number",
            ),
            (
                ["evaluate", "CASES", "--metric", EXACT, "--wait", "--fail-below", "inf"],
                "'inf' is not a finite number",
            ),
            (
                ["evaluate", "CASES", "--metric", EXACT, "--wait", "--timeout", "nan"],
                "'nan' is not a finite number",
            ),
            (
                ["evaluate", "CASES", "--metric", EXACT, "--wait", "--allow-errored", "nan"],
                "'nan' is not a share from 0 to 1",
            ),
            # A traceback and exit 1 (which CI reads as "the gate failed").
            (
                ["evaluate", "CASES", "--metric", '{"type": "exact_match", "threshold": NaN}'],
                "threshold: NaN is not a JSON number",
            ),
            (["evaluate", "CASES", "--metric", '{"type": "no_such_metric"}'], "422"),
            (["results", "eval_missing"], "404"),
            (["compare", "eval_a", "eval_b"], "404"),
        ],
    )
    def test_exit_2_with_the_reason(
        self, api: Api, tmp_path: Path, args: list[str], message: str
    ) -> None:
        cases = str(write_cases(tmp_path / "cases.jsonl", 0))
        failed = loupe_client(api, api.new_key(), *[cases if a == "CASES" else a for a in args])
        assert failed.returncode == 2, failed.stdout + failed.stderr
        assert message in failed.stderr

    def test_a_file_that_is_not_utf8_names_its_line(self, api: Api, tmp_path: Path) -> None:
        # Was a UnicodeDecodeError traceback and exit 1, which CI reads as "the gate failed".
        cases = tmp_path / "latin1.jsonl"
        good = json.dumps({"input": "q", "actual_output": "a", "expected_output": "a"})
        cases.write_bytes(good.encode() + b'\n{"input": "caf\xe9"}\n')
        failed = loupe_client(api, api.new_key(), "evaluate", str(cases), "--metric", EXACT)
        assert failed.returncode == 2, failed.stdout + failed.stderr
        assert f"{cases}:2: not UTF-8 text (byte 0xe9 at column 15)" in failed.stderr
        assert "Traceback" not in failed.stderr and failed.stdout == ""

    def test_numbers_json_cannot_carry_name_their_line_and_field(
        self, api: Api, tmp_path: Path
    ) -> None:
        # Python's json reads NaN, Infinity and 1e400 (as Infinity); sending them was a
        # ValueError traceback and exit 1, which CI reads as "the gate failed".
        key = api.new_key()
        good = json.dumps({"input": "q", "actual_output": "a", "expected_output": "a"})
        for literal, said in (("NaN", "NaN"), ("1e400", "Infinity"), ("-Infinity", "-Infinity")):
            cases = tmp_path / "cases.jsonl"
            bad = good[:-1] + f', "metadata": {{"n": {literal}}}}}'
            cases.write_text(f"{good}\n\n{bad}\n")
            failed = loupe_client(api, key, "evaluate", str(cases), "--metric", EXACT)
            assert failed.returncode == 2, failed.stdout + failed.stderr
            assert failed.stderr.startswith(
                f"loupe-client evaluate: {cases}:3: metadata.n: {said} is not a JSON number"
            ), failed.stderr
            assert "Traceback" not in failed.stderr and failed.stdout == ""
        # In batches, the first line is read before the open evaluation is made.
        cases.write_text(f"{bad}\n{good}\n")
        batched = loupe_client(
            api, key, "evaluate", str(cases), "--metric", EXACT, "--batch-size", "1"
        )
        assert batched.returncode == 2, batched.stdout + batched.stderr
        assert f"{cases}:1: metadata.n: -Infinity is not a JSON number" in batched.stderr
        assert batched.stdout == ""
        assert api.client(key).get("/v1/evaluations").json()["data"] == []

    def test_an_unreachable_service_is_named_but_not_the_key(self, tmp_path: Path) -> None:
        url = f"http://127.0.0.1:{free_port()}"
        cases = str(write_cases(tmp_path / "cases.jsonl", 0, count=1))
        for args in (["evaluate", cases, "--metric", EXACT], ["results", "eval_x"]):
            failed = loupe_client(
                None, None, "--url", f"{url}/", "--api-key", "lp_secret_key", *args
            )
            assert failed.returncode == 2, failed.stdout + failed.stderr
            assert f"loupe-client {args[0]}: cannot reach Loupe at {url}/: " in failed.stderr
            assert "lp_secret_key" not in failed.stderr + failed.stdout

    def test_user_info_in_the_url_is_not_repeated(self) -> None:
        from loupe_client._cli import _where

        assert _where("https://ci:hunter2@loupe.example:8443/base/?k=1") == (
            "https://loupe.example:8443/base/"
        )

    def test_wrong_key_and_no_settings(self, api: Api) -> None:
        denied = loupe_client(api, "lp_wrong", "results", "eval_x")
        assert denied.returncode == 2 and "401" in denied.stderr
        unset = loupe_client(None, None, "results", "eval_x")
        assert unset.returncode == 2 and "LOUPE_URL" in unset.stderr


class TestErrorMessages:
    def test_each_problem_is_said_once(self, api: Api, tmp_path: Path) -> None:
        # A 422 printed its list twice (the detail, then the same errors in parentheses), and a
        # 404 said "no evaluation or run 'nope'. (candidate_id: no such evaluation or run)".
        key = api.new_key()
        cases = str(write_cases(tmp_path / "cases.jsonl", 0, count=2))
        bad = ["--metric", '{"type": "no_such_metric"}', "--metric", '{"type": "bleu", "n": 9}']
        refused = loupe_client(api, key, "evaluate", cases, *bad)
        assert refused.returncode == 2, refused.stdout + refused.stderr
        lines = refused.stderr.splitlines()
        assert lines[0] == f"loupe-client evaluate: 422 Invalid request: {len(lines) - 1} problems:"
        assert len(lines) >= 3 and all(line.startswith("  metrics[") for line in lines[1:])
        assert len(set(lines)) == len(lines)
        assert any(line.startswith("  metrics[0]") for line in lines[1:])
        assert any(line.startswith("  metrics[1].n:") for line in lines[1:])

        client = api.client(key)
        done = client.post(
            "/v1/evaluations",
            json={
                "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                "metrics": [{"type": "exact_match"}],
            },
        )
        assert done.status_code == 202, done.text
        baseline = api.wait(client, done.json()["id"])["id"]
        missing = loupe_client(api, key, "compare", baseline, "nope")
        assert missing.returncode == 2, missing.stdout + missing.stderr
        assert missing.stderr == (
            "loupe-client compare: 404 Not Found: candidate_id: no evaluation or run 'nope'.\n"
        )
        both = loupe_client(api, key, "compare", "gone", "nope")
        assert both.stderr == (
            "loupe-client compare: 404 Not Found: 2 problems:\n"
            "  baseline_id: no such evaluation or run\n"
            "  candidate_id: no such evaluation or run\n"
        )
