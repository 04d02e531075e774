"""The TypeScript client (sdk/typescript) reads each result's `stability` and `fragile`, the
summary's fragile count and pass^k, lists the fragile results and compares with fragile items
set aside, built with tsc and run under Node against a live Loupe with a judge that disagrees
with itself (sdk/typescript/test/stability.test.ts)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.comparisons.fragile_helpers import (
    BASELINE_FRAGILE,
    CANDIDATE_FRAGILE,
    METRIC,
    SAMPLES,
    both_sides,
)
from tests.fixtures.api import side_app
from tests.fixtures.judge import ScriptedJudge
from tests.sdk.conftest import TYPESCRIPT


class TestTypeScriptStability:
    def test_node_reads_stability_and_sets_fragile_items_aside(
        self, built: Path, judge: ScriptedJudge, tmp_path_factory: pytest.TempPathFactory
    ) -> None:
        directory = tmp_path_factory.mktemp("ts-stability")
        with side_app(directory, judge_base_url=judge.base_url) as app:
            key = app.new_key()
            baseline, candidate = both_sides(app, app.client(key), judge)
            expected = {
                "metric": METRIC,
                "samples": SAMPLES,
                "baseline_fragile": sorted(BASELINE_FRAGILE),
                "candidate_fragile": sorted(CANDIDATE_FRAGILE),
                "set_aside": len(BASELINE_FRAGILE | CANDIDATE_FRAGILE),
            }
            env = {
                **os.environ,
                "LOUPE_URL": app.base_url,
                "LOUPE_API_KEY": key,
                "BASELINE_ID": baseline,
                "CANDIDATE_ID": candidate,
                "EXPECTED": json.dumps(expected),
            }
            ran = subprocess.run(
                ["node", "--test", str(built.parent / "stability.test.js")],
                cwd=TYPESCRIPT,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
            )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "# pass 2" in ran.stdout and "# fail 0" in ran.stdout, ran.stdout
