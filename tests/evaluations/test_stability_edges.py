"""Edges of a metric judged more than once (issue 27) found by an audit: a panel with one
`model` for the whole metric, strict mode under a mean, and what a result's logs say about the
calls of all its judgments, through the HTTP API against the scripted judge."""

import threading
from typing import Any

import httpx
import pytest

from app.models import Evaluation
from tests.evaluations.test_stability import G_EVAL, Disagreeing, cases, evaluated, results
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of


def register(client: httpx.Client, judge: ScriptedJudge, model: str) -> str:
    registered = client.post(
        "/v1/models", json={"base_url": judge.base_url, "model": model, "api_key": "sk-x"}
    )
    assert registered.status_code == 201, registered.text
    return registered.json()["id"]


class TestPanelMembersModels:
    def test_one_model_for_a_whole_panel_is_refused_where_it_is_named(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        with api.tenant_client() as client:
            ids = [register(client, judge, name) for name in ("judge-a", "judge-b")]
            spec = {
                **G_EVAL,
                "model": "judge-z",
                "judge": {"panel": [{"model_id": ids[0]}, {"model_id": ids[1]}]},
            }
            body = {"metrics": [spec], "test_cases": cases("x")}
            for path in ("/v1/evaluations/estimate", "/v1/evaluations"):
                response = client.post(path, json=body)
                assert response.status_code == 422, response.text
                assert response.headers["content-type"].startswith("application/problem+json")
                (error,) = response.json()["errors"]
                assert (error["loc"], error["type"]) == ("metrics[0].model", "model_with_panel")
        assert judge.requests == []

    def test_a_panel_stored_with_one_model_asks_each_member_for_its_own(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        script = Disagreeing({("judge-a", "x"): [9], ("judge-b", "x"): [2], ("judge-z", "x"): [5]})
        judge.script(script)
        with api.tenant_client() as client:
            ids = [register(client, judge, name) for name in ("judge-a", "judge-b")]
            spec = {**G_EVAL, "judge": {"panel": [{"model_id": ids[0]}, {"model_id": ids[1]}]}}
            opened = client.post("/v1/evaluations", json={"open": True, "metrics": [spec]})
            assert opened.status_code == 202, opened.text
            evaluation_id = opened.json()["id"]
            # As stored before such a spec was refused: one `model` beside the panel.
            with api.served.runtime.session() as session:
                evaluation = session.get(Evaluation, evaluation_id)
                assert evaluation is not None
                evaluation.metrics = [{**evaluation.metrics[0], "model": "judge-z"}]
                session.commit()
            appended = client.post(
                f"/v1/evaluations/{evaluation_id}/test_cases", json={"test_cases": cases("x")}
            )
            assert appended.status_code == 202, appended.text
            assert client.post(f"/v1/evaluations/{evaluation_id}/close").status_code == 200
            final = api.wait(client, evaluation_id)
            assert final["status"] == "completed", final
            (row,) = results(client, evaluation_id).values()
        # Each member asked for its own model, as the panel shows and prices them.
        assert sorted(request["model"] for request in judge.requests) == ["judge-a", "judge-b"]
        members = row["stability"]["panel"]
        assert [(m["model"], m["score"]) for m in members] == [("judge-a", 0.9), ("judge-b", 0.2)]
        assert members[1]["reason"] == "judge-b gives x 2."
        assert row["fragile"] is True


class TestStrictMode:
    @pytest.mark.parametrize("aggregate", ["mean", "median", "majority"])
    def test_the_aggregate_is_binary_as_each_judgment_is(
        self, api: Api, judge: ScriptedJudge, aggregate: str
    ) -> None:
        judge.script(Disagreeing({("judge-model", "split"): [1, 0, 1]}))
        spec = {**G_EVAL, "strict_mode": True, "judge": {"samples": 3, "aggregate": aggregate}}
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("split")})
            (row,) = results(client, final["id"]).values()
        assert sorted(row["stability"]["scores"]) == [0.0, 1.0, 1.0]
        assert row["fragile"] is True
        # Strict mode stores 0 or 1: a mean of 2/3 is under the threshold of 1, so 0.
        expected = {"mean": (0.0, False), "median": (1.0, True), "majority": (1.0, True)}
        assert (row["score"], row["passed"]) == expected[aggregate]
        if aggregate == "mean":
            assert row["logs"]["unclamped_score"] == pytest.approx(2 / 3)
            assert row["reason"].startswith("Strict mode: the score 0.6667 is under")


