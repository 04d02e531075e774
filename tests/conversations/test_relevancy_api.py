"""turn_relevancy and conversation_completeness through POST /v1/evaluations, the workers and the
scripted judge: images of every turn a call needs reach it, the score is the formula on the
stand-in's verdicts, a turn left unanswered is one repair then the stored error."""

import json
import re
from typing import Any

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text

RELEVANCY = "turn_relevancy_verdicts"
COMPLETENESS = "conversation_completeness_intentions"


def conversation(case_id: str = "chat") -> dict[str, Any]:
    """Three exchanges: a photo in the first user turn, a drawing in the second reply, a tool
    call in the third; the user's last message is unanswered."""
    return {
        "id": case_id,
        "turns": [
            {"role": "user", "content": ["Which city is this?", image(RED)]},
            {"role": "assistant", "content": "Paris, by the tower."},
            {"role": "user", "content": "Draw me its outline"},
            {"role": "assistant", "content": ["Here:", image(BLUE)]},
            {"role": "user", "content": "Weather there tomorrow?"},
            {
                "role": "assistant",
                "content": "I like towers.",
                "tools_called": [{"name": "weather", "input_parameters": {"city": "Paris"}}],
            },
            {"role": "user", "content": "Hello?"},
        ],
    }


def asked_replies(request: dict) -> list[int]:
    listed = user_text(request).split("Replies to judge:")[1]
    return [int(n) for n in re.findall(r"^- turn (\d+)", listed, flags=re.MULTILINE)]


def relevancy_verdicts(request: dict) -> dict:
    """The stand-in: a reply is `no` when it talks about towers for a weather question."""
    text = user_text(request)
    answers = []
    for turn in asked_replies(request):
        off = turn == 6 and "I like towers." in text
        answers.append({"turn": turn, "verdict": "no" if off else "yes", "reason": f"r{turn}"})
    return {"verdicts": answers}


def intentions(request: dict) -> dict:
    """The stand-in: one intention per user turn asking something; the weather one unmet."""
    listed = re.search(r"User turns to go through: ([\d, ]+)", user_text(request))
    users = [int(n) for n in listed.group(1).split(", ")]
    said = {
        1: [{"intention": "name the city", "verdict": "yes", "met_in": 2, "reason": "named"}],
        3: [{"intention": "an outline", "verdict": "yes", "met_in": 4, "reason": "drawn"}],
        5: [{"intention": "the weather", "verdict": "no", "met_in": None, "reason": "ignored"}],
        7: [],
    }
    return {"turns": [{"turn": n, "intentions": said[n]} for n in users]}


def answer(request: dict) -> dict:
    task = task_of(request)
    if task == RELEVANCY:
        return relevancy_verdicts(request)
    if task == COMPLETENESS:
        return intentions(request)
    raise AssertionError(f"unexpected task {task!r}")


def results_by_metric(client: Any, evaluation_id: str) -> dict[str, dict]:
    return {row["metric"]: row for row in all_results(client, evaluation_id)}


