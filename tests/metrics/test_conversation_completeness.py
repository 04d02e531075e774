"""conversation_completeness against the scripted judge: one call keyed by user turn, the
formula, pins on the user turns, a user turn left out is one repair then the error."""

import re

import pytest

from app.metrics import parse_spec, plan
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

SPEC = {"type": "conversation_completeness"}
TASK = "conversation_completeness_intentions"
PNG = "data:image/png;base64,iVBORw0KGgo="

TURNS = [
    {"role": "user", "content": "Book a table for two and tell me the parking."},
    {"role": "assistant", "content": "Booked for two at 8pm."},
    {"role": "user", "content": "Thanks! Also, is it vegan friendly?"},
    {"role": "assistant", "content": "Yes, half the menu is vegan."},
    {"role": "user", "content": "Great, bye."},
]


def intention(text: str, verdict: str, met_in: int | None = None) -> dict:
    return {"intention": text, "verdict": verdict, "met_in": met_in, "reason": f"{text}: why"}


ANSWER = {
    "turns": [
        {
            "turn": 1,
            "intentions": [
                intention("book a table for two", "yes", 2),
                intention("learn about parking", "no"),
            ],
        },
        {"turn": 3, "intentions": [intention("know if it is vegan friendly", "yes", 4)]},
        {"turn": 5, "intentions": []},
    ]
}


def listed(request: dict) -> list[int]:
    match = re.search(r"User turns to go through: ([\d, ]+)", user_text(request))
    return [int(n) for n in match.group(1).split(", ")]


class TestScore:
    def test_met_over_intentions_in_one_call(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: ANSWER}))
        result = run_metric(judge, SPEC, case(turns=TURNS))
        assert result.error is None
        assert result.score == pytest.approx(2 / 3)
        assert result.passed is True
        assert result.usage.calls == 1
        assert listed(judge.requests[0]) == [1, 3, 5]
        assert result.logs["turns"] == [
            {
                "turn": 1,
                "verdict": "yes",
                "reason": "book a table for two: why",
                "intention": "book a table for two",
                "met_in": 2,
            },
            {
                "turn": 1,
                "verdict": "no",
                "reason": "learn about parking: why",
                "intention": "learn about parking",
                "met_in": None,
            },
            {
                "turn": 3,
                "verdict": "yes",
                "reason": "know if it is vegan friendly: why",
                "intention": "know if it is vegan friendly",
                "met_in": 4,
            },
        ]
        assert result.reason == (
            "2 of 3 intentions were met; score 0.67. "
            "Not met: turn 1: learn about parking (learn about parking: why)"
        )

    def test_all_met_and_strict_mode(self, judge: ScriptedJudge) -> None:
        answer = {
            "turns": [
                {"turn": 1, "intentions": [intention("book", "Yes.", 2)]},
                {"turn": 3, "intentions": [intention("vegan?", "yes", 4)]},
                {"turn": 5, "intentions": []},
            ]
        }
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS))
        assert (result.score, result.passed) == (1.0, True)
        assert result.reason == (
            "All 2 intentions the user expressed (turns 1 and 3) were met; score 1.00."
        )
        judge.script(by_task({TASK: ANSWER}))
        strict = run_metric(judge, {**SPEC, "strict_mode": True}, case(turns=TURNS))
        assert (strict.score, strict.passed) == (0.0, False)

    def test_no_intention_scores_one(self, judge: ScriptedJudge) -> None:
        turns = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Hello!"}]
        judge.script(by_task({TASK: {"turns": [{"turn": 1, "intentions": []}]}}))
        result = run_metric(judge, SPEC, case(turns=turns))
        assert (result.score, result.logs["turns"]) == (1.0, [])
        assert "turn 1 express no intention" in result.reason

    def test_no_user_turn_is_not_applicable(self, judge: ScriptedJudge) -> None:
        turns = [{"role": "assistant", "content": "Hello!"}]
        result = run_metric(judge, SPEC, case(turns=turns))
        assert (result.score, result.error.type) == (None, "not_applicable")
        assert judge.requests == []
        assert plan(parse_spec(SPEC), case(turns=turns)) == []
        assert parse_spec(SPEC).test_case_problems(case(turns=turns)) == [
            ("turns", "needs a user turn (no intention to judge)")
        ]
        assert parse_spec(SPEC).test_case_problems(case(turns=TURNS)) == []

    def test_a_no_is_met_nowhere(self, judge: ScriptedJudge) -> None:
        answer = {"turns": [{"turn": 1, "intentions": [intention("book", "no", 2)]}]}
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS[:2]))
        assert result.logs["turns"][0]["met_in"] is None


