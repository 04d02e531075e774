"""POST/GET /v1/comparisons end to end, on both backends: planted differences, hand-computed
statistics, unmatched items, tenant isolation and the items that moved."""

import json
import math
import random

import pytest
from sqlalchemy import update
from statsmodels.stats.power import TTestPower

from app.models import Result
from app.models import TestCase as StoredCase
from tests.comparisons.helpers import (
    CASES,
    PLANTED,
    compare,
    evaluation,
    newcombe,
    outcomes,
    quiz_dataset,
    run,
)
from tests.evaluations.test_batches import cases, open_evaluation
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer


def problem(response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return response.json()


class TestEvaluationComparison:
    def test_planted_regression(self, api: Api) -> None:
        client = api.tenant_client()
        baseline = evaluation(api, client, set(), extra_id="gone")
        candidate = evaluation(api, client, set(PLANTED), extra_id="new")
        response = compare(client, baseline, candidate)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["object"] == "comparison" and body["kind"] == "evaluation"
        assert client.get(f"/v1/comparisons/{body['id']}").json() == body

        exact, bleu = body["metrics"]
        assert (exact["metric"], bleu["metric"]) == ("exact_match", "bleu")
        # 8 of 20 differences are −1, 12 are 0: mean −0.4, s² = (8·0.36 + 12·0.16)/19.
        assert exact["n"] == CASES
        assert (exact["baseline_mean"], exact["candidate_mean"]) == (1.0, 0.6)
        assert exact["mean_difference"] == pytest.approx(-0.4)
        # Pass/fail on both sides: Newcombe's paired interval (12 pass on both, 8 on the
        # baseline only), inside [-1, 1].
        assert exact["ci_method"] == "paired_newcombe"
        assert exact["ci95"] == pytest.approx(newcombe(12, 0, 8, 0), rel=1e-12)
        assert -1.0 <= exact["ci95"][0] < -0.4 < exact["ci95"][1] <= 0.0
        assert (exact["improved_items"], exact["regressed_items"]) == (0, 8)
        assert exact["pass_rate_difference"] == pytest.approx(-0.4)
        # Exact McNemar: 8 discordant pairs all one way, p = 2 · 0.5⁸.
        assert exact["mcnemar_p_value"] == pytest.approx(2 * 0.5**8)
        assert 0 < exact["wilcoxon_p_value"] < 0.05
        # Holm over two tests: the smaller p doubled, the larger kept (never below the first).
        low, high = sorted([exact["p_value"], bleu["p_value"]])
        adjusted = sorted([exact["adjusted_p_value"], bleu["adjusted_p_value"]])
        assert adjusted[0] == pytest.approx(min(1.0, 2 * low))
        assert adjusted[1] == pytest.approx(max(adjusted[0], high))
        assert exact["verdict"] == bleu["verdict"] == "regressed"
        assert bleu["mean_difference"] < 0 and bleu["regressed_items"] == 8
        assert exact["errored"] == {"baseline": 0, "candidate": 0}

        unmatched = body["unmatched"]
        assert (unmatched["baseline_only"], unmatched["candidate_only"]) == (1, 1)
        assert unmatched["items"] == [
            {"side": "baseline", "test_case_id": "gone", "reason": "one_side"},
            {"side": "candidate", "test_case_id": "new", "reason": "one_side"},
        ]
        assert unmatched["duplicate_ids"] == 0

    def test_planted_improvement_and_no_change(self, api: Api) -> None:
        client = api.tenant_client()
        worse = evaluation(api, client, set(PLANTED))
        better = evaluation(api, client, set())
        improved = compare(client, worse, better).json()
        assert [m["verdict"] for m in improved["metrics"]] == ["improved", "improved"]
        assert improved["metrics"][0]["improved_items"] == 8
        # One item of 20 moved: not detectable; the MDE says what could have been.
        nearly = evaluation(api, client, {0})
        same = compare(client, better, nearly, metrics=["exact_match"]).json()
        (exact,) = same["metrics"]
        assert exact["verdict"] == "no_detectable_change"
        assert exact["mcnemar_p_value"] == 1.0 and exact["regressed_items"] == 1
        # MDE ≈ (z₀.₉₇₅ + z₀.₈)·s_d/√n = 2.80·s_d/√n, a little more with t at n = 20.
        s_d = math.sqrt((0.95**2 + 19 * 0.05**2) / 19)
        scale = s_d / math.sqrt(CASES)
        assert 2.80 * scale < exact["minimum_detectable_effect"] < 3.2 * scale
        assert exact["minimum_detectable_effect"] > abs(exact["mean_difference"])

    def test_items_that_moved_with_both_reasons(self, api: Api) -> None:
        client = api.tenant_client()
        baseline = evaluation(api, client, set())
        candidate = evaluation(api, client, set(PLANTED))
        comparison = compare(client, baseline, candidate).json()["id"]
        path = f"/v1/comparisons/{comparison}/items"
        first = client.get(
            path, params={"metric": "exact_match", "direction": "regressed", "limit": 5}
        ).json()
        assert first["object"] == "list" and first["has_more"] is True
        second = client.get(
            path,
            params={"metric": "exact_match", "direction": "regressed", "after": first["last_id"]},
        ).json()
        assert second["has_more"] is False
        items = first["data"] + second["data"]
        assert sorted(item["test_case_id"] for item in items) == sorted(
            f"case-{index}" for index in PLANTED
        )
        for item in items:
            assert item["difference"] == -1.0
            assert item["baseline"]["passed"] is True and item["candidate"]["passed"] is False
            assert item["baseline"]["reason"] and item["candidate"]["reason"]
            assert item["candidate"]["reason"] != item["baseline"]["reason"]
        improved = client.get(path, params={"direction": "improved"}).json()
        assert improved["data"] == []
        # Without a metric: both metrics' moves, largest first.
        both = client.get(path, params={"limit": 1000}).json()["data"]
        assert {item["metric"] for item in both} == {"exact_match", "bleu"}
        assert len(both) == 16
        bad_metric = problem(client.get(path, params={"metric": "nope"}), 400)
        assert [error["loc"] for error in bad_metric["errors"]] == ["query.metric"]
        bad_cursor = problem(client.get(path, params={"after": "nope"}), 400)
        assert [error["loc"] for error in bad_cursor["errors"]] == ["query.after"]


class TestMinimumDetectableEffect:
    def test_ordinary_sizes_and_any_alpha_answer(self, api: Api) -> None:
        # 73 pairs at alpha 0.05 made statsmodels' solve_power raise: the comparison was a 500.
        generator = random.Random(1)
        before = [generator.random() < 0.6 for _ in range(73)]
        after = [generator.random() < 0.7 for _ in range(73)]
        client = api.tenant_client()
        baseline, candidate = outcomes(api, client, before), outcomes(api, client, after)
        response = compare(client, baseline, candidate)
        assert response.status_code == 200, response.text
        (exact,) = response.json()["metrics"]
        differences = [int(b) - int(a) for a, b in zip(before, after, strict=True)]
        mean = sum(differences) / 73
        s_d = math.sqrt(sum((d - mean) ** 2 for d in differences) / 72)
        power = TTestPower().power(
            effect_size=exact["minimum_detectable_effect"] / s_d, nobs=73, alpha=0.05
        )
        assert power == pytest.approx(0.8, abs=1e-6)
        assert exact["notes"] == []

        # From alpha 0.8 the test rejects that often with no change at all: no MDE, and why.
        loose = compare(client, baseline, candidate, alpha=0.9)
        assert loose.status_code == 200, loose.text
        (exact,) = loose.json()["metrics"]
        assert exact["minimum_detectable_effect"] is None
        assert len(exact["notes"]) == 1 and "alpha 0.9" in exact["notes"][0]
        assert exact["p_value"] is not None and exact["n"] == 73

    def test_identical_evaluations_have_none(self, api: Api) -> None:
        # Differences all 0: no spread, so no size of change can be said to be detectable.
        client = api.tenant_client()
        pattern = [True, False, True, True, False] * 2
        first, second = outcomes(api, client, pattern), outcomes(api, client, pattern)
        (exact,) = compare(client, first, second).json()["metrics"]
        assert exact["mean_difference"] == 0 and exact["verdict"] == "no_detectable_change"
        assert exact["minimum_detectable_effect"] is None
        assert len(exact["notes"]) == 1 and "spread" in exact["notes"][0]
        # Ten identical pairs do not make the difference certain: [0, 0] was shown.
        assert exact["ci95"] == pytest.approx(newcombe(6, 0, 0, 4), rel=1e-12)
        assert exact["ci95"][0] < 0 < exact["ci95"][1]
        assert exact["ci_method"] == "paired_newcombe"


class TestRunComparison:
    def test_planted_regression_between_two_prediction_runs(self, api: Api) -> None:
        client = api.tenant_client()
        dataset = quiz_dataset(client)
        baseline = run(api, client, dataset, set())
        candidate = run(api, client, dataset, set(range(6)))
        # Fewer samples: two baseline items have no partner.
        shorter = run(api, client, dataset, set(), rows=10)
        body = compare(client, baseline, candidate).json()
        assert body["kind"] == "run"
        (accuracy,) = [m for m in body["metrics"] if m["metric"] == "accuracy"]
        assert accuracy["n"] == 12 and accuracy["mean_difference"] == pytest.approx(-0.5)
        assert (accuracy["improved_items"], accuracy["regressed_items"]) == (0, 6)
        assert accuracy["mcnemar_p_value"] == pytest.approx(2 * 0.5**6)
        assert accuracy["verdict"] == "regressed"

        partial = compare(client, baseline, shorter).json()
        assert partial["unmatched"]["baseline_only"] == 2
        assert [i["test_case_id"] for i in partial["unmatched"]["items"]] == ["quiz/10", "quiz/11"]
        assert partial["metrics"][0]["verdict"] == "no_detectable_change"
        assert partial["metrics"][0]["n"] == 10

        items = client.get(
            f"/v1/comparisons/{body['id']}/items", params={"direction": "regressed"}
        ).json()["data"]
        assert sorted(item["test_case_id"] for item in items) == [f"quiz/{i}" for i in range(6)]


class TestDelete:
    def test_is_audited_leaves_its_sides_and_is_404_after_and_for_another_tenant(
        self, api: Api
    ) -> None:
        """Every other object a tenant makes can be deleted; a comparison could not."""
        client, stranger = api.tenant_client(), api.tenant_client()
        baseline, candidate = evaluation(api, client, set()), evaluation(api, client, {0})
        comparison = compare(client, baseline, candidate).json()["id"]
        problem(stranger.delete(f"/v1/comparisons/{comparison}"), 404)
        assert client.delete(f"/v1/comparisons/{comparison}").status_code == 204
        problem(client.get(f"/v1/comparisons/{comparison}"), 404)
        problem(client.delete(f"/v1/comparisons/{comparison}"), 404)
        for side in (baseline, candidate):
            assert client.get(f"/v1/evaluations/{side}").status_code == 200
        events = client.get("/v1/audit_events", params={"object_id": comparison}).json()["data"]
        assert [event["action"] for event in events] == ["comparison.delete", "comparison.create"]
        assert events[0]["details"] == {"baseline_id": baseline, "candidate_id": candidate}


class TestRefusals:
    def test_another_tenants_ids_are_404(self, api: Api) -> None:
        owner, stranger = api.tenant_client(), api.tenant_client()
        theirs = evaluation(api, owner, set())
        mine = evaluation(api, stranger, set())
        body = problem(compare(stranger, theirs, mine), 404)
        assert [e["loc"] for e in body["errors"]] == ["baseline_id"]
        body = problem(compare(stranger, mine, theirs), 404)
        assert [e["loc"] for e in body["errors"]] == ["candidate_id"]
        comparison = compare(owner, theirs, evaluation(api, owner, set())).json()["id"]
        problem(stranger.get(f"/v1/comparisons/{comparison}"), 404)
        problem(stranger.get(f"/v1/comparisons/{comparison}/items"), 404)

    def test_an_evaluation_and_a_run_are_422_naming_the_candidate(self, api: Api) -> None:
        client = api.tenant_client()
        an_evaluation = evaluation(api, client, set())
        a_run = run(api, client, quiz_dataset(client), set())
        body = problem(compare(client, an_evaluation, a_run), 422)
        assert [e["loc"] for e in body["errors"]] == ["candidate_id"]

    def test_an_unfinished_evaluation_compared_with_itself_is_422_too(self, api: Api) -> None:
        # It answered 409 "not completed" for both sides, as if it could be compared once done.
        client = api.tenant_client()
        still_open = open_evaluation(client, cases(0, 2))["id"]
        body = problem(compare(client, still_open, still_open, metrics=["telepathy"]), 422)
        assert [(e["loc"], e["type"]) for e in body["errors"]] == [
            ("candidate_id", "same_as_baseline"),
            ("metrics[0]", body["errors"][1]["type"]),
        ]
        # Two different sides still wait for completion.
        other = open_evaluation(client, cases(0, 2))["id"]
        assert compare(client, still_open, other).status_code == 409

    def test_unknown_metric_and_bad_alpha_are_422(self, api: Api) -> None:
        client = api.tenant_client()
        one, other = evaluation(api, client, set()), evaluation(api, client, set())
        body = problem(compare(client, one, other, metrics=["exact_match", "telepathy"]), 422)
        assert [e["loc"] for e in body["errors"]] == ["metrics[1]"]
        problem(compare(client, one, other, alpha=1.5), 422)

    def test_an_evaluation_compared_with_itself_is_422_naming_the_candidate(self, api: Api) -> None:
        # It answered 200 `no_detectable_change`: every difference 0, so the gate always passed.
        client = api.tenant_client()
        one = evaluation(api, client, set())
        body = problem(compare(client, one, one), 422)
        assert [(e["loc"], e["type"]) for e in body["errors"]] == [
            ("candidate_id", "same_as_baseline")
        ]
        assert "candidate_id" in body["detail"]
        # One answer names every field at fault.
        both = problem(compare(client, one, one, metrics=["exact_match", "telepathy"]), 422)
        assert [e["loc"] for e in both["errors"]] == ["candidate_id", "metrics[1]"]
        # A run compared with itself too.
        a_run = run(api, client, quiz_dataset(client), set())
        body = problem(compare(client, a_run, a_run), 422)
        assert [e["loc"] for e in body["errors"]] == ["candidate_id"]


class TestMetricIdentity:
    def submitted(self, api: Api, client, metric: dict) -> str:  # type: ignore[no-untyped-def]
        # BLEU 0.8187 on every case: passes a 0.5 threshold, fails a 0.99 one.
        cases = [
            {
                "id": f"c{index}",
                "input": "q",
                "actual_output": "the cat sat on mat",
                "expected_output": "the cat sat on a mat",
            }
            for index in range(4)
        ]
        response = client.post("/v1/evaluations", json={"test_cases": cases, "metrics": [metric]})
        assert response.status_code == 202, response.text
        return api.wait(client, response.json()["id"])["id"]

    def test_same_name_different_type_is_a_mismatch_not_a_comparison(self, api: Api) -> None:
        client = api.tenant_client()
        bleu = self.submitted(api, client, {"type": "bleu", "name": "q"})
        exact = self.submitted(api, client, {"type": "exact_match", "name": "q"})
        body = compare(client, bleu, exact).json()
        assert body["metrics"] == []
        assert body["unmatched"]["metrics"] == ["q"]
        # The baseline's `q` has no counterpart on the candidate: no verdict covers it.
        assert body["unmatched"]["missing_metrics"] == ["q"]
        (mismatch,) = body["unmatched"]["mismatched_metrics"]
        assert (mismatch["metric"], mismatch["baseline_type"], mismatch["candidate_type"]) == (
            "q",
            "bleu",
            "exact_match",
        )
        assert "not comparable" in mismatch["reason"]
        # Asked for by name: a 422 at that name, saying why.
        refused = problem(compare(client, bleu, exact, metrics=["q"]), 422)
        assert [e["loc"] for e in refused["errors"]] == ["metrics[0]"]
        assert (
            "bleu" in refused["errors"][0]["msg"] and "exact_match" in refused["errors"][0]["msg"]
        )

    def test_a_metric_the_candidate_lacks_is_named_missing(self, api: Api) -> None:
        # It was listed in `unmatched.metrics` with the candidate's own extras, side unsaid, so
        # a gate could not tell a dropped metric from an added one.
        client = api.tenant_client()
        full = outcomes(api, client, [True] * 4, [{"type": "exact_match"}, {"type": "bleu"}])
        partial = outcomes(api, client, [True] * 4)
        dropped = compare(client, full, partial).json()
        assert [row["metric"] for row in dropped["metrics"]] == ["exact_match"]
        assert dropped["unmatched"]["metrics"] == ["bleu"]
        assert dropped["unmatched"]["missing_metrics"] == ["bleu"]
        assert client.get(f"/v1/comparisons/{dropped['id']}").json() == dropped
        added = compare(client, partial, full).json()["unmatched"]
        assert added["metrics"] == ["bleu"] and added["missing_metrics"] == []

    def test_different_thresholds_give_no_pass_rate_figures(self, api: Api) -> None:
        # Identical scores; before, the 0.99 side's fails were 4 "regressed_items".
        client = api.tenant_client()
        lenient = self.submitted(api, client, {"type": "bleu", "name": "q"})
        strict = self.submitted(api, client, {"type": "bleu", "name": "q", "threshold": 0.99})
        body = compare(client, lenient, strict).json()
        (q,) = body["metrics"]
        assert (q["baseline_threshold"], q["candidate_threshold"]) == (0.5, 0.99)
        assert q["n"] == 4 and q["mean_difference"] == 0
        # Four pairs make no interval: undecided (tests/comparisons/test_verdicts.py).
        assert q["verdict"] == "undecided"
        for field in (
            "baseline_pass_rate",
            "candidate_pass_rate",
            "pass_rate_difference",
            "improved_items",
            "regressed_items",
            "mcnemar_p_value",
        ):
            assert q[field] is None, field
        assert any("thresholds differ" in note for note in q["notes"])
        moved = client.get(f"/v1/comparisons/{body['id']}/items").json()["data"]
        assert moved == []
        # One threshold: the figures are there, and no note about thresholds.
        again = self.submitted(api, client, {"type": "bleu", "name": "q"})
        (same,) = compare(client, lenient, again).json()["metrics"]
        assert (same["baseline_threshold"], same["candidate_threshold"]) == (0.5, 0.5)
        assert same["baseline_pass_rate"] == 1.0 and same["regressed_items"] == 0
        assert not any("threshold" in note for note in same["notes"])

    def test_other_settings_that_differ_are_noted(self, api: Api) -> None:
        client = api.tenant_client()
        one = self.submitted(api, client, {"type": "bleu", "name": "q"})
        two = self.submitted(api, client, {"type": "bleu", "name": "q", "n": 2})
        (q,) = compare(client, one, two).json()["metrics"]
        assert q["baseline_pass_rate"] is not None
        assert any("settings differ (n)" in note for note in q["notes"])


class TestErroredAndUnmatched:
    def test_errored_results_are_counted_per_side_not_compared(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # The judge refuses any case whose input carries the marker: those results error.
        def answer(request: dict):  # type: ignore[no-untyped-def]
            if "[refused]" in json.dumps(request):
                return Reply(status=400)
            return plausible_answer(request)

        judge.script(answer)
        client = api.tenant_client()
        metric = {
            "type": "g_eval",
            "name": "judged",
            "evaluation_steps": ["Check the answer."],
            "evaluation_params": ["input", "actual_output"],
        }

        def submitted(refused: set[int]) -> str:
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

        baseline, candidate = submitted(set()), submitted({0, 1})
        (judged,) = compare(client, baseline, candidate).json()["metrics"]
        assert judged["errored"] == {"baseline": 0, "candidate": 2}
        assert judged["n"] == 4

    def test_unmatched_items_are_listed_up_to_100_and_all_counted(self, api: Api) -> None:
        client = api.tenant_client()

        def submitted(count: int) -> str:
            cases = [
                {"id": f"c{index:03d}", "input": "q", "actual_output": "a", "expected_output": "a"}
                for index in range(count)
            ]
            response = client.post(
                "/v1/evaluations", json={"test_cases": cases, "metrics": [{"type": "exact_match"}]}
            )
            assert response.status_code == 202, response.text
            return api.wait(client, response.json()["id"])["id"]

        body = compare(client, submitted(120), submitted(10)).json()
        unmatched = body["unmatched"]
        assert (unmatched["baseline_only"], unmatched["candidate_only"]) == (110, 0)
        assert len(unmatched["items"]) == 100
        assert unmatched["items"][0] == {
            "side": "baseline",
            "test_case_id": "c010",
            "reason": "one_side",
        }
        assert body["metrics"][0]["n"] == 10

    def test_an_id_a_side_repeats_is_left_out_and_listed(self, api: Api) -> None:
        # Evaluations stored before colliding ids were refused ([{"id": "1"}, {}] gave two
        # cases "1"): the comparison overwrote one of them silently.
        client = api.tenant_client()
        baseline = outcomes(api, client, [True, True, False, True, False])
        candidate = outcomes(api, client, [True, False, False, True, True])
        with api.served.runtime.session() as session:
            session.execute(
                update(StoredCase)
                .where(StoredCase.evaluation_id == baseline, StoredCase.index == 1)
                .values(client_id="c0")
            )
            session.execute(
                update(Result)
                .where(Result.evaluation_id == baseline, Result.test_case_index == 1)
                .values(test_case_id="c0")
            )
            session.commit()
        body = compare(client, baseline, candidate).json()
        (exact,) = body["metrics"]
        # c0 names two baseline cases: left out on both sides; c1 is now the candidate's only.
        assert exact["n"] == 3 and exact["mean_difference"] == pytest.approx(1 / 3)
        assert (exact["improved_items"], exact["regressed_items"]) == (1, 0)
        unmatched = body["unmatched"]
        assert (unmatched["baseline_only"], unmatched["candidate_only"]) == (0, 1)
        assert unmatched["duplicate_ids"] == 1
        assert unmatched["items"] == [
            {"side": "candidate", "test_case_id": "c1", "reason": "one_side"},
            {"side": "baseline", "test_case_id": "c0", "reason": "duplicate_id"},
        ]
        moved = client.get(f"/v1/comparisons/{body['id']}/items").json()["data"]
        assert [item["test_case_id"] for item in moved] == ["c4"]
