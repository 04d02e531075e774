"""knowledge_retention and role_adherence through POST /v1/evaluations, the workers and the
scripted judge: every image of every turn reaches each call, in turn order; the score is the
formula on the stand-in's verdicts; a turn left unanswered is one repair, then the stored error;
a conversation without chatbot_role is refused naming the case and the field."""

import base64
import io
import json
import re
from typing import Any

import pytest
from PIL import Image

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import BLUE, RED, all_results, image, png, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text

FACTS = "knowledge_retention_facts"
RETENTION = "knowledge_retention_verdicts"
ROLE = "role_adherence_verdicts"
ROLE_TEXT = "A travel agent for Nordic Air who only talks about bookings."


def conversation(case_id: str = "trip", **fields: Any) -> dict[str, Any]:
    """A booking: a passport photo in turn 1, a boarding pass drawn in turn 2, the date
    corrected in turn 3 and forgotten in turn 4 (its tool call books the old date)."""
    return {
        "id": case_id,
        "turns": [
            {"role": "user", "content": ["Book me to Oslo on 5 May. My passport:", image(RED)]},
            {"role": "assistant", "content": ["Booked. Your boarding pass:", image(BLUE)]},
            {"role": "user", "content": "Sorry, make it 6 May."},
            {
                "role": "assistant",
                "content": "Changed.",
                "tools_called": [
                    {"name": "rebook", "input_parameters": {"city": "Oslo", "date": "5 May"}}
                ],
            },
            {"role": "user", "content": "And tell me a joke."},
            {"role": "assistant", "content": "Why did the chicken cross the road?"},
        ],
        "chatbot_role": ROLE_TEXT,
        **fields,
    }


def listed(request: dict, label: str) -> list[int]:
    found = re.search(rf"{label}: ([\d, ]+)", user_text(request))
    return [int(n) for n in found.group(1).split(", ")]


def facts(request: dict) -> dict:
    said = {1: ["The user flies to Oslo on 5 May."], 3: ["The flight is on 6 May."], 5: []}
    return {"turns": [{"turn": n, "facts": said[n]} for n in listed(request, "User turns to read")]}


def retention(request: dict) -> dict:
    """The stand-in forgets the correction in turn 4 (it saw the tool call's arguments)."""
    forgot = 'rebook({"city": "Oslo", "date": "5 May"})' in user_text(request)
    return {
        "verdicts": [
            {
                "turn": n,
                "verdict": "no" if n == 4 and forgot else "yes",
                "reason": "rebooked 5 May though turn 3 said 6 May" if n == 4 else None,
            }
            for n in listed(request, "Assistant turns to judge")
        ]
    }


def role(request: dict) -> dict:
    """The stand-in: the joke in turn 6 leaves the role."""
    return {
        "verdicts": [
            {
                "turn": n,
                "verdict": "no" if n == 6 else "yes",
                "reason": "tells a joke, not about bookings" if n == 6 else None,
            }
            for n in listed(request, "Assistant turns to judge")
        ]
    }


def answer(request: dict) -> dict:
    return {FACTS: facts, RETENTION: retention, ROLE: role}[task_of(request)](request)


def image_sizes(request: dict) -> list[tuple[int, int]]:
    """The pixel sizes of a request's images, in the order they were sent."""
    sizes = []
    for url in image_parts(request):
        assert url.startswith("data:image/")
        data = base64.b64decode(url.split(",", 1)[1])
        sizes.append(Image.open(io.BytesIO(data)).size)
    return sizes


def formula(pins: list[dict]) -> float:
    verdicts = [pin["verdict"] for pin in pins]
    return verdicts.count("yes") / len(verdicts)


METRICS = [{"type": "knowledge_retention"}, {"type": "role_adherence"}]
SAND = png("yellow", (20, 10))


