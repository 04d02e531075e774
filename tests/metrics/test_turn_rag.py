"""turn_faithfulness and turn_contextual_relevancy against the scripted judge: which turns are
judged (each once), the formula on the verdicts, windows, images, and answers that do not fit."""

import re
from types import SimpleNamespace

import pytest

from app.evaluations import case_schemas
from app.metrics import _turn_rag as turn_rag
from app.metrics import parse_spec, plan
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import by_task, case, run_metric, user_text

FAITH = {"type": "turn_faithfulness"}
RELEVANCY = {"type": "turn_contextual_relevancy"}
PNG = "data:image/png;base64,iVBORw0KGgo="
GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
JPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRg=="


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def user(content) -> dict:
    return {"role": "user", "content": content}


def assistant(content, context=None) -> dict:
    turn = {"role": "assistant", "content": content}
    if context is not None:
        turn["retrieval_context"] = context
    return turn


def conversation(*turns: dict, **fields):
    return case(input=None, turns=list(turns), **fields)


# Turns 2 and 4 have retrieval context; turn 6 does not.
TURNS = (
    user("Where is the Louvre?"),
    assistant("The Louvre is in Paris.", ["The Louvre is a museum in Paris."]),
    user("When does it open?"),
    assistant("It opens at 9. It closes at 6.", ["The Louvre opens at 9:00.", "Closed Tuesdays."]),
    user("Thanks!"),
    assistant("You're welcome."),
)


def judged_turn(request: dict) -> int:
    """The turn a verdicts request is about."""
    text = user_text(request)
    found = re.search(r"The turn to judge:\nTurn (\d+)", text) or re.search(
        r"Retrieval context of turn (\d+)", text
    )
    assert found, text
    return int(found.group(1))


def claims_by_turn(answers: dict[int, tuple[str, ...]]):
    def respond(request: dict) -> dict:
        values = answers[judged_turn(request)]
        return {
            "claims": [
                {"claim": f"claim {i}", "verdict": v, "reason": f"because {v}"}
                for i, v in enumerate(values)
            ]
        }

    return respond


def nodes_by_turn(answers: dict[int, tuple[str, ...]]):
    def respond(request: dict) -> dict:
        values = answers[judged_turn(request)]
        return {
            "nodes": [
                {"node": n, "verdict": v, "reason": f"node {n} {v}"}
                for n, v in enumerate(values, start=1)
            ]
        }

    return respond


def faith_script(judge: ScriptedJudge, answers: dict[int, tuple[str, ...]]) -> None:
    judge.script(
        by_task(
            {
                "faithfulness_truths": {"truths": ["The Louvre is in Paris."]},
                "turn_faithfulness_verdicts": claims_by_turn(answers),
            }
        )
    )


