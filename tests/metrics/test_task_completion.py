"""task_completion: one judge call over a conversation or a single-turn case (no database)."""

from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec, plan
from app.metrics.versions import metric_version
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
SPEC = {"type": "task_completion"}
TURNS = [
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "Book the hotel in this photo for Friday."},
            {"type": "image_url", "image_url": {"url": PNG}},
        ],
    },
    {
        "role": "assistant",
        "content": "Booked.",
        "tools_called": [
            {"name": "book", "input_parameters": {"day": "Friday"}, "output": {"ok": True}}
        ],
    },
]


def answer(verdict=0.75, turns=None, task="Book the hotel for Friday."):
    reply = {"outcome": "A booking was made for Friday.", "reason": "Done.", "verdict": verdict}
    if task is not None:
        reply["task"] = task
    if turns is not None:
        reply["turns"] = turns
    return reply


def conversation(**fields):
    return case(**{"input": None, "turns": TURNS, **fields})


class TestSpec:
    def test_either_shape_and_the_single_turn_fields(self) -> None:
        spec = parse_spec(SPEC)
        assert spec.shape == "either"
        single = SimpleNamespace(turns=None, input=None, actual_output=None)
        assert [name for name, _ in spec.test_case_problems(single)] == ["actual_output"]
        assert spec.test_case_problems(SimpleNamespace(turns=TURNS, input=None)) == []

    def test_include_reason_is_not_an_option(self) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, "include_reason": False})

    def test_the_task_is_part_of_the_version(self) -> None:
        def version(**changes):
            return metric_version("t", parse_spec({**SPEC, **changes}), {"model": "m"}).id

        assert version(task="Book a hotel.") != version()
        assert version(threshold=0.2) == version()


class TestConversation:
    def test_one_call_sees_the_image_and_the_tool_calls(self, judge: ScriptedJudge) -> None:
        cited = [{"turn": 2, "note": "called book"}]
        judge.script(by_task({"task_completion": answer(turns=cited)}))
        result = run_metric(judge, SPEC, conversation(expected_outcome="A Friday booking."))
        assert result.score == 0.75 and result.passed
        assert result.logs["task"] == "Book the hotel for Friday."
        assert result.logs["task_source"] == "inferred"
        assert result.logs["turns"] == [{"turn": 2, "verdict": "cited", "reason": "called book"}]
        assert result.reason == "Done. (turn 2: called book)"
        [request] = judge.calls_for("task_completion")
        assert image_parts(request) == [PNG]
        text = user_text(request)
        assert 'book({"day": "Friday"}) -> {"ok": true}' in text
        assert "Expected outcome:\nA Friday booking." in text
        assert "Images count as evidence" in text

    def test_a_given_task_is_told_not_asked(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"task_completion": answer(task=None, turns=[])}))
        result = run_metric(judge, {**SPEC, "task": "Book a hotel."}, conversation())
        assert (result.logs["task"], result.logs["task_source"]) == ("Book a hotel.", "given")
        sent = user_text(judge.calls_for("task_completion")[0])
        assert "The task: Book a hotel.\nFirst state the outcome" in sent
        assert "Then state the outcome" not in sent

    def test_a_note_the_reason_already_says_is_not_repeated(self, judge: ScriptedJudge) -> None:
        cited = [{"turn": 1, "note": "asked"}, {"turn": 2, "note": "booked it"}]
        reply = {**answer(turns=cited), "reason": "Turn 1: asked for a booking; done."}
        judge.script(by_task({"task_completion": reply}))
        result = run_metric(judge, SPEC, conversation())
        assert result.reason == "Turn 1: asked for a booking; done. (turn 2: booked it)"

    def test_an_inferred_task_left_out_is_repaired(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"task_completion": answer(task=None)}))
        result = run_metric(judge, SPEC, conversation())
        assert result.error.type == "invalid_answer"
        assert len(judge.calls_for("task_completion")) == 2

    @pytest.mark.parametrize("verdict", [1.5, -0.1])
    def test_an_out_of_range_verdict_is_repaired_then_an_error(
        self, judge: ScriptedJudge, verdict
    ) -> None:
        judge.script(by_task({"task_completion": answer(verdict)}))
        result = run_metric(judge, SPEC, conversation())
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert len(judge.calls_for("task_completion")) == 2

    def test_a_turn_outside_the_conversation_is_refused(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"task_completion": answer(turns=[{"turn": 3, "note": "?"}])}))
        assert run_metric(judge, SPEC, conversation()).error.type == "invalid_answer"

    def test_strict_mode_clamps(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"task_completion": answer(0.9)}))
        result = run_metric(judge, {**SPEC, "strict_mode": True}, conversation())
        assert (result.score, result.passed, result.logs["verdict"]) == (0.0, False, 0.9)


class TestSingleTurn:
    def test_input_tools_and_output(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"task_completion": answer(0.5)}))
        single = case(
            input="Book a hotel for Friday.",
            actual_output="I could not book it.",
            tools_called=[{"name": "book", "input_parameters": {"day": "Friday"}}],
        )
        result = run_metric(judge, SPEC, single)
        assert result.score == 0.5 and "turns" not in result.logs
        text = user_text(judge.calls_for("task_completion")[0])
        assert "Input:\nBook a hotel for Friday." in text
        assert 'Tools called:\n- book({"day": "Friday"})' in text
        assert "Actual Output:\nI could not book it." in text
        assert '"turns"' not in text and "Images count" not in text


def test_plan_is_one_call() -> None:
    assert [c.task for c in plan(parse_spec(SPEC), conversation())] == ["task_completion"]