class TestScores:
    def test_the_formula_on_the_judges_verdicts_with_every_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [conversation()], "metrics": METRICS})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = {row["metric"]: row for row in all_results(client, final["id"])}

        kept = rows["knowledge_retention"]
        assert [(p["turn"], p["verdict"]) for p in kept["logs"]["turns"]] == [
            (2, "yes"),
            (4, "no"),
            (6, "yes"),
        ]
        assert kept["score"] == pytest.approx(formula(kept["logs"]["turns"]))
        assert kept["score"] == pytest.approx(2 / 3)
        assert kept["logs"]["facts"][1] == {"turn": 3, "facts": ["The flight is on 6 May."]}
        assert "turn 4: rebooked 5 May though turn 3 said 6 May" in kept["reason"]
        assert kept["usage"]["calls"] == 2

        stayed = rows["role_adherence"]
        assert [(p["turn"], p["verdict"]) for p in stayed["logs"]["turns"]] == [
            (2, "yes"),
            (4, "yes"),
            (6, "no"),
        ]
        assert stayed["score"] == pytest.approx(formula(stayed["logs"]["turns"]))
        assert "turn 6: tells a joke, not about bookings" in stayed["reason"]
        assert stayed["usage"]["calls"] == 1
        assert ROLE_TEXT in user_text(judge.calls_for(ROLE)[0])

        # Every call sees the user's photo (16x12) then the assistant's drawing (12x16).
        for task in (FACTS, RETENTION, ROLE):
            (request,) = judge.calls_for(task)
            assert image_sizes(request) == [(16, 12), (12, 16)], task
        verdicts_call = user_text(judge.calls_for(RETENTION)[0])
        assert "Turn 3: The flight is on 6 May." in verdicts_call

    def test_a_last_user_turn_no_one_answered_is_not_sent(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # Its facts can be forgotten by no turn, and no judged turn comes after it: neither
        # its text nor its photo (20x10) reaches either metric's calls.
        case = conversation()
        case["turns"].append({"role": "user", "content": ["One more: where is this?", image(SAND)]})
        judge.script(answer)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [case], "metrics": METRICS})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        for task in (FACTS, RETENTION, ROLE):
            (request,) = judge.calls_for(task)
            assert image_sizes(request) == [(16, 12), (12, 16)], task
            assert "Turn 7" not in user_text(request) and "One more" not in user_text(request)

    def test_the_estimate_is_the_calls_the_run_makes(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        body = {"test_cases": [conversation()], "metrics": METRICS}
        client = api.tenant_client()
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200, estimate.text
        final = submit(api, client, body)
        # knowledge_retention: facts, then verdicts; role_adherence: one call.
        assert estimate.json()["calls"] == final["usage"]["calls"] == len(judge.requests) == 3

    def test_no_fact_scores_one_with_one_call(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(
            lambda request: {"turns": [{"turn": 1, "facts": []}, {"turn": 3, "facts": []}]}
        )
        chat = {
            "turns": [
                {"role": "user", "content": "Hello!"},
                {"role": "assistant", "content": "Hi, how can I help?"},
                {"role": "user", "content": "Just saying hi."},
                {"role": "assistant", "content": "Nice!"},
            ]
        }
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": [chat], "metrics": [{"type": "knowledge_retention"}]}
        )
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["passed"], result["usage"]["calls"]) == (1.0, True, 1)
        assert "states no fact" in result["reason"] and result["logs"]["turns"] == []


class TestUnansweredTurns:
    def test_a_turn_left_unjudged_is_repaired_once_then_stored_as_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def partial(request: dict) -> dict:
            if task_of(request) == FACTS:
                return facts(request)
            return {"verdicts": [{"turn": 2, "verdict": "yes"}]}

        judge.script(partial)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [conversation()], "metrics": METRICS})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 2
        rows = {row["metric"]: row for row in all_results(client, final["id"])}
        for metric, calls in (("knowledge_retention", 3), ("role_adherence", 2)):
            result = rows[metric]
            assert (result["score"], result["passed"]) == (None, None), metric
            assert result["error"]["type"] == "invalid_answer"
            assert "no verdict for turn 4, 6" in result["error"]["message"]
            assert result["usage"]["calls"] == calls
        # The repair request tells the judge which turns it left out.
        assert len(judge.calls_for(ROLE)) == 2
        assert "no verdict for turn 4, 6" in user_text(judge.calls_for(ROLE)[1])

    def test_a_repaired_answer_is_scored(self, api: Api, judge: ScriptedJudge) -> None:
        partial = {"verdicts": [{"turn": 2, "verdict": "yes"}]}
        judge.sequence(json.dumps(partial), json.dumps(role(judge_request_for_turns(2, 4, 6))))
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": [conversation()], "metrics": [{"type": "role_adherence"}]},
        )
        (result,) = all_results(client, final["id"])
        assert result["error"] is None and result["score"] == pytest.approx(2 / 3)
        assert result["logs"]["repaired_calls"] == ["verdicts"]
        assert result["usage"]["calls"] == 2


def judge_request_for_turns(*turns: int) -> dict:
    """A request as the stand-in reads it, asking about `turns`."""
    text = f"Assistant turns to judge: {', '.join(map(str, turns))}"
    return {"messages": [{"role": "user", "content": text}]}


class TestRequiredFields:
    def test_a_conversation_without_chatbot_role_is_refused_naming_it(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        body = {
            "test_cases": [conversation("with-role"), conversation("without", chatbot_role=None)],
            "metrics": METRICS,
        }
        details = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        locs = error_locs(details)
        assert locs == ["test_cases[1].chatbot_role"]
        assert any("role_adherence" in error["msg"] for error in details["errors"])
        assert judge.requests == []
