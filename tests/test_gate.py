"""`loupe compare` as a CI step runs it: a subprocess against the served API, on both backends."""

import os
import subprocess
import sys
from pathlib import Path

from tests.comparisons.helpers import PLANTED, evaluation, quiz_dataset, run
from tests.fixtures.api import Api

BIN = Path(sys.executable).parent


def gate(api: Api, key: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LOUPE_URL": api.base_url, "LOUPE_API_KEY": key}
    return subprocess.run(
        [str(BIN / "loupe"), "compare", *args],
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
