"""conversational_g_eval and task_completion through POST /v1/evaluations, the workers and the
scripted judge: every image of every turn reaches the judge, the score is the formula on the
stand-in's answer, an answer that does not fit is repaired once, then stored as the error."""

import json
from typing import Any

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, logprob_tokens, task_of
from tests.fixtures.metrics import user_text

STEPS = "conversational_g_eval_steps"
SCORE = "conversational_g_eval_score"
TASK = "task_completion"
RUBRIC = [
    {"score_range": [0, 2], "expected_outcome": "The user is left without what they asked."},
    {"score_range": [3, 5], "expected_outcome": "The user gets what they asked."},
]
G_EVAL = {
    "type": "conversational_g_eval",
    "name": "helpful",
    "criteria": "Does the assistant get the user a booking for the hotel in the photo?",
    "evaluation_params": ["content", "tools_called", "scenario"],
    "rubric": RUBRIC,
}


def conversation(case_id: str = "chat") -> dict[str, Any]:
    """A photo from the user, a tool call, a picture in the assistant's last answer."""
    return {
        "id": case_id,
        "scenario": "A traveller books by photo.",
        "expected_outcome": "A room at the hotel in the photo for Friday.",
        "turns": [
            {"role": "user", "content": ["Book this hotel for Friday", image(RED)]},
            {
                "role": "assistant",
                "content": "Checking availability.",
                "tools_called": [
                    {
                        "name": "book_hotel",
                        "input_parameters": {"day": "Friday"},
                        "output": {"confirmation": "K42"},
                    }
                ],
            },
            {"role": "user", "content": "Where is it?"},
            {"role": "assistant", "content": ["Booked (K42); here is the map:", image(BLUE)]},
        ],
    }


def scored(score: int, alternatives: dict[str, float] | None = None) -> Reply:
    """A score answer citing turns 2 and 4, with digit probabilities at the score token."""
    content = json.dumps(
        {
            "reason": "The booking is made and confirmed.",
            "turns": [
                {"turn": 4, "note": "confirms K42"},
                {"turn": 2, "note": "books Friday"},
            ],
            "score": score,
        }
    )
    position = content.rindex(str(score))
    return Reply(
        content=content,
        logprobs=logprob_tokens(content, {position: alternatives} if alternatives else None),
    )


def completion(verdict: float = 0.75) -> dict[str, Any]:
    return {
        "task": "Book the hotel in the photo for Friday.",
        "outcome": "book_hotel confirmed K42 for Friday; a map was sent.",
        "turns": [{"turn": 2, "note": "the booking call"}],
        "reason": "Booked as asked.",
        "verdict": verdict,
    }


def answers(score: Reply | None = None, verdict: float = 0.75):
    def respond(request: dict) -> Reply | dict:
        task = task_of(request)
        if task == STEPS:
            return {"steps": ["Find the hotel asked for.", "Check that it was booked."]}
        if task == SCORE:
            return score or scored(4)
        if task == TASK:
            return completion(verdict)
        raise AssertionError(f"unexpected task {task!r}")

    return respond


def by_metric(client: Any, evaluation_id: str) -> dict[str, dict]:
    return {row["metric"]: row for row in all_results(client, evaluation_id)}


class TestConversationalGEval:
    def test_the_rubric_normalised_weighted_score_with_every_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answers(scored(4, {"4": 0.5, "5": 0.3, "3": 0.2})))
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": [conversation("a"), conversation("b")], "metrics": [G_EVAL]}
        )
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        results = all_results(client, final["id"])
        # Σ v·p / Σ p = 4·0.5 + 5·0.3 + 3·0.2 = 4.1 on the rubric's 0 to 5 (deepeval: 4/10).
        assert [r["score"] for r in results] == [pytest.approx(4.1 / 5)] * 2
        first = results[0]
        assert first["logs"]["score_mode"] == "logprob_weighted"
        assert [(p["turn"], p["verdict"], p["reason"]) for p in first["logs"]["turns"]] == [
            (2, "cited", "books Friday"),
            (4, "cited", "confirms K42"),
        ]
        assert "turn 2: books Friday; turn 4: confirms K42" in first["reason"]
        # Steps once for the evaluation, one scoring call per conversation.
        assert len(judge.calls_for(STEPS)) == 1
        assert image_parts(judge.calls_for(STEPS)[0]) == []
        score_calls = judge.calls_for(SCORE)
        assert len(score_calls) == 2
        for request in score_calls:
            urls = image_parts(request)
            assert len(urls) == 2 and all(url.startswith("data:image/") for url in urls)
            text = user_text(request)
            assert 'book_hotel({"day": "Friday"}) -> {"confirmation": "K42"}' in text
            assert "Scenario:\nA traveller books by photo." in text
            assert "Expected outcome" not in text
            assert "0-2: The user is left without" in text and "to 5" in text

    def test_a_score_outside_the_rubric_is_repaired_once_then_stored_as_the_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answers(scored(8)))
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [conversation()], "metrics": [G_EVAL]})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 1
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "outside the asked range 0 to 5" in result["error"]["message"]
        assert len(judge.calls_for(SCORE)) == 2
        assert "outside the asked range" in user_text(judge.calls_for(SCORE)[1])

    def test_a_case_field_asked_for_and_missing_is_a_422_naming_it(self, api: Api) -> None:
        case = {k: v for k, v in conversation().items() if k != "scenario"}
        body = {"test_cases": [case], "metrics": [G_EVAL]}
        locs = error_locs(problem(api.tenant_client().post("/v1/evaluations", json=body), 422))
        assert locs == ["test_cases[0].scenario"]