class TestScores:
    def test_the_formula_on_the_judges_verdicts_with_every_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        metrics = [
            {"type": "turn_relevancy"},
            {"type": "turn_relevancy", "name": "narrow", "window_size": 1},
            {"type": "conversation_completeness"},
        ]
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [conversation()], "metrics": metrics})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = results_by_metric(client, final["id"])

        wide = rows["turn_relevancy"]
        given = [pin["verdict"] for pin in wide["logs"]["turns"]]
        assert (
            wide["score"] == pytest.approx(given.count("yes") / len(given)) == pytest.approx(2 / 3)
        )
        assert [(pin["turn"], pin["verdict"]) for pin in wide["logs"]["turns"]] == [
            (2, "yes"),
            (4, "yes"),
            (6, "no"),
        ]
        assert "Not responding: turn 6: r6" in wide["reason"]
        assert wide["usage"]["calls"] == 1
        assert rows["narrow"]["score"] == pytest.approx(2 / 3)
        assert rows["narrow"]["usage"]["calls"] == 3

        complete = rows["conversation_completeness"]
        assert complete["score"] == pytest.approx(2 / 3)
        assert [(p["turn"], p["verdict"], p["met_in"]) for p in complete["logs"]["turns"]] == [
            (1, "yes", 2),
            (3, "yes", 4),
            (5, "no", None),
        ]
        assert "Not met: turn 5: the weather" in complete["reason"]
        assert complete["usage"]["calls"] == 1

        # Every image of every turn a call shows reaches it, in turn order, as an image part.
        (whole,) = [r for r in judge.calls_for(RELEVANCY) if asked_replies(r) == [2, 4, 6]]
        assert len(image_parts(whole)) == 2
        assert all(url.startswith("data:image/") for url in image_parts(whole))
        (completeness_call,) = judge.calls_for(COMPLETENESS)
        assert len(image_parts(completeness_call)) == 2
        narrow_calls = {
            tuple(asked_replies(r)): r for r in judge.calls_for(RELEVANCY) if r is not whole
        }
        assert len(image_parts(narrow_calls[(2,)])) == 1  # the photo of turn 1
        assert len(image_parts(narrow_calls[(4,)])) == 1  # the drawing of turn 4
        assert image_parts(narrow_calls[(6,)]) == []
        assert 'weather({"city": "Paris"})' in user_text(narrow_calls[(6,)])
        # The unanswered last user turn is not a reply to judge.
        assert all("Hello?" not in user_text(r) for r in judge.calls_for(RELEVANCY))

    def test_the_estimate_is_the_calls_the_run_makes(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        body = {
            "test_cases": [conversation()],
            "metrics": [
                {"type": "turn_relevancy", "window_size": 2},
                {"type": "conversation_completeness"},
            ],
        }
        client = api.tenant_client()
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200, estimate.text
        final = submit(api, client, body)
        # turn_relevancy: ceil(3 / 2) = 2 calls; conversation_completeness: 1.
        assert estimate.json()["calls"] == final["usage"]["calls"] == len(judge.requests) == 3


class TestUnansweredTurns:
    def test_a_reply_left_unjudged_is_repaired_once_then_stored_as_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: {"verdicts": [{"turn": 2, "verdict": "yes"}]})
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": [conversation()], "metrics": [{"type": "turn_relevancy"}]},
        )
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 1
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "no verdict for reply turn 4, 6" in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests) == 2
        assert "no verdict for reply turn 4, 6" in user_text(judge.requests[1])

    def test_a_user_turn_left_out_is_repaired_once_then_stored_as_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: {"turns": [{"turn": 1, "intentions": []}]})
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": [conversation()], "metrics": [{"type": "conversation_completeness"}]},
        )
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "no verdict for user turn 3, 5, 7" in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests) == 2

    def test_a_repaired_answer_is_scored(self, api: Api, judge: ScriptedJudge) -> None:
        partial = {"verdicts": [{"turn": 2, "verdict": "yes"}]}
        judge.sequence(json.dumps(partial), json.dumps(relevancy_verdicts_for(2, 4, 6)))
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": [conversation()], "metrics": [{"type": "turn_relevancy"}]},
        )
        (result,) = all_results(client, final["id"])
        assert result["error"] is None and result["score"] == pytest.approx(2 / 3)
        assert result["logs"]["repaired_calls"] == ["verdicts_1"]


def relevancy_verdicts_for(*turns: int) -> dict:
    return {"verdicts": [{"turn": n, "verdict": "no" if n == 6 else "yes"} for n in turns]}


class TestNothingToJudge:
    def test_conversations_with_nothing_to_judge_are_refused_naming_turns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        body = {
            "test_cases": [
                {
                    "turns": [
                        {"role": "assistant", "content": "Hi!"},
                        {"role": "user", "content": "hey"},
                    ]
                },
                {"turns": [{"role": "assistant", "content": "Welcome."}]},
            ],
            "metrics": [{"type": "turn_relevancy"}, {"type": "conversation_completeness"}],
        }
        details = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        locs = error_locs(details)
        # Both cases have no reply to judge; only the second has no user turn.
        assert locs.count("test_cases[0].turns") == 1
        assert locs.count("test_cases[1].turns") == 2
        messages = [error["msg"] for error in details["errors"]]
        assert any("'turn_relevancy'" in m and "no reply to judge" in m for m in messages)
        assert judge.requests == []
