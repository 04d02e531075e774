"""A judge asked more than once about the same output (issue 27): K samples per item and metric,
fragile items where the samples straddle the threshold, and a panel of judges with its
agreement, through the HTTP API against a scripted judge that disagrees with itself."""

import csv
import io
import json
import re
import threading
from collections import defaultdict
from typing import Any

import httpx
import krippendorff
import numpy as np
import pytest

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of

G_EVAL = {
    "type": "g_eval",
    "name": "helpful",
    "evaluation_steps": ["Check the answer."],
    "evaluation_params": ["input", "actual_output"],
}


class Disagreeing:
    """Scores out of 10 per case (`answer <name>` in the output), per judge model, one after
    another as the calls arrive; counts every g_eval scoring call it answers."""

    def __init__(self, scores: dict[tuple[str, str], list[int | None]]) -> None:
        self.scores = scores
        self.calls: dict[tuple[str, str], int] = defaultdict(int)
        self.lock = threading.Lock()

    def __call__(self, request: dict) -> Any:
        if task_of(request) != "g_eval_score":
            return plausible_answer(request)
        name = re.search(r"answer (\w+)", json.dumps(request))
        assert name is not None
        key = (request["model"], name.group(1))
        with self.lock:
            made = self.calls[key]
            self.calls[key] += 1
        planned = self.scores[key]
        score = planned[made % len(planned)]
        if score is None:
            # A judge that refuses this call (400 is not retried): no judgment.
            return Reply(status=400, content="refused")
        return {"reason": f"{key[0]} gives {name.group(1)} {score}.", "score": score}


def cases(*names: str) -> list[dict[str, Any]]:
    return [
        {"id": name, "input": f"question {name}", "actual_output": f"answer {name}"}
        for name in names
    ]


def evaluated(api: Api, client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["status"] == "completed", final
    return final


def results(client: httpx.Client, evaluation_id: str, **params: Any) -> dict[str, dict]:
    page = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100, **params})
    assert page.status_code == 200, page.text
    return {row["test_case_id"]: row for row in page.json()["data"]}


