"""`loupe compare` as a CI step runs it: a subprocess against the served API, on both backends."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.comparisons.helpers import PLANTED, compare, evaluation, outcomes, quiz_dataset, run
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[1]
# This checkout's app and gate, not those of the checkout the environment was installed from.
CHECKOUT = os.pathsep.join(str(path) for path in (ROOT, ROOT / "sdk" / "python"))


def gate(
    api: Api, key: str, *args: str, command: str = "loupe"
) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, (CHECKOUT, os.environ.get("PYTHONPATH"))))
    env = {**os.environ, "LOUPE_URL": api.base_url, "LOUPE_API_KEY": key, "PYTHONPATH": path}
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
    """A completed evaluation of twelve cases (enough pairs for an interval) by a g_eval metric
    named `acc`; the judge refuses (so the result errors) the cases in `refused`."""
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
        for index in range(12)
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
        baseline, broken = judged(api, client, set()), judged(api, client, set(range(12)))
        result = gate(api, key, baseline, broken, "--metric", "acc")
        assert result.returncode == 2, result.stdout + result.stderr
        row = next(line for line in result.stdout.splitlines() if line.startswith("acc"))
        assert "(n=0)" in row and "0 → 12 MORE" in row and "NOTHING TO COMPARE" in row
        assert "no detectable change" not in result.stdout and "OK" not in result.stdout
        assert "cannot be made for acc" in result.stderr
        assert "errored items: baseline 0, candidate 12" in result.stderr
        # Failing on errored items is a gate failure, which a known failure makes 1, not 2.
        # Both commands take it: `loupe compare` passes --fail-on through to the same gate.
        for command in ("loupe", "loupe-client"):
            strict = gate(api, key, baseline, broken, "--fail-on", "errored", command=command)
            assert strict.returncode == 1, command + strict.stdout + strict.stderr
            assert "FAIL: more errored items in the candidate: acc (0 → 12)" in strict.stdout
        # A verdict the gate does not know is refused before anything is fetched.
        unknown = gate(api, key, baseline, broken, "--fail-on", "slower")
        assert unknown.returncode == 2, unknown.stdout + unknown.stderr
        assert (
            "--fail-on" in unknown.stderr
            and "'slower' is not one of regressed, errored, fragile"
            # Unwrapped from the box typer draws around it.
            in (" ".join(unknown.stderr.replace("│", " ").split()))
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
        assert "(n=10)" in row and "0 → 2 MORE" in row
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


class TestCannotDecide:
    def test_sides_that_share_no_metric_cannot_pass(self, api: Api) -> None:
        # It printed an empty table, "OK: no compared metric regressed" and exited 0.
        key = api.new_key()
        client = api.client(key)
        exact = outcomes(api, client, [True, True])
        bleu = outcomes(api, client, [True, False, True], [{"type": "bleu"}])
        for command in ("loupe", "loupe-client"):
            result = gate(api, key, exact, bleu, command=command)
            assert result.returncode == 2, command + result.stdout + result.stderr
            assert "OK" not in result.stdout
            # No table header over no row.
            assert "metric" not in result.stdout and "---" not in result.stdout, result.stdout
            assert (
                "CANNOT: nothing was compared: the two sides share no metric (same name and "
                "type); on one side only: exact_match, bleu"
            ) in result.stderr
        # Same names of other types: still nothing compared, and the reason says so.
        typed = outcomes(api, client, [True, True], [{"type": "bleu", "name": "exact_match"}])
        other = gate(api, key, exact, typed)
        assert other.returncode == 2, other.stdout + other.stderr
        assert "of another type on each side: exact_match" in other.stderr

    def test_a_metric_with_one_pair_cannot_decide(self, api: Api) -> None:
        # At n = 1 no interval can be made; it passed with "no detectable change".
        key = api.new_key()
        client = api.client(key)
        right, wrong = outcomes(api, client, [True]), outcomes(api, client, [False])
        result = gate(api, key, right, wrong)
        assert result.returncode == 2, result.stdout + result.stderr
        row = next(line for line in result.stdout.splitlines() if line.startswith("exact_match"))
        assert "(n=1)" in row and "CANNOT DECIDE" in row
        assert "OK" not in result.stdout
        assert (
            "CANNOT: the gate cannot decide on exact_match (n=1): no 95% interval of the "
            "difference can be made from 1 pair"
        ) in result.stderr
        # Once a metric fails the gate, the gate has decided: 1. (Twelve pairs that all lose:
        # three could not tell, the exact sign-flip p of three equal differences being 0.25.)
        two = outcomes(api, client, [True] * 12, [{"type": "exact_match", "name": "x"}])
        failed = outcomes(api, client, [False] * 12, [{"type": "exact_match", "name": "x"}])
        assert gate(api, key, two, failed).returncode == 1


def g_eval(api: Api, client, criteria: str) -> str:  # type: ignore[no-untyped-def]
    """A completed evaluation of twelve cases by a g_eval metric `helpful` with `criteria`."""
    metric = {
        "type": "g_eval",
        "name": "helpful",
        "criteria": criteria,
        "evaluation_params": ["input", "actual_output"],
    }
    cases = [{"id": f"c{i}", "input": f"q {i}", "actual_output": f"a {i}"} for i in range(12)]
    response = client.post("/v1/evaluations", json={"test_cases": cases, "metrics": [metric]})
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])["id"]


class TestSettingsDiffer:
    def test_g_evals_with_other_criteria_do_not_pass_unless_accepted(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # It printed "OK" and exited 0 while the API noted that the criteria differ.
        judge.script(plausible_answer)
        key = api.new_key()
        client = api.client(key)
        polite, terse = g_eval(api, client, "Is it polite?"), g_eval(api, client, "Is it short?")
        compared = compare(client, polite, terse)
        assert compared.status_code == 200, compared.text
        (row,) = compared.json()["metrics"]
        assert row["settings_differ"] == ["criteria"]

        for command in ("loupe", "loupe-client"):
            result = gate(api, key, polite, terse, command=command)
            assert result.returncode == 2, command + result.stdout + result.stderr
            assert "OK" not in result.stdout
            # Every note the API gives is printed.
            for note in row["notes"]:
                assert f"note: helpful: {note}" in result.stdout
            assert "the metric's settings differ (criteria)" in result.stdout
            assert (
                "CANNOT: the metric's settings differ, so the scores may not measure the same "
                "thing: helpful (criteria) (--accept-settings-change accepts this)"
            ) in result.stderr

            accepted = gate(api, key, polite, terse, "--accept-settings-change", command=command)
            assert accepted.returncode == 0, command + accepted.stdout + accepted.stderr
            assert (
                "WARNING: the metric's settings differ (accepted by --accept-settings-change): "
                "helpful (criteria)"
            ) in accepted.stdout
            assert "OK: no compared metric regressed" in accepted.stdout

        # The same settings: nothing to accept, the gate decides.
        again = g_eval(api, client, "Is it polite?")
        same = gate(api, key, polite, again)
        assert same.returncode == 0, same.stdout + same.stderr
        assert "settings differ" not in same.stdout + same.stderr
