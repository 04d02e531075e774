"""turn_faithfulness and turn_contextual_relevancy through POST /v1/evaluations, the workers and
the scripted judge: every image a call needs reaches it (a retrieval context's included), the
score is the formula on the stand-in's verdicts, an answer that leaves a node out is one repair
then the stored error, and a conversation without retrieval context is refused naming it."""

import json
import re
from typing import Any

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import BLUE, RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text

TRUTHS = "faithfulness_truths"
CLAIMS = "turn_faithfulness_verdicts"
NODES = "turn_contextual_relevancy_verdicts"
METRICS = [{"type": "turn_faithfulness"}, {"type": "turn_contextual_relevancy"}]


def conversation(case_id: str = "chat") -> dict[str, Any]:
    """A photo in turn 1; turn 2 answers from a context holding an image; turn 4 from text with
    one off-topic node; turn 6 retrieved nothing."""
    return {
        "id": case_id,
        "turns": [
            {"role": "user", "content": ["What dose is on this box?", image(RED)]},
            {
                "role": "assistant",
                "content": "The box says 12 mg.",
                "retrieval_context": [["The leaflet's photo:", image(BLUE)], "Dose: 12 mg."],
            },
            {"role": "user", "content": "And for children?"},
            {
                "role": "assistant",
                "content": "Children take 6 mg. It is safe from birth.",
                "retrieval_context": ["Children take 6 mg, from age 2.", "Shipping takes 2 days."],
            },
            {"role": "user", "content": "Thanks"},
            {"role": "assistant", "content": "You're welcome."},
        ],
    }


def judged_turn(request: dict) -> int:
    text = user_text(request)
    found = re.search(r"The turn to judge:\nTurn (\d+)", text) or re.search(
        r"Retrieval context of turn (\d+)", text
    )
    assert found, text
    return int(found.group(1))


# The stand-in's verdicts: turn 4's second claim and second node are the bad ones.
CLAIM_VERDICTS = {2: ["yes"], 4: ["yes", "no"]}
NODE_VERDICTS = {2: ["yes", "yes", "yes"], 4: ["yes", "no"]}


def answer(request: dict) -> dict:
    task = task_of(request)
    if task == TRUTHS:
        return {"truths": ["The dose is 12 mg.", "Children take 6 mg from age 2."]}
    if task == CLAIMS:
        values = CLAIM_VERDICTS[judged_turn(request)]
        claims = [{"claim": f"c{i}", "verdict": v, "reason": f"r{i}"} for i, v in enumerate(values)]
        return {"claims": claims}
    if task == NODES:
        values = NODE_VERDICTS[judged_turn(request)]
        nodes = [{"node": n, "verdict": v, "reason": f"n{n}"} for n, v in enumerate(values, 1)]
        return {"nodes": nodes}
    raise AssertionError(f"unexpected task {task!r}")


def results_by_metric(client: Any, evaluation_id: str) -> dict[str, dict]:
    return {row["metric"]: row for row in all_results(client, evaluation_id)}


def faithful_share(pin: dict) -> float:
    verdicts = [v["verdict"] for v in pin["verdicts"]]
    return (verdicts.count("yes") + verdicts.count("idk")) / len(verdicts)