class TestTurnFaithfulness:
    @pytest.mark.parametrize(
        ("penalize", "expected"),
        [(False, ((1 + 1 + 0) / 3 + 1 / 2) / 2), (True, ((1 + 0 + 0) / 3 + 1 / 2) / 2)],
    )
    def test_mean_over_judged_turns(self, judge: ScriptedJudge, penalize, expected) -> None:
        faith_script(judge, {2: ("yes", "idk", "no"), 4: ("yes", "no")})
        spec = {**FAITH, "penalize_ambiguous_claims": penalize}
        result = run_metric(judge, spec, conversation(*TURNS))
        assert result.error is None
        assert result.score == pytest.approx(expected)
        pins = result.logs["turns"]
        assert [p["turn"] for p in pins] == [2, 4]
        assert pins[0]["verdict"] == pytest.approx(2 / 3 if not penalize else 1 / 3)
        assert pins[0]["claims"] == ["claim 0", "claim 1", "claim 2"]
        assert [v["verdict"] for v in pins[1]["verdicts"]] == ["yes", "no"]
        # Two distinct contexts, two judged turns; no reason or synthesis call.
        assert result.usage.calls == 4
        assert {task_of(r) for r in judge.requests} == {
            "faithfulness_truths",
            "turn_faithfulness_verdicts",
        }
        assert result.reason.startswith(f"Mean {expected:.2f} over turns 2 and 4.")
        assert "turn 2: 1 of 3 claims supported, 1 contradicted" in result.reason
        assert "'claim 1' (because no)" in result.reason

    def test_each_turn_is_judged_once_whatever_the_window(self, judge: ScriptedJudge) -> None:
        turns = []
        for n in range(5):
            turns += [user(f"question {n}"), assistant(f"answer {n}", [f"doc {n}"])]
        faith_script(judge, {2 * n + 2: ("yes",) for n in range(5)})
        result = run_metric(judge, {**FAITH, "window_size": 3}, conversation(*turns))
        verdicts = judge.calls_for("turn_faithfulness_verdicts")
        assert sorted(judged_turn(r) for r in verdicts) == [2, 4, 6, 8, 10]
        assert result.score == 1.0 and result.usage.calls == 10

    def test_turns_with_one_context_share_its_truths(self, judge: ScriptedJudge) -> None:
        same = ["The Louvre is a museum in Paris."]
        faith_script(judge, {2: ("yes",), 4: ("no",)})
        turns = (user("a"), assistant("b", same), user("c"), assistant("d", same))
        result = run_metric(judge, FAITH, conversation(*turns))
        assert len(judge.calls_for("faithfulness_truths")) == 1
        assert result.usage.calls == 3
        assert result.score == 0.5
        assert [p["truths_shared"] for p in result.logs["turns"]] == [False, True]

    def test_earlier_turns_are_shown_within_the_window(self, judge: ScriptedJudge) -> None:
        faith_script(judge, {2: ("yes",), 4: ("yes",)})
        run_metric(judge, {**FAITH, "window_size": 1}, conversation(*TURNS))
        sent = {judged_turn(r): user_text(r) for r in judge.calls_for("turn_faithfulness_verdicts")}
        assert "When does it open?" in sent[4] and "Where is the Louvre?" not in sent[4]
        assert "You're welcome" not in sent[4]
        judge.reset()
        faith_script(judge, {2: ("yes",), 4: ("yes",)})
        run_metric(judge, FAITH, conversation(*TURNS))
        sent = {judged_turn(r): user_text(r) for r in judge.calls_for("turn_faithfulness_verdicts")}
        assert "Where is the Louvre?" in sent[4] and "The Louvre is in Paris." in sent[4]
        assert "When does it open?" not in sent[2]

    def test_every_image_reaches_the_judge(self, judge: ScriptedJudge) -> None:
        faith_script(judge, {2: ("yes",)})
        turns = (
            user(["What is on this label?", image(PNG)]),
            assistant(["It says 12 mg, as here:", image(GIF)], [["The label:", image(JPEG)]]),
        )
        result = run_metric(judge, FAITH, conversation(*turns))
        assert result.error is None
        assert image_parts(judge.calls_for("faithfulness_truths")[0]) == [JPEG]
        verdicts = judge.calls_for("turn_faithfulness_verdicts")[0]
        assert image_parts(verdicts) == [PNG, GIF]
        rule = "the truths say nothing about at all is `no`"
        assert rule in user_text(verdicts)
        judge.reset()
        faith_script(judge, {2: ("yes",), 4: ("yes",)})
        run_metric(judge, FAITH, conversation(*TURNS))
        assert rule not in user_text(judge.calls_for("turn_faithfulness_verdicts")[0])

    def test_a_turn_without_claims_scores_one(self, judge: ScriptedJudge) -> None:
        faith_script(judge, {2: (), 4: ("no",)})
        result = run_metric(judge, FAITH, conversation(*TURNS))
        assert result.score == 0.5
        assert result.logs["turns"][0]["reason"] == "makes no factual claims"

    def test_truths_limit_is_enforced(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "faithfulness_truths": {"truths": ["first", "second", "third"]},
                    "turn_faithfulness_verdicts": claims_by_turn({2: ("yes",), 4: ("yes",)}),
                }
            )
        )
        result = run_metric(judge, {**FAITH, "truths_extraction_limit": 2}, conversation(*TURNS))
        assert result.logs["turns"][0]["truths"] == ["first", "second"]
        assert "third" not in user_text(judge.calls_for("turn_faithfulness_verdicts")[0])

    def test_unreadable_verdicts_are_a_judge_error(self, judge: ScriptedJudge) -> None:
        faith_script(judge, {2: ("maybe",), 4: ("yes",)})
        result = run_metric(judge, FAITH, conversation(*TURNS))
        assert (result.score, result.error.type) == (None, "judge_malformed")
        assert "'maybe'" in result.error.message

    def test_strict_mode_is_zero_unless_every_turn_is_faithful(self, judge: ScriptedJudge) -> None:
        faith_script(judge, {2: ("yes",), 4: ("yes", "no")})
        result = run_metric(judge, {**FAITH, "strict_mode": True}, conversation(*TURNS))
        assert (result.score, result.passed) == (0.0, False)

    def test_no_judged_turn_is_an_error_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, FAITH, conversation(user("hi"), assistant("hello", [])))
        assert (result.score, result.error.type) == (None, "missing_retrieval_context")
        assert judge.requests == []

    def test_plan_is_the_calls_made(self, judge: ScriptedJudge) -> None:
        same = ["The Louvre is a museum in Paris."]
        turns = (user("a"), assistant("b", same), user("c"), assistant("d", same))
        planned = plan(parse_spec(FAITH), conversation(*turns))
        assert [c.task for c in planned] == [
            "faithfulness_truths",
            "turn_faithfulness_verdicts",
            "faithfulness_truths",
            "turn_faithfulness_verdicts",
        ]
        assert planned[0].shared == planned[2].shared  # the estimate counts one truths call
        faith_script(judge, {2: ("yes",), 4: ("yes",)})
        run_metric(judge, FAITH, conversation(*turns))
        made = judge.calls_for("turn_faithfulness_verdicts")
        assert len(made) == 2


