"""The walk-through's intervals through the API: inside the score's range, named, or null with a
note when n is too small, in a summary, a run report and a comparison."""

import json
import re
import time
from typing import Any

import httpx
import numpy as np
import pytest
from scipy import stats as scipy_stats
from sqlalchemy import select, update

from app.models import MetricSummary, Result
from app.stats import _bounded
from tests.comparisons.helpers import compare, quiz_dataset, run
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
}
# Judge's scores out of 10, piled against the top: 0.85 ± t·SE reaches 1.074.
SKEWED = [10] * 10 + [0, 2]


def t_interval(scores: list[float]) -> tuple[float, float]:
    """The interval Loupe gave before: mean ± t(0.975, n − 1)·SE."""
    return scipy_stats.t.interval(
        0.95, len(scores) - 1, loc=np.mean(scores), scale=scipy_stats.sem(scores)
    )


def score_from_output(request: dict) -> Reply | dict:
    """g_eval scores what the case's output says (`score=7` → 7 of 10)."""
    if task_of(request) != "g_eval_score":
        return plausible_answer(request)
    match = re.search(r"score=(\d+)", json.dumps(request))
    assert match is not None
    return {"reason": "As planted.", "score": int(match.group(1))}


def submitted(api: Api, client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/evaluations", json={**body, "cache": False})
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed"
    return final


def exact_cases(correct: list[bool]) -> list[dict[str, Any]]:
    return [
        {"id": f"c{i}", "input": "q", "actual_output": "a", "expected_output": "a" if ok else "b"}
        for i, ok in enumerate(correct)
    ]


def judged_cases(scores: list[int]) -> list[dict[str, Any]]:
    return [
        {"id": f"c{i}", "input": f"question {i}", "actual_output": f"answer {i} score={score}"}
        for i, score in enumerate(scores)
    ]


def in_range(interval: list[float], low: float, high: float) -> bool:
    return low <= interval[0] <= interval[1] <= high


class TestWalkThroughIntervals:
    def test_summary_exact_match_of_two_is_wilson_inside_zero_one(self, api: Api) -> None:
        # One right, one wrong: the t interval was [-5.85, 6.85].
        assert t_interval([0.0, 1.0]) == pytest.approx((-5.853, 6.853), abs=1e-3)
        client = api.tenant_client()
        final = submitted(
            api,
            client,
            {"test_cases": exact_cases([True, False]), "metrics": [{"type": "exact_match"}]},
        )
        (row,) = final["per_metric"]
        assert row["ci_method"] == "wilson" and in_range(row["ci95"], 0.0, 1.0)
        assert row["ci95"][0] == row["pass_rate_ci95"][0] > 0.09

    def test_summary_g_eval_of_two_says_n_is_too_small(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # The walk-through's G-Eval: 0.63 and 0 gave 0.315 [-0.707, 1.337].
        judge.script(score_from_output)
        client = api.tenant_client()
        final = submitted(api, client, {"test_cases": judged_cases([6, 0]), "metrics": [G_EVAL]})
        (row,) = final["per_metric"]
        assert row["mean_score"] == 0.3 and row["n"] == 2
        assert row["ci95"] is None and row["ci_method"] is None
        assert "at least 10" in row["interval_note"]

    def test_summary_g_eval_of_twelve_is_a_bootstrap_inside_zero_one(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        scores = [s / 10 for s in SKEWED]
        assert t_interval(scores)[1] > 1.05
        judge.script(score_from_output)
        client = api.tenant_client()
        final = submitted(api, client, {"test_cases": judged_cases(SKEWED), "metrics": [G_EVAL]})
        (row,) = final["per_metric"]
        assert row["ci_method"] == "bootstrap_bca" and row["interval_note"] is None
        assert in_range(row["ci95"], 0.0, 1.0) and row["ci95"][0] < 0.85 < row["ci95"][1]
        # A second poll reads the same numbers (a fixed seed, kept per process).
        again = client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
        assert again["ci95"] == row["ci95"]

    def test_a_constant_score_lies_inside_its_own_interval(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Twelve 8s: the running sum gave a mean of 0.7999999999999999 beside [0.8, 0.8], so
        # a client checking lower <= mean failed.
        assert sum([0.8] * 12) / 12 < 0.8
        judge.script(score_from_output)
        client = api.tenant_client()
        final = submitted(api, client, {"test_cases": judged_cases([8] * 12), "metrics": [G_EVAL]})
        (row,) = final["per_metric"]
        assert row["ci95"] is not None
        assert row["ci95"][0] <= row["mean_score"] <= row["ci95"][1], row

    def test_run_report_accuracy_of_two_is_wilson(self, api: Api) -> None:
        client = api.tenant_client()
        dataset = quiz_dataset(client, rows=2)
        run_id = run(api, client, dataset, {1}, rows=2)
        body = client.get(f"/v1/runs/{run_id}").json()
        (row,) = [
            r for r in body["report"] if r["metric"] == "accuracy" and r["subset"] == "OVERALL"
        ]
        assert row["num"] == 2 and row["score"] == 0.5
        assert row["ci_method"] == "wilson" and in_range(row["ci95"], 0.0, 1.0)
        for every in body["report"]:
            assert every["ci95"] is None or in_range(every["ci95"], 0.0, 1.0)
            assert (every["ci95"] is None) == (every["ci_method"] is None)

    def test_comparison_of_two_pairs_has_a_note_and_of_twelve_a_bounded_bootstrap(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(score_from_output)
        client = api.tenant_client()
        exact = {"metrics": [{"type": "exact_match"}]}
        first = submitted(api, client, {"test_cases": exact_cases([True, True]), **exact})
        second = submitted(api, client, {"test_cases": exact_cases([True, False]), **exact})
        (small,) = compare(client, first["id"], second["id"]).json()["metrics"]
        assert small["ci95"] is None and small["ci_method"] is None
        assert any("2 pairs" in note for note in small["notes"])

        # Every baseline score 1; the candidate loses ten of twelve: the mean difference is
        # −0.833 and mean ± t·SE reaches −1.08, below the −1 no difference can pass.
        baseline = submitted(
            api, client, {"test_cases": judged_cases([10] * 12), "metrics": [G_EVAL]}
        )
        candidate = submitted(
            api, client, {"test_cases": judged_cases([0] * 10 + [10, 10]), "metrics": [G_EVAL]}
        )
        assert t_interval([-1.0] * 10 + [0.0, 0.0])[0] < -1.05
        (judged,) = compare(client, baseline["id"], candidate["id"]).json()["metrics"]
        assert judged["mean_difference"] == -10 / 12
        # Every score sits at a bound (0 or 1 after normalising): Newcombe's paired interval.
        assert judged["ci_method"] == "paired_newcombe"
        assert in_range(judged["ci95"], -1.0, 1.0)
        assert judged["ci95"][0] < judged["mean_difference"] < judged["ci95"][1]


def stored_interval(api: Api, evaluation_id: str) -> dict[str, Any] | None:
    """The interval stored on the evaluation's one summary row, once its worker stored it."""
    deadline = time.monotonic() + 30
    while True:
        with api.served.runtime.session() as session:
            stored = session.scalar(
                select(MetricSummary.interval).where(MetricSummary.evaluation_id == evaluation_id)
            )
        if stored is not None or time.monotonic() > deadline:
            return stored
        time.sleep(0.05)


class TestStoredIntervals:
    def test_a_completed_evaluation_is_read_with_the_interval_stored_when_it_completed(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # A bootstrap of every score on a process's first read took seconds at 50,000 scores:
        # the interval is made once, when the evaluation completes, and stored.
        judge.script(score_from_output)
        client = api.tenant_client()
        final = submitted(api, client, {"test_cases": judged_cases(SKEWED), "metrics": [G_EVAL]})
        (row,) = final["per_metric"]
        stored = stored_interval(api, final["id"])
        assert stored is not None and stored["ci95"] == row["ci95"]
        assert stored["method"] == row["ci_method"] == "bootstrap_bca"
        # Its scores changed behind the summaries' back: a read that bootstrapped them again
        # would give another interval (all equal: a point).
        with api.served.runtime.session() as session:
            session.execute(
                update(Result).where(Result.evaluation_id == final["id"]).values(score=0.5)
            )
            session.commit()
        _bounded._CACHE.clear()  # as a process that never read it
        again = client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
        assert again["ci95"] == row["ci95"] and again["ci_method"] == "bootstrap_bca"
        listed = client.get("/v1/evaluations", params={"limit": 100}).json()["data"]
        (same,) = [item for item in listed if item["id"] == final["id"]]
        assert same["per_metric"][0]["ci95"] == row["ci95"]

    def test_an_evaluation_still_scoring_stores_none(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(score_from_output)
        client = api.tenant_client()
        response = client.post(
            "/v1/evaluations",
            json={"test_cases": judged_cases(SKEWED), "metrics": [G_EVAL], "open": True},
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        # Open: every case scored is not every case; nothing is stored for it yet.
        deadline = time.monotonic() + 30
        while client.get(f"/v1/evaluations/{evaluation_id}").json()["result_counts"]["pending"]:
            api.run_queue()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with api.served.runtime.session() as session:
            assert (
                session.scalar(
                    select(MetricSummary.interval).where(
                        MetricSummary.evaluation_id == evaluation_id
                    )
                )
                is None
            )
        closed = client.post(f"/v1/evaluations/{evaluation_id}/close")
        assert closed.status_code == 200, closed.text
        final = api.wait(client, evaluation_id)
        assert final["status"] == "completed"
        assert stored_interval(api, evaluation_id) is not None


class TestFinishedNotes:
    """A finished evaluation's note on a metric without a score says none came, never that
    none came "yet" or "so far": a canceled or failed one takes no more results."""

    def test_canceled_before_any_result_has_no_scored_results(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post(
            "/v1/evaluations", json={"test_cases": [], "metrics": [G_EVAL], "open": True}
        )
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        running = client.get(f"/v1/evaluations/{evaluation_id}").json()["per_metric"][0]
        assert running["interval_note"] == "no scored results yet"

        canceled = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert canceled.status_code == 200, canceled.text
        for read in (canceled.json(), client.get(f"/v1/evaluations/{evaluation_id}").json()):
            assert read["status"] == "canceled"
            assert read["per_metric"][0]["interval_note"] == "no scored results"

    def test_canceled_with_every_result_errored_says_so_for_good(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(status=400, error_code="invalid_request_error"))
        client = api.tenant_client()
        body = {"test_cases": judged_cases([5, 6]), "metrics": [G_EVAL], "open": True}
        response = client.post("/v1/evaluations", json={**body, "cache": False})
        assert response.status_code == 202, response.text
        evaluation_id = response.json()["id"]
        deadline = time.monotonic() + 30
        while (read := client.get(f"/v1/evaluations/{evaluation_id}").json())["result_counts"][
            "pending"
        ]:
            api.run_queue()
            assert time.monotonic() < deadline, read
            time.sleep(0.05)
        assert read["result_counts"]["errored"] == 2, read
        note = "no scored results: every result errored"
        assert read["per_metric"][0]["interval_note"] == f"{note} so far"

        canceled = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert canceled.status_code == 200, canceled.text
        assert canceled.json()["per_metric"][0]["interval_note"] == note
