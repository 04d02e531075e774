"""argument_correctness against the scripted judge: one keyed verdict per tool call."""

import json

import pytest

from app.metrics import parse_spec, plan
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
TASK = "argument_correctness_verdicts"
SPEC = {"type": "argument_correctness"}


def answer(*values: str, numbers: list[int] | None = None) -> dict:
    keys = numbers or list(range(1, len(values) + 1))
    return {
        "verdicts": [
            {"call": key, "verdict": value, "reason": f"reason {key}"}
            for key, value in zip(keys, values, strict=True)
        ]
    }


def weather(city: str) -> dict:
    return {"name": "weather", "input_parameters": {"city": city}, "output": {"temp": 20}}


class TestSingleTurn:
    def test_score_is_fitting_calls_over_calls(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("yes", "no", "yes")}))
        calls = [weather("Paris"), weather("Rome"), {"name": "clock"}]
        result = run_metric(judge, SPEC, case(input="Weather in Paris?", tools_called=calls))
        assert result.score == pytest.approx(2 / 3) and result.passed is True
        assert result.usage.calls == 1
        assert [item["verdict"] for item in result.logs["verdicts"]] == ["yes", "no", "yes"]
        assert "turns" not in result.logs
        assert result.reason == (
            "2 of 3 tool calls have arguments that fit what the user asked; score 0.67. "
            'Not fitting: call 2, weather({"city": "Rome"}) -> {"temp": 20}: reason 2'
        )
        sent = user_text(judge.requests[0])
        assert "Weather in Paris?" in sent and "Tool call 3: clock({})" in sent
        assert "1 to 3" in sent

    def test_no_tool_call_scores_1_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, SPEC, case(input="hi", tools_called=None))
        assert (result.score, result.usage.calls, result.error) == (1.0, 0, None)
        assert result.reason.startswith("No tool was called")
        assert judge.requests == []

    def test_a_call_left_unjudged_is_repaired_once_then_an_error(
        self, judge: ScriptedJudge
    ) -> None:
        judge.script(by_task({TASK: answer("yes")}))
        result = run_metric(judge, SPEC, case(input="q", tools_called=[weather("a"), weather("b")]))
        assert (result.score, result.error.type, result.usage.calls) == (None, "invalid_answer", 2)
        assert "no verdict for tool call 2" in result.error.message

    def test_a_miscount_then_a_fitting_answer_is_scored(self, judge: ScriptedJudge) -> None:
        judge.sequence(json.dumps(answer("yes", "yes", "no")), json.dumps(answer("yes", "no")))
        result = run_metric(judge, SPEC, case(input="q", tools_called=[weather("a"), weather("b")]))
        assert result.score == 0.5 and result.usage.calls == 2
        assert result.logs["repaired_calls"] == ["verdicts"]
        assert "tool call 3 was not asked about" in user_text(judge.requests[1])

    def test_images_of_the_request_reach_the_judge(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("yes")}))
        request = [
            {"type": "text", "text": "Where is this?"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ]
        run_metric(judge, SPEC, case(input=request, tools_called=[weather("Paris")]))
        assert image_parts(judge.requests[0]) == [PNG]
        assert "Images count as evidence" in user_text(judge.requests[0])

    def test_strict_mode_and_no_reason(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("yes", "no")}))
        result = run_metric(
            judge,
            {**SPEC, "strict_mode": True, "include_reason": False},
            case(input="q", tools_called=[weather("a"), weather("b")]),
        )
        assert (result.score, result.threshold, result.reason) == (0.0, 1.0, None)
        assert '"reason"' not in judge.requests[0]["messages"][0]["content"]


class TestConversation:
    TURNS = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "tools_called": [weather("Paris")]},
        {"role": "user", "content": "And in Rome tomorrow?"},
        {
            "role": "assistant",
            "content": "Here it is",
            "tools_called": [weather("Rome"), {"name": "calendar", "input_parameters": {}}],
        },
        {"role": "user", "content": "Thanks, bye"},
        {"role": "assistant", "content": "Bye"},
    ]

    def test_verdicts_are_pinned_to_the_turn_that_made_the_call(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("no", "yes", "yes", numbers=[3, 1, 2])}))
        result = run_metric(judge, SPEC, case(input=None, turns=self.TURNS))
        assert result.score == pytest.approx(2 / 3)
        assert result.logs["turns"] == [
            {"turn": 2, "verdict": "yes", "reason": "reason 1", "call": 1, "tool": "weather"},
            {"turn": 4, "verdict": "yes", "reason": "reason 2", "call": 2, "tool": "weather"},
            {"turn": 4, "verdict": "no", "reason": "reason 3", "call": 3, "tool": "calendar"},
        ]
        assert "Not fitting: turn 4: call 3, calendar({}): reason 3" in result.reason
        sent = user_text(judge.requests[0])
        assert "Tool calls in turn 2:\nTool call 1: weather" in sent
        assert "Tool calls in turn 4:\nTool call 2: weather" in sent
        # The transcript stops at the last turn that called a tool.
        assert "And in Rome tomorrow?" in sent and "Thanks, bye" not in sent

    def test_images_in_turns_reach_the_judge(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("yes")}))
        turns = [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "This city's weather?"},
                    {"type": "image_url", "image_url": {"url": PNG}},
                ],
            },
            {"role": "assistant", "content": "", "tools_called": [weather("Paris")]},
        ]
        result = run_metric(judge, SPEC, case(input=None, turns=turns))
        assert result.score == 1.0
        assert image_parts(judge.requests[0]) == [PNG]

    def test_plan_is_the_call_measure_makes(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: answer("yes", "yes", "yes")}))
        test_case = case(input=None, turns=self.TURNS)
        planned = plan(parse_spec(SPEC), test_case)
        run_metric(judge, SPEC, test_case)
        assert [call.task for call in planned] == [TASK]
        assert planned[0].messages == judge.requests[0]["messages"]
        assert planned[0].completion.items == 3

    def test_plan_without_calls_is_empty(self) -> None:
        turns = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        assert plan(parse_spec(SPEC), case(input=None, turns=turns)) == []