class TestScores:
    def test_the_formula_on_the_judges_verdicts_with_every_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(answer)
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [conversation()], "metrics": METRICS})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = results_by_metric(client, final["id"])

        faith = rows["turn_faithfulness"]
        pins = faith["logs"]["turns"]
        assert [(p["turn"], p["verdict"]) for p in pins] == [(2, 1.0), (4, 0.5)]
        assert [p["verdict"] for p in pins] == [faithful_share(p) for p in pins]
        assert faith["score"] == pytest.approx((1.0 + 0.5) / 2)
        assert "turn 4: 1 of 2 claims supported, 1 contradicted" in faith["reason"]
        assert "turn 2:" not in faith["reason"]  # no contradicted claim there
        assert faith["usage"]["calls"] == 4  # truths for each context, claims for each turn

        relevancy = rows["turn_contextual_relevancy"]
        pins = relevancy["logs"]["turns"]
        assert [(p["turn"], p["verdict"]) for p in pins] == [(2, 1.0), (4, 0.5)]
        assert [[n["kind"] for n in p["nodes"]] for p in pins] == [
            ["text", "image", "text"],
            ["text", "text"],
        ]
        assert relevancy["score"] == pytest.approx((3 / 3 + 1 / 2) / 2)
        # Turn 2's two passages are three nodes (a caption and its photo are one passage).
        assert [[n["passage"] for n in p["nodes"]] for p in pins] == [[1, 1, 2], [1, 2]]
        said = "turn 4: 1 of 2 retrieval-context nodes relevant: not node 2 (passage 2, text): n2"
        assert said in relevancy["reason"]
        assert (
            "turn 2: 3 of 3 retrieval-context nodes (from 2 passages) relevant"
            in (relevancy["reason"])
        )
        assert relevancy["usage"]["calls"] == 2  # one per judged turn

        # Every image a call needs reaches it as an image part; the turn-6 exchange has none.
        (truths_2,) = [r for r in judge.calls_for(TRUTHS) if "leaflet" in user_text(r)]
        assert len(image_parts(truths_2)) == 1  # the context's photo
        claims = {judged_turn(r): r for r in judge.calls_for(CLAIMS)}
        nodes = {judged_turn(r): r for r in judge.calls_for(NODES)}
        assert sorted(claims) == sorted(nodes) == [2, 4]  # each turn judged once
        assert len(image_parts(claims[2])) == 1  # the user's photo, for "this box"
        assert len(image_parts(claims[4])) == 1  # turn 1 is in turn 4's window
        assert len(image_parts(nodes[2])) == 2  # the user's photo and the context's
        assert len(image_parts(nodes[4])) == 1
        every = [url for r in judge.requests for url in image_parts(r)]
        assert every and all(url.startswith("data:image/") for url in every)
        assert all("You're welcome" not in user_text(r) for r in judge.requests)

    def test_the_estimate_is_the_calls_the_run_makes(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(answer)
        body = {"test_cases": [conversation()], "metrics": METRICS}
        client = api.tenant_client()
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200, estimate.text
        final = submit(api, client, body)
        assert estimate.json()["calls"] == final["usage"]["calls"] == len(judge.requests) == 6


def one_turn(context: list) -> dict[str, Any]:
    return {
        "turns": [
            {"role": "user", "content": "Dose?"},
            {"role": "assistant", "content": "12 mg.", "retrieval_context": context},
        ]
    }


class TestAnswersThatDoNotFit:
    def test_a_node_left_out_is_repaired_once_then_stored_as_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: {"nodes": [{"node": 1, "verdict": "yes"}]})
        client = api.tenant_client()
        body = {
            "test_cases": [one_turn(["Dose: 12 mg.", "Shipping: 2 days."])],
            "metrics": [{"type": "turn_contextual_relevancy"}],
        }
        final = submit(api, client, body)
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 1
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "no verdict for node 2" in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests) == 2
        assert "no verdict for node 2" in user_text(judge.requests[1])

    def test_a_repaired_answer_is_scored(self, api: Api, judge: ScriptedJudge) -> None:
        partial = {"nodes": [{"node": 1, "verdict": "yes"}]}
        full = {"nodes": [{"node": 1, "verdict": "yes"}, {"node": 2, "verdict": "no"}]}
        judge.sequence(json.dumps(partial), json.dumps(full))
        client = api.tenant_client()
        body = {
            "test_cases": [one_turn(["Dose: 12 mg.", "Shipping: 2 days."])],
            "metrics": [{"type": "turn_contextual_relevancy"}],
        }
        (result,) = all_results(client, submit(api, client, body)["id"])
        assert result["error"] is None and result["score"] == 0.5
        assert result["logs"]["repaired_calls"] == ["turn 2 verdicts"]

    def test_an_unreadable_claim_verdict_is_repaired_once_then_stored(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def respond(request: dict) -> dict:
            if task_of(request) == TRUTHS:
                return {"truths": ["The dose is 12 mg."]}
            return {"claims": [{"claim": "12 mg", "verdict": "probably"}]}

        judge.script(respond)
        client = api.tenant_client()
        body = {"test_cases": [one_turn(["Dose: 12 mg."])], "metrics": [METRICS[0]]}
        (result,) = all_results(client, submit(api, client, body)["id"])
        assert (result["score"], result["error"]["type"]) == (None, "judge_malformed")
        assert result["usage"]["calls"] == len(judge.requests) == 3  # truths, reply, repair


class TestNoRetrievalContext:
    def test_a_conversation_without_any_is_refused_naming_its_turns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        bare = {
            "turns": [
                {"role": "user", "content": "Dose?"},
                {"role": "assistant", "content": "12 mg.", "retrieval_context": []},
            ]
        }
        body = {"test_cases": [conversation(), bare], "metrics": METRICS}
        details = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        locs = error_locs(details)
        assert locs.count("test_cases[1].turns") == 2  # once per metric
        assert not any(loc.startswith("test_cases[0]") for loc in locs)
        messages = [error["msg"] for error in details["errors"]]
        assert any("'turn_faithfulness'" in m and "retrieval_context" in m for m in messages)
        assert any("'turn_contextual_relevancy'" in m for m in messages)
        assert judge.requests == []

    def test_a_refused_context_is_named_not_called_missing(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # deepeval's shape for a passage ({"context", "source"}) is refused where it stands;
        # the turn has a context, so the metrics do not also say no turn has one (they did,
        # though a single-turn case's refused retrieval_context was never called missing).
        given = {
            "turns": [
                {"role": "user", "content": "Dose?"},
                {
                    "role": "assistant",
                    "content": "12 mg.",
                    "retrieval_context": [{"context": "Dose: 12 mg.", "source": "leaflet"}],
                },
            ]
        }
        bare = {"turns": [given["turns"][0], {"role": "assistant", "content": "12 mg."}]}
        body = {"test_cases": [given, bare], "metrics": METRICS}
        details = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        assert error_locs(details) == [
            "test_cases[0].turns[1].retrieval_context[0]",
            # In the same answer, a case whose turns hold no context is still named.
            "test_cases[1].turns",
            "test_cases[1].turns",
        ]
        assert judge.requests == []

    def test_a_context_of_blank_text_is_no_context(self, api: Api, judge: ScriptedJudge) -> None:
        # Passages that hold no text and no image give the judge nothing to hold a turn to: a
        # conversation whose only context is blank is refused like one with none, and a blank
        # context beside a real one is not judged (no truths call on empty text).
        blank = one_turn(["", "  \n"])
        body = {"test_cases": [blank], "metrics": METRICS}
        locs = error_locs(problem(api.tenant_client().post("/v1/evaluations", json=body), 422))
        assert locs == ["test_cases[0].turns", "test_cases[0].turns"]

        judge.script(answer)
        case = conversation()
        case["turns"][5]["retrieval_context"] = [""]
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": [case], "metrics": METRICS})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        rows = results_by_metric(client, final["id"])
        for metric in ("turn_faithfulness", "turn_contextual_relevancy"):
            assert [p["turn"] for p in rows[metric]["logs"]["turns"]] == [2, 4], metric
        assert len(judge.calls_for(TRUTHS)) == 2


class TestReasons:
    def test_penalized_ambiguous_claims_are_named_with_their_turn(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        def respond(request: dict) -> dict:
            if task_of(request) == TRUTHS:
                return {"truths": ["The dose is 12 mg."]}
            claims = [{"claim": "12 mg", "verdict": "idk", "reason": "no dose in the truths"}]
            return {"claims": claims}

        judge.script(respond)
        client = api.tenant_client()
        spec = {"type": "turn_faithfulness", "penalize_ambiguous_claims": True}
        body = {"test_cases": [one_turn(["Dose: 12 mg."])], "metrics": [spec]}
        (result,) = all_results(client, submit(api, client, body)["id"])
        assert result["score"] == 0.0
        # The reason says why the score is 0: turn 2's claim is not addressed, and counted.
        assert "turn 2: 0 of 1 claims supported" in result["reason"]
        assert "'12 mg' (no dose in the truths)" in result["reason"]