class TestJudgedTurns:
    @pytest.mark.parametrize("spec", [FAITH, RELEVANCY])
    def test_a_conversation_without_retrieval_context_is_refused(self, spec) -> None:
        parsed = parse_spec(spec)
        bare = case_schemas.TestCaseCreate(turns=[user("hi"), assistant("hello")])
        problems = parsed.test_case_problems(bare)
        assert [field for field, _ in problems] == ["turns"]
        assert "retrieval_context" in problems[0][1]
        # Only on a user turn, or on a greeting before any user turn: still nothing to judge.
        misplaced = case_schemas.TestCaseCreate(
            turns=[
                assistant("Welcome", ["doc"]),
                {"role": "user", "content": "hi", "retrieval_context": ["doc"]},
                assistant("hello"),
            ]
        )
        assert [field for field, _ in parsed.test_case_problems(misplaced)] == ["turns"]

    @pytest.mark.parametrize("spec", [FAITH, RELEVANCY])
    def test_one_turn_with_context_is_enough(self, spec) -> None:
        parsed = parse_spec(spec)
        images = case_schemas.TestCaseCreate(
            turns=[user("hi"), assistant("a"), user("b"), assistant("c", [["x", image(PNG)]])]
        )
        assert parsed.test_case_problems(images) == []
        # A single-turn case is the shape check's to name; other callers' stand-ins lack turns.
        assert parsed.test_case_problems(SimpleNamespace(input="q")) == []

    def test_window_size_counts_exchanges_and_is_bounded(self) -> None:
        assert parse_spec(FAITH).window_size == 10
        with pytest.raises(ValueError):
            parse_spec({**RELEVANCY, "window_size": 0})


