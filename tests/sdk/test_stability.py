"""The Python SDK reads how stable a judge was (issue 27): each result's `stability` and
`fragile`, the summary's fragile count and pass^k, results filtered to the fragile ones, and a
comparison that sets them aside, against a live Loupe on both backends; `loupe-client evaluate
--wait` prints each metric's fragile count and pass^k."""

import asyncio
import json
from pathlib import Path

import pytest
from loupe_client import AsyncLoupe, Loupe, ValidationError

from tests.comparisons.fragile_helpers import (
    BASELINE_FRAGILE,
    CANDIDATE_FRAGILE,
    CASES,
    METRIC,
    SAMPLES,
    SPEC,
    Disagreeing,
    both_sides,
)
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.sdk.test_cli import loupe_client

NO_PROXY = {"trust_env": False}


class TestStability:
    def test_results_summary_filter_and_comparison(self, api: Api, judge: ScriptedJudge) -> None:
        key = api.new_key()
        baseline, candidate = both_sides(api, api.client(key), judge)
        with Loupe(api.base_url, key, httpx_args=NO_PROXY) as client:
            summary = client.evaluations.get(candidate).per_metric[0]
            assert summary.metric == METRIC
            assert summary.stability.samples == SAMPLES
            assert summary.stability.fragile == len(CANDIDATE_FRAGILE)
            assert summary.stability.pass_hat_k == (CASES - len(CANDIDATE_FRAGILE)) / CASES
            assert summary.stability.agreement is None

            shaky = list(client.evaluations.results(candidate, metric=METRIC, fragile=True))
            assert {row.test_case_id for row in shaky} == CANDIDATE_FRAGILE
            for row in shaky:
                assert row.fragile is True and row.stability.fragile is True
                assert sorted(row.stability.scores) == [0.2, 0.8, 0.9]
                assert [j.sample for j in row.stability.judgments] == [0, 1, 2]
                assert all(j.reason.startswith("sample ") for j in row.stability.judgments)
            steady = list(client.evaluations.results(candidate, metric=METRIC, fragile=False))
            assert len(steady) == CASES - len(CANDIDATE_FRAGILE)
            assert all(row.fragile is False for row in steady)
            # A metric judged once has neither.
            once = next(iter(client.evaluations.results(candidate, metric="exact_match")))
            assert once.fragile is None and once.stability is None

            comparison = client.comparisons.create(baseline, candidate, fragile="exclude")
            assert comparison.fragile == "exclude"
            judged = next(m for m in comparison.metrics if m.metric == METRIC)
            assert judged.fragile.baseline == len(BASELINE_FRAGILE)
            assert judged.fragile.candidate == len(CANDIDATE_FRAGILE)
            assert judged.fragile.set_aside == len(BASELINE_FRAGILE | CANDIDATE_FRAGILE)
            assert client.comparisons.create(baseline, candidate).fragile == "include"

        async def fragile_ids() -> set[str]:
            async with AsyncLoupe(api.base_url, key, httpx_args=NO_PROXY) as client:
                return {
                    row.test_case_id
                    async for row in client.evaluations.results(candidate, fragile=True)
                }

        assert asyncio.run(fragile_ids()) == CANDIDATE_FRAGILE

    def test_an_unknown_fragile_choice_raises_naming_the_field(self, api: Api) -> None:
        client = Loupe(api.base_url, api.new_key(), httpx_args=NO_PROXY)
        with client, pytest.raises(ValidationError) as raised:
            client.comparisons.create("evn_a", "evn_b", fragile="maybe")
        assert [error["loc"] for error in raised.value.errors] == ["fragile"]


class TestEvaluateCommand:
    def test_wait_prints_fragile_items_and_pass_hat_k(
        self, api: Api, judge: ScriptedJudge, tmp_path: Path
    ) -> None:
        judge.script(Disagreeing())
        cases = tmp_path / "cases.jsonl"
        cases.write_text(
            "\n".join(
                json.dumps(
                    {
                        "id": f"c{index}",
                        "input": f"question {index}",
                        "actual_output": f"answer candidate c{index}",
                        "expected_output": f"answer candidate c{index}",
                    }
                )
                for index in range(CASES)
            )
        )
        ran = loupe_client(
            api,
            api.new_key(),
            "evaluate",
            str(cases),
            "--metric",
            json.dumps(SPEC),
            "--metric",
            '{"type": "exact_match"}',
            "--wait",
            queue=True,
        )
        assert ran.returncode == 0, ran.stdout + ran.stderr
        lines = {line.split(":")[0].strip(): line for line in ran.stdout.splitlines()[2:]}
        steady = (CASES - len(CANDIDATE_FRAGILE)) / CASES
        assert lines[METRIC].endswith(
            f"; {len(CANDIDATE_FRAGILE)} fragile, pass^{SAMPLES} {steady:.0%}"
        )
        assert "fragile" not in lines["exact_match"]