class TestTaskCompletion:
    def test_one_call_the_verdict_is_the_score(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answers(verdict=0.75))
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": [conversation()], "metrics": [{"type": "task_completion"}]}
        )
        (result,) = all_results(client, final["id"])
        assert result["score"] == 0.75 and result["passed"] is True
        assert result["usage"]["calls"] == len(judge.requests) == 1
        assert result["logs"]["task"] == "Book the hotel in the photo for Friday."
        assert result["logs"]["turns"] == [
            {"turn": 2, "verdict": "cited", "reason": "the booking call"}
        ]
        assert "turn 2: the booking call" in result["reason"]
        (request,) = judge.calls_for(TASK)
        assert len(image_parts(request)) == 2
        text = user_text(request)
        assert "Expected outcome:\nA room at the hotel in the photo for Friday." in text
        assert 'book_hotel({"day": "Friday"})' in text

    def test_a_single_turn_case_with_its_tool_calls(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(lambda request: {**completion(0.5), "turns": []})
        case = {
            "input": ["Book this hotel for Friday", image(RED)],
            "actual_output": "Booked.",
            "tools_called": [{"name": "book_hotel", "input_parameters": {"day": "Friday"}}],
        }
        client = api.tenant_client()
        body = {"test_cases": [case], "metrics": [{"type": "task_completion", "task": "Book."}]}
        final = submit(api, client, body)
        (result,) = all_results(client, final["id"])
        assert result["score"] == 0.5 and "turns" not in result["logs"]
        assert result["logs"]["task_source"] == "given"
        (request,) = judge.requests
        assert len(image_parts(request)) == 1
        assert 'Tools called:\n- book_hotel({"day": "Friday"})' in user_text(request)

    def test_an_out_of_range_verdict_is_repaired_once_then_stored_as_the_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answers(verdict=1.4))
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": [conversation()], "metrics": [{"type": "task_completion"}]}
        )
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "verdict 1.4 is outside the asked range 0 to 1" in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests) == 2

    def test_a_repaired_verdict_is_scored(self, api: Api, judge: ScriptedJudge) -> None:
        judge.sequence(json.dumps(completion(3)), json.dumps(completion(0.25)))
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": [conversation()], "metrics": [{"type": "task_completion"}]}
        )
        (result,) = all_results(client, final["id"])
        assert result["error"] is None and result["score"] == 0.25
        assert result["logs"]["repaired_calls"] == ["task_completion"]

    def test_a_single_turn_case_without_actual_output_is_a_422(self, api: Api) -> None:
        body = {"test_cases": [{"input": "Book."}], "metrics": [{"type": "task_completion"}]}
        locs = error_locs(problem(api.tenant_client().post("/v1/evaluations", json=body), 422))
        assert locs == ["test_cases[0].actual_output"]


def test_the_estimate_is_the_calls_the_run_makes(api: Api, judge: ScriptedJudge) -> None:
    judge.script(answers())
    body = {
        "test_cases": [conversation("a"), conversation("b")],
        "metrics": [G_EVAL, {"type": "task_completion"}],
    }
    client = api.tenant_client()
    estimate = client.post("/v1/evaluations/estimate", json=body)
    assert estimate.status_code == 200, estimate.text
    final = submit(api, client, body)
    # Steps once, a score per conversation, a task_completion call per conversation.
    assert estimate.json()["calls"] == final["usage"]["calls"] == len(judge.requests) == 5
