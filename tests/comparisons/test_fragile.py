"""Fragile items (judgments straddling the threshold) in comparisons: counted per side either
way, set aside from the paired comparison on request, and seen by the CI gate, through the HTTP
API and the `loupe compare` / `loupe-client compare` commands against a judge that disagrees
with itself."""

import httpx

from tests.comparisons.fragile_helpers import (
    BASELINE,
    BASELINE_FRAGILE,
    CANDIDATE_FRAGILE,
    CASES,
    METRIC,
    STEADY,
    Disagreeing,
    both_sides,
    judged,
)
from tests.comparisons.helpers import compare
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.test_gate import gate


def created(response: httpx.Response) -> dict:
    assert response.status_code == 200, response.text
    return response.json()


def by_metric(comparison: dict) -> dict[str, dict]:
    return {row["metric"]: row for row in comparison["metrics"]}


def moved_ids(client: httpx.Client, comparison_id: str) -> set[str]:
    page = client.get(
        f"/v1/comparisons/{comparison_id}/items", params={"metric": METRIC, "limit": 1000}
    )
    assert page.status_code == 200, page.text
    return {item["test_case_id"] for item in page.json()["data"]}


class TestComparison:
    def test_fragile_items_are_counted_and_set_aside_on_request(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        with api.tenant_client() as client:
            baseline, candidate = both_sides(api, client, judge)
            included = created(compare(client, baseline, candidate))
            excluded = created(compare(client, baseline, candidate, fragile="exclude"))
            stored = created(client.get(f"/v1/comparisons/{excluded['id']}"))
            included_moved = moved_ids(client, included["id"])
            excluded_moved = moved_ids(client, excluded["id"])

        assert included["fragile"] == "include" and excluded["fragile"] == "exclude"
        both = len(BASELINE_FRAGILE | CANDIDATE_FRAGILE)
        judged = by_metric(included)[METRIC]
        assert judged["fragile"] == {
            "baseline": len(BASELINE_FRAGILE),
            "candidate": len(CANDIDATE_FRAGILE),
            "set_aside": 0,
            "candidate_unmatched": 0,
        }
        assert judged["n"] == CASES
        assert any("fragile items" in note and "exclude" in note for note in judged["notes"])

        judged = by_metric(excluded)[METRIC]
        assert judged["fragile"] == {
            "baseline": len(BASELINE_FRAGILE),
            "candidate": len(CANDIDATE_FRAGILE),
            "set_aside": both,
            "candidate_unmatched": 0,
        }
        assert judged["n"] == CASES - both
        assert any(f"{both} matched items fragile" in note for note in judged["notes"])
        # Fragile items moved (c0 6 → 8, c1 7 → 8 on the candidate's median, c15 7 → 9 from
        # the baseline's); set aside, only the steady move (c5, 7 → 9) is left, in the figures
        # and among the items that moved.
        assert by_metric(included)[METRIC]["mean_difference"] > judged["mean_difference"] > 0
        assert included_moved == {"c0", "c1", "c15", "c5"}
        assert excluded_moved == {"c5"}
        # A metric judged once has no fragile item, and nothing is set aside from it.
        for comparison in (included, excluded):
            exact = by_metric(comparison)["exact_match"]
            assert exact["fragile"] == {
                "baseline": 0,
                "candidate": 0,
                "set_aside": 0,
                "candidate_unmatched": 0,
            }
            assert exact["n"] == CASES
            assert not any("fragile" in note for note in exact["notes"])
        assert stored["fragile"] == "exclude"
        assert by_metric(stored)[METRIC]["fragile"]["set_aside"] == both

    def test_an_unknown_choice_is_a_problem_naming_the_field(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        with api.tenant_client() as client:
            response = compare(client, "eval_a", "eval_b", fragile="drop")
        assert response.status_code == 422, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert [error["loc"] for error in response.json()["errors"]] == ["fragile"]


class TestGate:
    def test_fail_on_fragile_and_exclude_fragile(self, api: Api, judge: ScriptedJudge) -> None:
        key = api.new_key()
        client = api.client(key)
        baseline, candidate = both_sides(api, client, judge)
        shaky = f"{METRIC} ({len(CANDIDATE_FRAGILE)})"

        # By default fragile items only warn; the table counts them per side.
        default = gate(api, key, baseline, candidate, "--metric", METRIC)
        assert default.returncode == 0, default.stdout + default.stderr
        header, _, row = default.stdout.splitlines()[:3]
        assert "fragile" in header.split()
        assert f"{len(BASELINE_FRAGILE)} → {len(CANDIDATE_FRAGILE)}" in row
        assert f"WARNING: fragile items in the candidate: {shaky}" in default.stdout
        assert "--fail-on fragile" in default.stdout

        # --fail-on fragile fails the gate, from both commands, set aside or not.
        for command in ("loupe", "loupe-client"):
            for extra in ((), ("--exclude-fragile",)):
                failed = gate(
                    api, key, baseline, candidate, "--fail-on", "fragile", *extra, command=command
                )
                assert failed.returncode == 1, command + failed.stdout + failed.stderr
                assert f"FAIL: fragile items in the candidate: {shaky}" in failed.stdout

        # --exclude-fragile sets them aside and says so; the comparison is still decided.
        both = len(BASELINE_FRAGILE | CANDIDATE_FRAGILE)
        aside = gate(api, key, baseline, candidate, "--exclude-fragile", command="loupe")
        assert aside.returncode == 0, aside.stdout + aside.stderr
        row = next(line for line in aside.stdout.splitlines() if line.startswith(METRIC))
        assert f"(n={CASES - both})" in row and f"({both} set aside)" in row
        assert "fragile items set aside)" in aside.stdout

        # A metric judged once shows no fragile column, and the gate never mentions them.
        plain = gate(api, key, baseline, candidate, "--metric", "exact_match")
        assert plain.returncode == 0, plain.stdout + plain.stderr
        assert "fragile" not in plain.stdout

        unknown = gate(api, key, baseline, candidate, "--fail-on", "slower")
        assert unknown.returncode == 2
        # Unwrapped from the box typer draws around it.
        assert "regressed, errored, fragile" in " ".join(unknown.stderr.replace("│", " ").split())

    def test_a_fragile_item_the_baseline_lacks_fails_the_gate_too(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # The candidate adds c16, fragile; every item both sides share is steady on the
        # candidate. "The candidate has fragile items" must not pass for being new.
        judge.script(Disagreeing({"baseline": BASELINE, "grown": {**STEADY, "c16": [2, 8, 9]}}))
        key = api.new_key()
        client = api.client(key)
        baseline = judged(api, client, "baseline")
        candidate = judged(api, client, "grown", cases=CASES + 1)
        comparison = created(compare(client, baseline, candidate))
        judged_metric = by_metric(comparison)[METRIC]
        assert judged_metric["fragile"] == {
            "baseline": len(BASELINE_FRAGILE),
            "candidate": 0,
            "set_aside": 0,
            "candidate_unmatched": 1,
        }
        assert any("1 fragile item of the candidate not in" in n for n in judged_metric["notes"])

        failed = gate(api, key, baseline, candidate, "--metric", METRIC, "--fail-on", "fragile")
        assert failed.returncode == 1, failed.stdout + failed.stderr
        shaky = f"{METRIC} (0 + 1 unmatched)"
        assert f"FAIL: fragile items in the candidate: {shaky}" in failed.stdout
        warned = gate(api, key, baseline, candidate, "--metric", METRIC)
        assert warned.returncode == 0, warned.stdout + warned.stderr
        assert f"WARNING: fragile items in the candidate: {shaky}" in warned.stdout
        assert f"{len(BASELINE_FRAGILE)} → 0 (+1 unmatched)" in warned.stdout