class TestWhatTheJudgeSees:
    def test_images_of_every_turn_in_place(self, judge: ScriptedJudge) -> None:
        photo = [
            {"type": "text", "text": "Is this dish vegan?"},
            {"type": "image_url", "image_url": {"url": PNG}},
        ]
        turns = [{"role": "user", "content": photo}, {"role": "assistant", "content": "Yes."}]
        answer = {"turns": [{"turn": 1, "intentions": [intention("vegan?", "yes", 2)]}]}
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=turns))
        assert result.error is None
        assert image_parts(judge.requests[0]) == [PNG]
        assert "Images count as evidence" in user_text(judge.requests[0])

    def test_text_only_prompt_has_no_image_rules(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: ANSWER}))
        run_metric(judge, {**SPEC, "include_reason": False}, case(turns=TURNS))
        text = user_text(judge.requests[0])
        assert "Images count as evidence" not in text
        assert '"reason"' not in text

    def test_plan_is_the_call_measure_makes(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: ANSWER}))
        planned = plan(parse_spec(SPEC), case(turns=TURNS))
        run_metric(judge, SPEC, case(turns=TURNS))
        assert [call.messages for call in planned] == [judge.requests[0]["messages"]]


class TestKeyedAnswer:
    @pytest.mark.parametrize(
        ("turns", "named"),
        [
            ([1, 3], "no verdict for user turn 5"),
            ([1, 2, 3, 5], "user turn 2 was not asked about"),
            ([1, 1, 3, 5], "user turn 1 judged more than once"),
        ],
    )
    def test_user_turns_miskeyed_are_repaired_then_an_error(
        self, judge: ScriptedJudge, turns, named
    ) -> None:
        answer = {"turns": [{"turn": n, "intentions": []} for n in turns]}
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert named in result.error.message
        assert result.usage.calls == 2
        assert named in user_text(judge.requests[1])

    def test_met_in_a_user_turn_is_refused(self, judge: ScriptedJudge) -> None:
        answer = {"turns": [{"turn": 1, "intentions": [intention("book", "yes", 1)]}]}
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS[:2]))
        assert result.error.type == "invalid_answer"
        assert "met_in 1, which is not an assistant turn" in result.error.message

    @pytest.mark.parametrize(
        ("met_in", "named"),
        [
            (2, "the intention 'vegan?' of turn 3 has met_in 2, an assistant turn before turn 3"),
            (None, "the intention 'vegan?' of turn 3 is `yes` with no met_in"),
        ],
    )
    def test_a_yes_not_met_after_its_turn_is_repaired_then_an_error(
        self, judge: ScriptedJudge, met_in, named
    ) -> None:
        # Turn 2 answered turn 1, before turn 3 asked: it cannot have met turn 3's intention.
        answer = {
            "turns": [
                {"turn": 1, "intentions": [intention("book", "yes", 2)]},
                {"turn": 3, "intentions": [intention("vegan?", "yes", met_in)]},
                {"turn": 5, "intentions": []},
            ]
        }
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS))
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert named in result.error.message
        assert result.usage.calls == 2
        assert named in user_text(judge.requests[1])

    def test_the_prompt_asks_for_a_turn_after_the_intention(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({TASK: ANSWER}))
        run_metric(judge, SPEC, case(turns=TURNS))
        assert "always one after the user turn that states the intention" in user_text(
            judge.requests[0]
        )

    def test_a_repaired_answer_is_scored(self, judge: ScriptedJudge) -> None:
        answers = iter([{"turns": [{"turn": 1, "intentions": []}]}, ANSWER])
        judge.script(by_task({TASK: lambda request: next(answers)}))
        result = run_metric(judge, SPEC, case(turns=TURNS))
        assert result.score == pytest.approx(2 / 3)
        assert result.logs["repaired_calls"] == ["intentions"]

    def test_an_unreadable_verdict_is_malformed(self, judge: ScriptedJudge) -> None:
        answer = {"turns": [{"turn": 1, "intentions": [intention("book", "partly")]}]}
        judge.script(by_task({TASK: answer}))
        result = run_metric(judge, SPEC, case(turns=TURNS[:2]))
        assert result.error.type == "judge_malformed"