class TestTurnContextualRelevancy:
    def test_mean_of_relevant_nodes_over_judged_turns(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "turn_contextual_relevancy_verdicts": nodes_by_turn(
                        {2: ("yes",), 4: ("yes", "no")}
                    )
                }
            )
        )
        result = run_metric(judge, RELEVANCY, conversation(*TURNS))
        assert result.error is None
        assert result.score == pytest.approx((1 + 1 / 2) / 2)
        pins = result.logs["turns"]
        assert [(p["turn"], p["verdict"]) for p in pins] == [(2, 1.0), (4, 0.5)]
        assert [n["verdict"] for n in pins[1]["nodes"]] == ["yes", "no"]
        assert result.usage.calls == 2  # one per judged turn, no reason call
        said = "turn 4: 1 of 2 retrieval-context nodes relevant: not node 2 (passage 2, text)"
        assert f"{said}: node 2 no" in result.reason

    def test_the_request_and_earlier_turns_are_shown_not_the_answer(
        self, judge: ScriptedJudge
    ) -> None:
        judge.script(
            by_task(
                {
                    "turn_contextual_relevancy_verdicts": nodes_by_turn(
                        {2: ("yes",), 4: ("yes", "yes")}
                    )
                }
            )
        )
        run_metric(judge, RELEVANCY, conversation(*TURNS))
        sent = {
            judged_turn(r): user_text(r)
            for r in judge.calls_for("turn_contextual_relevancy_verdicts")
        }
        assert "When does it open?" in sent[4] and "Where is the Louvre?" in sent[4]
        assert "It opens at 9" not in sent[4]
        assert (
            "Node 1: The Louvre opens at 9:00." in sent[4] and "Node 2: Closed Tuesdays." in sent[4]
        )
        assert "the user's request in turn 3" in sent[4]

    def test_image_nodes_and_images_in_turns_reach_the_judge(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task({"turn_contextual_relevancy_verdicts": nodes_by_turn({2: ("yes", "no")})})
        )
        turns = (
            user(["Which pill is this?", image(PNG)]),
            assistant("An aspirin.", [["Aspirin tablets:", image(JPEG)]]),
        )
        result = run_metric(judge, RELEVANCY, conversation(*turns))
        assert image_parts(judge.requests[0]) == [PNG, JPEG]
        assert [n["kind"] for n in result.logs["turns"][0]["nodes"]] == ["text", "image"]
        assert result.score == 0.5

    def test_nodes_name_the_passage_the_user_submitted(self, judge: ScriptedJudge) -> None:
        # Two passages, the second a caption and an image: three nodes for the judge.
        judge.script(
            by_task(
                {"turn_contextual_relevancy_verdicts": nodes_by_turn({2: ("yes", "yes", "no")})}
            )
        )
        context = ["Aspirin is a painkiller.", ["Ibuprofen tablets:", image(JPEG)]]
        turns = (user("What is aspirin?"), assistant("A painkiller.", context))
        result = run_metric(judge, RELEVANCY, conversation(*turns))
        (pin,) = result.logs["turns"]
        assert [(n["node"], n["passage"], n["kind"]) for n in pin["nodes"]] == [
            (1, 1, "text"),
            (2, 2, "text"),
            (3, 2, "image"),
        ]
        assert pin["reason"] == (
            "2 of 3 retrieval-context nodes (from 2 passages) relevant: "
            "not node 3 (passage 2, image): node 3 no"
        )
        assert "not node 3 (passage 2, image): node 3 no" in result.reason

    @pytest.mark.parametrize(
        ("numbers", "message"),
        [
            ((1,), "no verdict for node 2"),
            ((1, 2, 3), "node 3 was not asked about"),
            ((1, 1), "node 1 judged more than once"),
        ],
    )
    def test_a_wrong_verdict_count_is_repaired_then_an_error(
        self, judge: ScriptedJudge, numbers, message
    ) -> None:
        answer = {"nodes": [{"node": n, "verdict": "yes"} for n in numbers]}
        judge.script(by_task({"turn_contextual_relevancy_verdicts": answer}))
        turns = (user("q"), assistant("a", ["one", "two"]))
        result = run_metric(judge, RELEVANCY, conversation(*turns))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert message in result.error.message
        assert result.usage.calls == 2  # the reply and one repair request

    def test_a_repaired_answer_is_scored(self, judge: ScriptedJudge) -> None:
        answers = iter(
            [
                {"nodes": [{"node": 1, "verdict": "yes"}]},
                {"nodes": [{"node": 1, "verdict": "yes"}, {"node": 2, "verdict": "no"}]},
            ]
        )
        judge.script(by_task({"turn_contextual_relevancy_verdicts": lambda _: next(answers)}))
        result = run_metric(judge, RELEVANCY, conversation(user("q"), assistant("a", ["x", "y"])))
        assert (result.score, result.usage.calls) == (0.5, 2)
        assert result.logs["repaired_calls"] == ["turn 2 verdicts"]

    def test_only_yes_or_no(self, judge: ScriptedJudge) -> None:
        answer = {"nodes": [{"node": 1, "verdict": "idk"}]}
        judge.script(by_task({"turn_contextual_relevancy_verdicts": answer}))
        result = run_metric(judge, RELEVANCY, conversation(user("q"), assistant("a", ["x"])))
        assert result.error.type == "judge_malformed"
        assert "idk" not in judge.requests[0]["messages"][0]["content"]

    def test_plan_is_one_call_per_judged_turn(self) -> None:
        planned = plan(parse_spec(RELEVANCY), conversation(*TURNS))
        assert [c.task for c in planned] == ["turn_contextual_relevancy_verdicts"] * 2
        assert planned[1].completion.items == 2


class TestMeanOfTurns:
    def test_a_mean_equal_to_a_threshold_is_that_threshold(self) -> None:
        # Three judged turns, 0, 0 and 3 of 5 claims faithful: a mean of exactly 0.2 (floats
        # summed in turn made 0.19999999999999998, under a threshold of 0.2).
        assert turn_rag.mean([0.0, 0.0, 3 / 5]) == 0.2
        assert turn_rag.mean([2 / 3, 1.0]) == 5 / 6
        assert turn_rag.mean([1 / 7] * 7) == 1 / 7
