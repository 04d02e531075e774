"""`loupe compare` as a CI step runs it: a subprocess against the served API, on both backends."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.comparisons.helpers import PLANTED, evaluation, quiz_dataset, run
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

BIN = Path(sys.executable).parent


def gate(
    api: Api, key: str, *args: str, command: str = "loupe"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_URL": api.base_url, "LOUPE_API_KEY": key}
    return subprocess.run(
        [str(BIN / command), "compare", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


class TestCompareGate:
    def test_exits_non_zero_on_a_planted_regression_only(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        good = evaluation(api, client, set())
        bad = evaluation(api, client, set(PLANTED))

        failed = gate(api, key, good, bad, "--fail-on", "regressed")
        assert failed.returncode == 1, failed.stderr
        lines = failed.stdout.splitlines()
        assert lines[0].split()[:2] == ["metric", "baseline"]
        exact = next(line for line in lines if line.startswith("exact_match"))
        assert "1.000 → 0.600" in exact and "-0.400 [" in exact and "REGRESSED" in exact
        assert "FAIL: regressed: exact_match, bleu" in failed.stdout

        passed = gate(api, key, bad, good)
        assert passed.returncode == 0, passed.stdout + passed.stderr
        assert "improved" in passed.stdout and "OK" in passed.stdout

        # --metric narrows the gate: a metric that did not move passes even when others fell.
        nearly = evaluation(api, client, {0})
        only = gate(api, key, good, nearly, "--metric", "exact_match")
        assert only.returncode == 0, only.stdout
        assert "bleu" not in only.stdout and "no detectable change" in only.stdout

    def test_runs_and_refusals(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        dataset = quiz_dataset(client)
        baseline = run(api, client, dataset, set())
        candidate = run(api, client, dataset, set(range(6)))
        assert gate(api, key, baseline, candidate).returncode == 1
        assert gate(api, key, candidate, baseline).returncode == 0
        # A comparison that cannot be made is neither a pass nor a regression.
        missing = gate(api, key, baseline, "run_nope")
        assert missing.returncode == 2 and "candidate_id" in missing.stderr
        stranger = gate(api, api.new_key(), baseline, candidate)
        assert stranger.returncode == 2 and "404" in stranger.stderr


def judged(api: Api, client, refused: set[int]) -> str:  # type: ignore[no-untyped-def]
    """A completed evaluation of six cases by a g_eval metric named `acc`; the judge refuses
    (so the result errors) the cases in `refused`."""
    metric = {
        "type": "g_eval",
        "name": "acc",
        "evaluation_steps": ["Check the answer."],
        "evaluation_params": ["input", "actual_output"],
    }
    cases = [
        {
            "id": f"c{index}",
            "input": f"question {index}" + (" [refused]" if index in refused else ""),
            "actual_output": f"answer {index}",
        }
        for index in range(6)
    ]
    response = client.post(
        "/v1/evaluations", json={"test_cases": cases, "metrics": [metric], "cache": False}
    )
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])["id"]


class TestErroredItems:
    @staticmethod
    def refusing(judge: ScriptedJudge) -> None:
        def answer(request: dict):  # type: ignore[no-untyped-def]
            if "[refused]" in json.dumps(request):
                return Reply(status=400)
            return plausible_answer(request)

        judge.script(answer)

    def test_a_candidate_that_errored_everywhere_cannot_pass(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # It printed "acc (n=0) ... no detectable change", "OK" and exited 0.
        self.refusing(judge)
        key = api.new_key()
        client = api.client(key)
        baseline, broken = judged(api, client, set()), judged(api, client, set(range(6)))
        result = gate(api, key, baseline, broken, "--metric", "acc")
        assert result.returncode == 2, result.stdout + result.stderr
        row = next(line for line in result.stdout.splitlines() if line.startswith("acc"))
        assert "(n=0)" in row and "0 → 6 MORE" in row and "NOTHING TO COMPARE" in row
        assert "no detectable change" not in result.stdout and "OK" not in result.stdout
        assert "cannot be made for acc" in result.stderr
        assert "errored items: baseline 0, candidate 6" in result.stderr
        # Failing on errored items is a gate failure, which a known failure makes 1, not 2.
        # Both commands take it: `loupe compare` passes --fail-on through to the same gate.
        for command in ("loupe", "loupe-client"):
            strict = gate(api, key, baseline, broken, "--fail-on", "errored", command=command)
            assert strict.returncode == 1, command + strict.stdout + strict.stderr
            assert "FAIL: more errored items in the candidate: acc (0 → 6)" in strict.stdout
        # A verdict the gate does not know is refused before anything is fetched.
        unknown = gate(api, key, baseline, broken, "--fail-on", "slower")
        assert unknown.returncode == 2, unknown.stdout + unknown.stderr
        assert "--fail-on" in unknown.stderr and "'slower' is not one of regressed, errored" in (
            " ".join(unknown.stderr.split())
        )

    def test_more_errored_items_are_flagged_and_can_fail_the_gate(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        self.refusing(judge)
        key = api.new_key()
        client = api.client(key)
        baseline, flaky = judged(api, client, set()), judged(api, client, {0, 1})
        # The default stays: only a regression fails; the table and a warning show the errors.
        default = gate(api, key, baseline, flaky)
        assert default.returncode == 0, default.stdout + default.stderr
        row = next(line for line in default.stdout.splitlines() if line.startswith("acc"))
        assert "(n=4)" in row and "0 → 2 MORE" in row
        assert "WARNING: more errored items in the candidate: acc (0 → 2)" in default.stdout
        assert "OK: no compared metric regressed" in default.stdout
        both = gate(
            api,
            key,
            baseline,
            flaky,
            "--fail-on",
            "regressed",
            "--fail-on",
            "errored",
        )
        assert both.returncode == 1, both.stdout + both.stderr
        assert "FAIL: more errored items in the candidate: acc (0 → 2)" in both.stdout
        # Fewer errors on the candidate side are not flagged.
        reverse = gate(api, key, flaky, baseline, "--fail-on", "errored", command="loupe-client")
        assert reverse.returncode == 0, reverse.stdout + reverse.stderr
        assert "2 → 0" in reverse.stdout and "MORE" not in reverse.stdout
        assert "OK: no compared metric has more errored items" in reverse.stdout