# The first answers to G-Eval's score requests so far (the test clears them).
LOCK = threading.Lock()
FIRST_ANSWERS: list[dict] = []


def repaired_once(request: dict) -> Any:
    """G-Eval's scores 8, 8, then a broken answer, whose repair (a request holding the
    judge's own earlier answer) scores 2: the repaired judgment is never the median's."""
    if task_of(request) != "g_eval_score":
        return plausible_answer(request)
    if any(message["role"] == "assistant" for message in request["messages"]):
        return {"reason": "Repaired: 2.", "score": 2}
    with LOCK:
        FIRST_ANSWERS.append(request)
        made = len(FIRST_ANSWERS)
    return "not JSON" if made % 3 == 0 else {"reason": "Fine: 8.", "score": 8}


class TestCallsOfEveryJudgment:
    def test_a_repair_by_any_judgment_is_named_in_the_results_logs(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        FIRST_ANSWERS.clear()
        judge.script(repaired_once)
        spec = {**G_EVAL, "judge": {"samples": 3}}
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("x")})
            (row,) = results(client, final["id"]).values()
        assert sorted(row["stability"]["scores"]) == [0.2, 0.8, 0.8]
        assert row["reason"] == "Fine: 8."
        # Four calls for three judgments: the fourth, a repair, is named though the result
        # speaks with another judgment's logs.
        assert row["usage"]["calls"] == len(judge.requests) == 4
        assert row["logs"]["repaired_calls"] == ["score"]
        assert row["logs"]["cached_calls"] == 0

    def test_a_means_logs_name_its_judge_and_its_position_bias(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # "A" whichever output is shown first: every judgment's two orders disagree.
        judge.script(lambda request: {"reason": "The first.", "winner": "A"})
        case = {**cases("x")[0], "metadata": {"other": "another answer"}}
        spec = {
            "type": "pairwise",
            "criteria": "Better.",
            "second_output": "metadata.other",
            "judge": {"samples": 3, "aggregate": "mean"},
        }
        with api.tenant_client() as client:
            final = evaluated(api, client, {"metrics": [spec], "test_cases": [case]})
            (row,) = results(client, final["id"]).values()
        assert row["score"] == 0.5
        assert final["per_metric"][0]["position_inconsistent"] == 1
        assert row["logs"]["position_consistent"] is False
        assert row["logs"]["judge"]["model"] == row["logs"]["model"] == "judge-model"
        assert "verdicts" in row["logs"]["nearest_judgment"]


class TestChoiceFaultsInOneAnswer:
    def test_a_model_id_beside_a_panel_is_named_with_the_panels_own_faults(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge_choice = {
            "model_id": "model_missing",
            "panel": [{"weight": 0}, {"model": "judge-b"}],
            "samples": 0,
        }
        body = {"metrics": [{**G_EVAL, "judge": judge_choice}], "test_cases": cases("x")}
        with api.tenant_client() as client:
            for path in ("/v1/evaluations/estimate", "/v1/evaluations"):
                response = client.post(path, json=body)
                assert response.status_code == 422, response.text
                errors = {(e["loc"], e["msg"]) for e in response.json()["errors"]}
                assert {loc for loc, _ in errors} >= {
                    "metrics[0].judge",
                    "metrics[0].judge.samples",
                    "metrics[0].judge.panel[0].weight",
                    "metrics[0].judge.model_id",
                }
                assert ("metrics[0].judge", "name either `model_id` or a `panel`, not both") in (
                    errors
                )


class TestWeightedMajority:
    def test_a_tie_of_weights_fails_whatever_floats_make_of_them(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(
            Disagreeing({("judge-a", "x"): [9], ("judge-b", "x"): [8], ("judge-model", "x"): [1]})
        )
        with api.tenant_client() as client:
            ids = [register(client, judge, name) for name in ("judge-a", "judge-b")]
            panel = [
                {"model_id": ids[0], "weight": 0.1},
                {"model_id": ids[1], "weight": 0.2},
                {"weight": 0.3},
            ]
            spec = {**G_EVAL, "judge": {"panel": panel, "aggregate": "majority"}}
            final = evaluated(api, client, {"metrics": [spec], "test_cases": cases("x")})
            (row,) = results(client, final["id"]).values()
        # 0.1 + 0.2 passing against 0.3 failing is a tie (in floats 0.30000000000000004
        # outweighed 0.3): it fails, its score the failing side's.
        assert row["stability"]["passed"] == 2
        assert (row["passed"], row["score"]) == (False, 0.1)
        assert row["reason"] == "judge-model gives x 1."