class TestSamples:
    def test_k_samples_make_k_calls_each_and_mark_the_straddling_item_fragile(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        model = "judge-model"
        script = Disagreeing({(model, "steady"): [8], (model, "shaky"): [2, 8, 9]})
        judge.script(script)
        spec = {**G_EVAL, "judge": {"samples": 3}}
        with api.tenant_client() as client:
            # The judge cache is on (the default): samples are still new calls, every time.
            for attempt in range(2):
                final = evaluated(
                    api, client, {"metrics": [spec], "test_cases": cases("steady", "shaky")}
                )
                assert script.calls[(model, "steady")] == 3 * (attempt + 1)
                assert script.calls[(model, "shaky")] == 3 * (attempt + 1)
            summary = final["per_metric"][0]
            assert summary["usage"]["calls"] == 6
            itself = summary["stability"].pop("self_agreement")
            assert summary["stability"] == {
                "samples": 3,
                "members": None,
                "aggregate": "median",
                "fragile": 1,
                "incomplete": 0,
                "all_passed": 1,
                "pass_hat_k": 0.5,
                "agreement": None,
            }
            rows = results(client, final["id"])
            shaky, steady = rows["shaky"], rows["steady"]
            assert sorted(shaky["stability"]["scores"]) == [0.2, 0.8, 0.9]
            assert shaky["score"] == pytest.approx(0.8)  # the median
            assert shaky["passed"] is True
            assert shaky["fragile"] is True and shaky["stability"]["passed"] == 2
            assert shaky["stability"]["spread"] == pytest.approx(0.7)
            assert shaky["stability"]["all_passed"] is False
            reasons = {j["reason"] for j in shaky["stability"]["judgments"]}
            assert reasons == {f"{model} gives shaky {n}." for n in (2, 8, 9)}
            assert shaky["reason"] == f"{model} gives shaky 8."
            assert shaky["usage"]["calls"] == 3
            assert steady["fragile"] is False and steady["stability"]["all_passed"] is True
            # The judge's agreement with itself: its samples as raters of each test case.
            matrix = np.array([rows[name]["stability"]["scores"] for name in rows]).T
            expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
            assert itself["alpha"] == pytest.approx(expected)
            assert (itself["items"], itself["raters"]) == (2, 3)
            assert itself["low"] is bool(expected < 0.667)
            # A completed evaluation's read again (kept per process) says the same.
            again = client.get(f"/v1/evaluations/{final['id']}").json()["per_metric"][0]
            assert again["stability"]["self_agreement"] == itself
            # Only the straddling item is listed as fragile; the others as not.
            assert list(results(client, final["id"], fragile="true")) == ["shaky"]
            assert list(results(client, final["id"], fragile="false")) == ["steady"]
            # The CSV export carries both, the judgments as JSON.
            exported = client.get(
                f"/v1/evaluations/{final['id']}/results/export", params={"format": "csv"}
            )
            rows_out = {
                row["test_case_id"]: row for row in csv.DictReader(io.StringIO(exported.text))
            }
            assert rows_out["shaky"]["fragile"] == "True"
            assert rows_out["steady"]["fragile"] == "False"
            judged = json.loads(rows_out["shaky"]["stability"])["judgments"]
            assert sorted(j["score"] for j in judged) == [0.2, 0.8, 0.9]

    def test_majority_and_mean_aggregate_as_asked(self, api: Api, judge: ScriptedJudge) -> None:
        model = "judge-model"
        script = Disagreeing({(model, "split"): [1, 6, 7, 9]})
        judge.script(script)
        metrics = [
            {**G_EVAL, "name": "by_mean", "judge": {"samples": 4, "aggregate": "mean"}},
            {**G_EVAL, "name": "by_majority", "judge": {"samples": 4, "aggregate": "majority"}},
        ]
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": metrics, "test_cases": cases("split")})
            by_metric = {
                row["metric"]: row
                for row in client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
            }
        scores = sorted(by_metric["by_mean"]["stability"]["scores"])
        assert by_metric["by_mean"]["score"] == pytest.approx(np.mean(scores))
        # Three of four passed: the verdict passes, its score the median of the passing ones.
        majority = by_metric["by_majority"]
        assert majority["passed"] is True
        assert majority["score"] == pytest.approx(0.7)
        assert script.calls[(model, "split")] == 8

    def test_a_mean_equal_to_the_threshold_passes(self, api: Api, judge: ScriptedJudge) -> None:
        # In floats the mean of 0.7 and 0.1 was 0.39999999999999997: a threshold of 0.4
        # failed the mean it equals.
        judge.script(Disagreeing({("judge-model", "pair"): [7, 1]}))
        spec = {
            **G_EVAL,
            "threshold": 0.4,
            "top_logprobs": 0,
            "judge": {"samples": 2, "aggregate": "mean"},
        }
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("pair")})
            row = results(client, final["id"])["pair"]
        assert sorted(row["stability"]["scores"]) == [0.1, 0.7]
        assert (row["score"], row["passed"]) == (0.4, True)

    def test_samples_judge_at_the_temperature_asked_and_share_the_steps(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        script = Disagreeing({("judge-model", "x"): [3, 7]})
        judge.script(script)
        spec = {
            "type": "g_eval",
            "name": "helpful",
            "criteria": "Does it answer?",
            "evaluation_params": ["input", "actual_output"],
            "judge": {"samples": 4, "temperature": 0.9},
        }
        with api.tenant_client() as client:
            evaluated(api, client, {"metrics": [spec], "test_cases": cases("x")})
        scoring = judge.calls_for("g_eval_score")
        assert [call["temperature"] for call in scoring] == [0.9] * 4
        # The steps are the rubric, not a judgment of the output: made once, as configured.
        [steps] = judge.calls_for("g_eval_steps")
        assert steps["temperature"] == 0.0

    def test_failed_judgments_do_not_vote_and_are_counted(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        model = "judge-model"
        script = Disagreeing(
            {(model, "partly"): [8, None, None], (model, "never"): [None], (model, "fine"): [9]}
        )
        judge.script(script)
        spec = {**G_EVAL, "judge": {"samples": 3}}
        with api.tenant_client() as client:
            final = evaluated(
                api, client, {"metrics": [spec], "test_cases": cases("partly", "never", "fine")}
            )
            rows = results(client, final["id"])
            steady = results(client, final["id"], fragile="false")
        partly, never = rows["partly"], rows["never"]
        assert partly["passed"] is True and partly["error"] is None
        assert partly["stability"]["errored"] == 2 and partly["stability"]["complete"] is False
        assert partly["stability"]["all_passed"] is False
        # No judgment at all: an error, and neither fragile nor steady.
        assert never["error"] is not None and never["fragile"] is None
        assert set(steady) == {"partly", "fine"}
        summary = final["per_metric"][0]["stability"]
        # "partly" alone: "never" has no verdict, an error counted in `errored`.
        assert summary["incomplete"] == 1 and summary["all_passed"] == 1
        assert final["per_metric"][0]["errored"] == 1
        key = client.headers["authorization"].removeprefix("Bearer ")
        page = signed_in(api, key).get(f"/console/evaluations/{final['id']}").text
        assert '<small class="muted incomplete">1 incomplete</small>' in page

    def test_a_median_of_two_is_one_judgments_score_with_its_reason(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Disagreeing({("judge-model", "even"): [8, 2]}))
        spec = {**G_EVAL, "judge": {"samples": 2}}
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("even")})
            (row,) = results(client, final["id"]).values()
        # The lower of the two middle scores: the score, verdict and reason of one judgment.
        assert row["score"] == pytest.approx(0.2) and row["passed"] is False
        assert row["reason"] == "judge-model gives even 2."
        assert row["fragile"] is True

    def test_the_temperature_applies_to_a_judge_asked_once(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(Disagreeing({("judge-model", "x"): [7]}))
        spec = {**G_EVAL, "judge": {"temperature": 1.3}}
        with api.tenant_client() as client:
            final = evaluated(
                api, client, {"metrics": [spec], "test_cases": cases("x"), "cache": False}
            )
            (row,) = results(client, final["id"]).values()
        assert [call["temperature"] for call in judge.calls_for("g_eval_score")] == [1.3]
        assert row["stability"] is None

    def test_a_result_a_rule_decides_is_not_counted_as_k_judgments(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        spec = {"type": "llm_accuracy", "rule_first": True, "judge": {"samples": 3}}
        case = {
            "id": "paris",
            "input": "Capital of France?",
            "actual_output": "Paris",
            "expected_output": "Paris",
        }
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": [case]})
            (row,) = results(client, final["id"]).values()
        assert judge.requests == []
        assert row["passed"] is True and row["usage"]["calls"] == 0
        assert row["stability"]["decided_without_judge"] is True
        assert len(row["stability"]["judgments"]) == 1

    def test_bad_choices_are_named_in_one_answer(self, api: Api, judge: ScriptedJudge) -> None:
        metrics = [
            {**G_EVAL, "name": "a", "judge": {"samples": 0}},
            {**G_EVAL, "name": "b", "judge": {"samples": 21, "aggregate": "mode"}},
            {**G_EVAL, "name": "c", "judge": {"panel": [{"model_id": "mdl_missing"}, {}]}},
            {**G_EVAL, "name": "d", "judge": {"panel": [{}]}},
        ]
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", json={"metrics": metrics, "test_cases": cases("x")}
            )
        assert response.status_code == 422, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        fields = {error["loc"] for error in response.json()["errors"]}
        for expected in (
            "metrics[0].judge.samples",
            "metrics[1].judge.samples",
            "metrics[1].judge.aggregate",
            "metrics[2].judge.panel[0].model_id",
            "metrics[3].judge.panel",
        ):
            assert any(field.startswith(expected) for field in fields), (expected, fields)


class TestPanel:
    def test_two_registered_judges_give_member_scores_and_alpha(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        planned = {
            "a": {"one": 9, "two": 3, "three": 7, "four": 2},
            "b": {"one": 8, "two": 6, "three": 2, "four": 3},
        }
        script = Disagreeing(
            {
                (f"judge-{m}", case): [score]
                for m, by in planned.items()
                for case, score in by.items()
            }
        )
        judge.script(script)
        with api.tenant_client() as client:
            ids = []
            for member in ("a", "b"):
                registered = client.post(
                    "/v1/models",
                    json={
                        "base_url": judge.base_url,
                        "model": f"judge-{member}",
                        "api_key": "sk-x",
                    },
                )
                assert registered.status_code == 201, registered.text
                ids.append(registered.json()["id"])
            spec = {
                **G_EVAL,
                "judge": {
                    "panel": [{"model_id": ids[0], "weight": 1}, {"model_id": ids[1], "weight": 3}],
                    "aggregate": "mean",
                },
            }
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases(*planned["a"])})
            rows = results(client, final["id"])
        for name, row in rows.items():
            # The result's judge is the panel, not the member whose reason it carries.
            assert row["logs"]["judge"]["model"] == "judge-a + judge-b"
            members = row["stability"]["panel"]
            assert [m["model"] for m in members] == ["judge-a", "judge-b"]
            assert [m["score"] for m in members] == pytest.approx(
                [planned["a"][name] / 10, planned["b"][name] / 10]
            )
            assert members[1]["reason"] == f"judge-b gives {name} {planned['b'][name]}."
            weighted = (planned["a"][name] + 3 * planned["b"][name]) / 40
            assert row["score"] == pytest.approx(weighted)
            assert row["usage"]["calls"] == 2
            # The members straddle the threshold exactly where one passes and one fails.
            straddles = (planned["a"][name] >= 5) != (planned["b"][name] >= 5)
            assert row["fragile"] is straddles
        names = list(planned["a"])
        matrix = np.array([[planned[m][n] / 10 for n in names] for m in ("a", "b")])
        expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
        agreement = final["per_metric"][0]["stability"]["agreement"]
        assert agreement["alpha"] == pytest.approx(expected)
        assert agreement["items"] == 4 and agreement["raters"] == 2
        assert agreement["low"] is bool(expected < 0.667)
        assert final["per_metric"][0]["stability"]["fragile"] == 2
        # The metric's judge is the panel, every member shown (it showed judge-a alone).
        shown = final["per_metric"][0]["judge"]
        assert [(m["model"], m["model_id"], m["weight"]) for m in shown["panel"]] == [
            ("judge-a", ids[0], 1),
            ("judge-b", ids[1], 3),
        ]
        assert all(m["host"] == shown["host"] for m in shown["panel"])
        assert (shown["model"], shown["model_id"]) == ("judge-a", ids[0])

    def test_samples_and_panel_combine(self, api: Api, judge: ScriptedJudge) -> None:
        script = Disagreeing({("judge-c", "x"): [9, 1], ("judge-model", "x"): [8]})
        judge.script(script)
        with api.tenant_client() as client:
            registered = client.post(
                "/v1/models",
                json={"base_url": judge.base_url, "model": "judge-c", "api_key": "sk-x"},
            )
            assert registered.status_code == 201, registered.text
            # The server's own judge is a member too (no model_id).
            spec = {
                **G_EVAL,
                "judge": {"samples": 2, "panel": [{"model_id": registered.json()["id"]}, {}]},
            }
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("x")})
            (row,) = results(client, final["id"]).values()
        assert script.calls == {("judge-c", "x"): 2, ("judge-model", "x"): 2}
        assert sorted(row["stability"]["scores"]) == [0.1, 0.8, 0.8, 0.9]
        assert [m["model_id"] for m in row["stability"]["panel"]][1] is None
        shown = final["per_metric"][0]["judge"]["panel"]
        assert [m["model_id"] for m in shown] == [registered.json()["id"], None]
        assert [m["model"] for m in shown] == ["judge-c", "judge-model"]
        assert row["fragile"] is True
        assert row["usage"]["calls"] == 4
        # Each member agreeing with itself: its two samples rate the test case for it.
        judged = row["stability"]["judgments"]
        matrix = np.array(
            [[j["score"] for j in judged if j["member"] == member] for member in (0, 1)]
        ).T
        itself = final["per_metric"][0]["stability"]["self_agreement"]
        assert (itself["items"], itself["raters"]) == (2, 2)
        assert itself["alpha"] == pytest.approx(
            krippendorff.alpha(reliability_data=matrix, level_of_measurement="interval")
        )
