"""turn_relevancy against the scripted judge: exchanges and windows, what each call shows, the
formula, keyed verdicts (a reply left out is one repair, then the error)."""

import re

import pytest

from app.metrics import parse_spec, plan
from app.metrics.turn_relevancy import blocks, replies
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

SPEC = {"type": "turn_relevancy"}
TASK = "turn_relevancy_verdicts"
PNG = "data:image/png;base64,iVBORw0KGgo="
GIF = "data:image/gif;base64,R0lGODlhAQABAAAAACw="


def turn(role: str, content: object = "") -> dict:
    return {"role": role, "content": content}


def chat(exchanges: int) -> list[dict]:
    """`exchanges` user/assistant pairs: turn 2k-1 asks question k, turn 2k answers it."""
    turns = []
    for k in range(1, exchanges + 1):
        turns += [turn("user", f"question {k}"), turn("assistant", f"answer {k}")]
    return turns


def asked(request: dict) -> list[int]:
    """The reply turns a request asks about, as listed under "Replies to judge"."""
    listed = user_text(request).split("Replies to judge:")[1]
    return [int(n) for n in re.findall(r"^- turn (\d+)", listed, flags=re.MULTILINE)]


def keyed(verdicts: dict[int, str], skip: tuple[int, ...] = ()):
    """A responder giving each asked turn its scripted verdict (`yes` unless told)."""

    def respond(request: dict) -> dict:
        return {
            "verdicts": [
                {"turn": n, "verdict": verdicts.get(n, "yes"), "reason": f"reply {n} reasons"}
                for n in asked(request)
                if n not in skip
            ]
        }

    return by_task({TASK: respond})


class TestExchanges:
    def test_replies_windows_count_exchanges_not_turns(self) -> None:
        turns = [turn(r) for r in ("assistant", "user", "assistant", "user", "user")]
        turns += [turn("assistant"), turn("assistant"), turn("user")]
        found = replies(case(turns=turns), 10)
        # [a,u,a | u,u,a,a | u]: the last user turn is unanswered and not judged.
        assert [(r.exchange, r.turn, r.reply_from, r.asked, r.window) for r in found] == [
            (1, 3, 3, [2], (1, 3)),
            (2, 7, 6, [4, 5], (1, 7)),
        ]
        one = replies(case(turns=turns), 1)
        assert [r.window for r in one] == [(1, 3), (4, 7)]

    def test_blocks_of_window_size_from_the_first_exchange(self) -> None:
        found = replies(case(turns=chat(5)), 2)
        assert [[r.turn for r in block] for block in blocks(found, 2)] == [[2, 4], [6, 8], [10]]
        assert [r.window for r in found] == [(1, 2), (1, 4), (3, 6), (5, 8), (7, 10)]


class TestWhatTheJudgeSees:
    def test_each_call_shows_only_its_replies_windows(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        turns = chat(5) + [turn("user", "unanswered")]
        result = run_metric(judge, {**SPEC, "window_size": 2}, case(turns=turns))
        assert result.error is None
        requests = judge.calls_for(TASK)
        assert [asked(r) for r in requests] == [[2, 4], [6, 8], [10]]
        second = user_text(requests[1])
        # Exchanges 3 and 4 judged, exchange 2 shown as exchange 3's window: turns 3 to 8.
        assert "Turn 3 (user):\nquestion 2" in second
        assert "Turn 8 (assistant):\nanswer 4" in second
        assert "Turn 2 (" not in second and "Turn 9 (" not in second
        assert "- turn 6: answers the user's turn 5; its window is turns 3-6" in second
        assert "- turn 8: answers the user's turn 7; its window is turns 5-8" in second
        assert "Conversation from turn 3" in second
        # The unanswered last user turn is never shown or judged.
        assert all("unanswered" not in user_text(r) for r in requests)
        assert result.usage.calls == 3
        assert result.logs["calls"] == 3

    def test_default_window_judges_up_to_ten_exchanges_in_one_call(
        self, judge: ScriptedJudge
    ) -> None:
        judge.script(keyed({}))
        result = run_metric(judge, SPEC, case(turns=chat(10)))
        assert result.usage.calls == 1
        assert asked(judge.calls_for(TASK)[0]) == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
        judge.reset()
        judge.script(keyed({}))
        assert run_metric(judge, SPEC, case(turns=chat(11))).usage.calls == 2

    def test_a_reply_spanning_turns_and_several_user_messages(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        turns = [turn("user", "hi"), turn("user", "book a table"), turn("assistant", "")]
        turns[2]["tools_called"] = [{"name": "book", "input_parameters": {"people": 2}}]
        turns.append(turn("assistant", "Booked for two."))
        result = run_metric(judge, SPEC, case(turns=turns))
        text = user_text(judge.calls_for(TASK)[0])
        assert "- turn 4 (the reply spans turns 3-4): answers the user's turns 1 and 2" in text
        # A tool-only turn is shown by its call, not as an empty string.
        assert 'book({"people": 2})' in text
        assert [pin["turn"] for pin in result.logs["turns"]] == [4]

    def test_images_of_the_window_reach_the_judge_in_place(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        photo = [
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ]
        drawn = [
            {"type": "text", "text": "Here it is drawn:"},
            {"type": "image_url", "image_url": {"url": GIF}},
        ]
        turns = [turn("user", photo), turn("assistant", drawn)] + chat(1)
        result = run_metric(judge, {**SPEC, "window_size": 1}, case(turns=turns))
        assert result.error is None
        first, second = judge.calls_for(TASK)
        assert image_parts(first) == [PNG, GIF]
        # The image rules only where the prompt shows an image.
        assert "Images count as evidence" in user_text(first)
        assert image_parts(second) == []
        assert "Images count as evidence" not in user_text(second)
        assert "Turn 1" not in user_text(second)

    def test_the_question_is_whether_the_reply_responds(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        run_metric(judge, SPEC, case(turns=chat(1)))
        prompt = user_text(judge.calls_for(TASK)[0])
        assert "Sharing the topic is not enough" in prompt
        assert "completely irrelevant" not in prompt
        assert '"verdict": "yes|no"' in prompt and "borderline" not in prompt


class TestScore:
    @pytest.mark.parametrize(
        ("verdicts", "expected"),
        [({}, 1.0), ({4: "no"}, 2 / 3), ({2: "No.", 4: "no", 6: "no"}, 0.0)],
    )
    def test_yes_over_judged_replies(self, judge: ScriptedJudge, verdicts, expected) -> None:
        judge.script(keyed(verdicts))
        result = run_metric(judge, SPEC, case(turns=chat(3)))
        assert result.error is None
        assert result.score == pytest.approx(expected)
        assert result.passed is (expected >= 0.5)
        pins = result.logs["turns"]
        assert [pin["turn"] for pin in pins] == [2, 4, 6]
        assert [pin["verdict"] for pin in pins] == [
            "no" if n in verdicts else "yes" for n in (2, 4, 6)
        ]
        assert pins[0] == {
            "turn": 2,
            "verdict": pins[0]["verdict"],
            "reason": "reply 2 reasons",
            "exchange": 1,
            "asked": [1],
            "window": [1, 2],
        }

    def test_reason_names_the_turns_without_a_call(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({4: "no"}))
        result = run_metric(judge, SPEC, case(turns=chat(3)))
        assert result.usage.calls == 1
        assert result.reason == (
            "2 of 3 replies respond to what the user asked; score 0.67. "
            "Not responding: turn 4: reply 4 reasons"
        )
        judge.script(keyed({}))
        every = run_metric(judge, SPEC, case(turns=chat(2)))
        assert every.reason == (
            "Every reply responds to what the user asked (turns 2 and 4); score 1.00."
        )

    def test_without_reason(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        result = run_metric(judge, {**SPEC, "include_reason": False}, case(turns=chat(1)))
        assert result.reason is None
        assert '"reason"' not in user_text(judge.calls_for(TASK)[0])

    def test_strict_mode_clamps_below_one(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({4: "no"}))
        result = run_metric(judge, {**SPEC, "strict_mode": True}, case(turns=chat(4)))
        assert (result.score, result.passed, result.threshold) == (0.0, False, 1.0)

    def test_no_answered_exchange_is_not_applicable(self, judge: ScriptedJudge) -> None:
        turns = [turn("assistant", "Hello!"), turn("user", "hi")]
        result = run_metric(judge, SPEC, case(turns=turns))
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "not_applicable"
        assert "no reply to judge" in result.error.message
        assert judge.requests == []
        assert plan(parse_spec(SPEC), case(turns=turns)) == []
        # Refused at submit, naming turns.
        assert parse_spec(SPEC).test_case_problems(case(turns=turns)) == [
            ("turns", "needs an assistant turn answering a user turn (no reply to judge)")
        ]
        assert parse_spec(SPEC).test_case_problems(case(turns=chat(1))) == []


class TestKeyedVerdicts:
    def test_a_reply_left_out_is_repaired_then_an_error(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}, skip=(4,)))
        result = run_metric(judge, SPEC, case(turns=chat(3)))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert "no verdict for reply turn 4" in result.error.message
        assert result.usage.calls == 2  # the answer and one repair request
        assert "no verdict for reply turn 4" in user_text(judge.requests[1])

    def test_a_repaired_answer_is_scored(self, judge: ScriptedJudge) -> None:
        answers = iter(
            [
                {"verdicts": [{"turn": 2, "verdict": "yes"}]},
                {"verdicts": [{"turn": 2, "verdict": "yes"}, {"turn": 4, "verdict": "no"}]},
            ]
        )
        judge.script(by_task({TASK: lambda request: next(answers)}))
        result = run_metric(judge, SPEC, case(turns=chat(2)))
        assert (result.score, result.error) == (0.5, None)
        assert result.logs["repaired_calls"] == ["verdicts_1"]

    def test_a_borderline_verdict_is_malformed(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({2: "borderline"}))
        result = run_metric(judge, SPEC, case(turns=chat(1)))
        assert result.error.type == "judge_malformed"

    def test_one_failing_block_fails_the_result_with_every_call_counted(
        self, judge: ScriptedJudge
    ) -> None:
        judge.script(keyed({}, skip=(6,)))
        result = run_metric(judge, {**SPEC, "window_size": 2}, case(turns=chat(3)))
        assert result.error.type == "invalid_answer"
        assert result.usage.calls == 3  # block 1, block 2 and its repair


class TestPlan:
    def test_plan_is_the_calls_measure_makes(self, judge: ScriptedJudge) -> None:
        judge.script(keyed({}))
        spec = {**SPEC, "window_size": 2}
        test_case = case(turns=chat(3))
        planned = plan(parse_spec(spec), test_case)
        run_metric(judge, spec, test_case)
        assert [call.task for call in planned] == [TASK, TASK]
        assert [call.messages for call in planned] == [r["messages"] for r in judge.requests]


def test_a_turn_named_true_is_refused_not_read_as_turn_one() -> None:
    # JSON's true is an int to a lax parser: a judge naming no turn would be scored on turn 1.
    from pydantic import ValidationError

    from app.metrics._conversation import turn_verdicts_schema
    from app.metrics.conversational_g_eval import CitedTurn

    schema = turn_verdicts_schema("t", (1,), with_reason=False)
    with pytest.raises(ValidationError):
        schema.model_validate({"verdicts": [{"turn": True, "verdict": "yes"}]})
    assert schema.model_validate({"verdicts": [{"turn": 1, "verdict": "yes"}]})
    with pytest.raises(ValidationError):
        CitedTurn.model_validate({"turn": True, "note": "n"})
