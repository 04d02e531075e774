"""knowledge_retention and role_adherence against the scripted judge: formulas, keyed verdicts,
empty conversations, images in any turn, plans."""

import pytest

from app.metrics import parse_spec, plan
from app.metrics._render import IMAGE_RULES
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

RETENTION = {"type": "knowledge_retention"}
ROLE = {"type": "role_adherence"}
USER_PNG = "data:image/png;base64,dXNlcg=="
ASSISTANT_PNG = "data:image/png;base64,YXNzaXN0YW50"


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def user(content) -> dict:
    return {"role": "user", "content": content}


def assistant(content, **fields) -> dict:
    return {"role": "assistant", "content": content, **fields}


def conversation(*turns: dict, **fields):
    return case(input=None, turns=list(turns), **fields)


def facts(**by_turn: list[str]) -> dict:
    """The facts answer: `t1=["..."]` is user turn 1's facts."""
    return {"turns": [{"turn": int(k[1:]), "facts": v} for k, v in by_turn.items()]}


def verdicts(**by_turn: str) -> dict:
    """A keyed verdicts answer: `t2="no"` judges turn 2 `no` (with a reason)."""
    return {
        "verdicts": [
            {"turn": int(k[1:]), "verdict": v, "reason": f"reason for turn {k[1:]}"}
            for k, v in by_turn.items()
        ]
    }


# A booking: the date is given in turn 1 and corrected in turn 3.
BOOKING = conversation(
    user("I fly to Oslo on the 5th of May."),
    assistant("Noted: Oslo, 5 May."),
    user("Sorry, it is the 6th, not the 5th."),
    assistant("Done, I booked the 5th."),
    user("Thanks!"),
    assistant("Have a good trip to Oslo on the 6th."),
)
BOOKING_FACTS = facts(
    t1=["The user flies to Oslo on 5 May."], t3=["The flight is on the 6th."], t5=[]
)


class TestKnowledgeRetention:
    def test_score_is_kept_turns_over_judged_turns(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="no", t6="yes"),
                }
            )
        )
        result = run_metric(judge, RETENTION, BOOKING)
        assert result.error is None
        assert result.score == pytest.approx(2 / 3)
        assert result.passed is True
        assert result.usage.calls == 2
        assert result.logs["turns"] == [
            {"turn": 2, "verdict": "yes", "reason": "reason for turn 2"},
            {"turn": 4, "verdict": "no", "reason": "reason for turn 4"},
            {"turn": 6, "verdict": "yes", "reason": "reason for turn 6"},
        ]
        assert result.logs["facts"] == BOOKING_FACTS["turns"]
        assert "2 of 3 assistant turns" in result.reason
        assert "turn 4: reason for turn 4" in result.reason
        assert "turn 2:" not in result.reason

    def test_the_verdict_call_sees_the_facts_by_turn_and_the_turns_to_judge(
        self, judge: ScriptedJudge
    ) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="yes", t6="yes"),
                }
            )
        )
        result = run_metric(judge, RETENTION, BOOKING)
        assert (result.score, result.usage.calls) == (1.0, 2)
        asked = user_text(judge.calls_for("knowledge_retention_facts")[0])
        assert "User turns to read: 1, 3, 5" in asked
        sent = user_text(judge.calls_for("knowledge_retention_verdicts")[0])
        assert "Turn 1: The user flies to Oslo on 5 May." in sent
        assert "Turn 3: The flight is on the 6th." in sent
        assert "Turn 5:" not in sent  # no facts there
        assert "Assistant turns to judge: 2, 4, 6" in sent
        assert "Turn 4 (assistant):\nDone, I booked the 5th." in sent
        assert "latest" in sent  # corrections replace earlier facts
        assert "Every assistant turn after the user's first fact (turn 1)" in result.reason

    def test_assistant_turns_before_the_first_fact_are_not_judged(
        self, judge: ScriptedJudge
    ) -> None:
        chat = conversation(
            assistant("Hello, how can I help?"),
            user("Hi."),
            assistant("What do you need?"),
            user("My order number is 4411."),
            assistant("Which order do you mean?"),
        )
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": facts(t2=[], t4=["The order number is 4411."]),
                    "knowledge_retention_verdicts": verdicts(t5="no"),
                }
            )
        )
        result = run_metric(judge, RETENTION, chat)
        assert result.score == 0.0 and result.passed is False
        assert [pin["turn"] for pin in result.logs["turns"]] == [5]
        schema = judge.calls_for("knowledge_retention_verdicts")[0]["response_format"]
        assert schema["json_schema"]["name"] == "knowledge_retention_verdicts"
        assert "turn 5: reason for turn 5" in result.reason

    def test_no_facts_scores_one_without_a_verdict_call(self, judge: ScriptedJudge) -> None:
        chat = conversation(user("Hi!"), assistant("Hello."), user("Bye."), assistant("Bye."))
        judge.script(by_task({"knowledge_retention_facts": facts(t1=[], t3=[])}))
        result = run_metric(judge, RETENTION, chat)
        assert (result.score, result.passed, result.usage.calls) == (1.0, True, 1)
        assert result.logs["turns"] == []
        assert "no fact" in result.reason and "turns 1 and 3" in result.reason

    @pytest.mark.parametrize(
        "turns",
        [
            [user("I am Ann.")],
            [assistant("Hello."), user("I am Ann.")],
        ],
    )
    def test_no_assistant_turn_after_a_user_turn_calls_no_one(
        self, judge: ScriptedJudge, turns
    ) -> None:
        result = run_metric(judge, RETENTION, conversation(*turns))
        assert (result.score, result.usage.calls, len(judge.requests)) == (1.0, 0, 0)
        assert "No assistant turn follows a user turn" in result.reason

    def test_a_verdict_left_out_is_repaired_once(self, judge: ScriptedJudge) -> None:
        answers = iter([verdicts(t2="yes", t4="no"), verdicts(t2="yes", t4="no", t6="no")])
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": lambda request: next(answers),
                }
            )
        )
        result = run_metric(judge, RETENTION, BOOKING)
        assert result.score == pytest.approx(1 / 3)
        assert result.usage.calls == 3
        assert result.logs["repaired_calls"] == ["verdicts"]
        repair = judge.calls_for("knowledge_retention_verdicts")[1]["messages"][-1]["content"]
        assert "no verdict for turn 6" in repair

    def test_a_verdict_left_out_twice_is_the_results_error(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="no"),
                }
            )
        )
        result = run_metric(judge, RETENTION, BOOKING)
        assert (result.score, result.passed, result.error.type) == (None, None, "invalid_answer")
        assert "no verdict for turn 6" in result.error.message
        assert result.usage.calls == 3

    def test_a_user_turn_left_out_of_the_facts_is_refused(self, judge: ScriptedJudge) -> None:
        # Its facts would be dropped, and a turn forgetting them scored as keeping them.
        judge.script(by_task({"knowledge_retention_facts": facts(t1=["The user flies on 5 May."])}))
        result = run_metric(judge, RETENTION, BOOKING)
        assert result.error.type == "invalid_answer"
        assert "no facts entry for user turn 3, 5" in result.error.message
        assert result.usage.calls == 2 and not judge.calls_for("knowledge_retention_verdicts")

    def test_an_unreadable_verdict_is_an_error_not_a_crash(self, judge: ScriptedJudge) -> None:
        # deepeval: a verdict outside yes/no became None and crashed the reason step.
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="maybe", t6="yes"),
                }
            )
        )
        result = run_metric(judge, RETENTION, BOOKING)
        assert result.error.type == "judge_malformed" and "'maybe'" in result.error.message

    def test_strict_mode_clamps_below_one(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="no", t6="yes"),
                }
            )
        )
        result = run_metric(judge, {**RETENTION, "strict_mode": True}, BOOKING)
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)

    def test_without_reason(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="yes", t6="yes"),
                }
            )
        )
        result = run_metric(judge, {**RETENTION, "include_reason": False}, BOOKING)
        assert (result.score, result.reason) == (1.0, None)
        assert len(result.logs["turns"]) == 3

    def test_images_of_every_turn_and_tool_calls_reach_both_calls(
        self, judge: ScriptedJudge
    ) -> None:
        chat = conversation(
            user(["This is my passport:", image(USER_PNG)]),
            assistant(
                ["Here is your boarding pass:", image(ASSISTANT_PNG)],
                tools_called=[{"name": "book", "input_parameters": {"name": "Ann"}}],
            ),
        )
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": facts(t1=["The passport is Ann's."]),
                    "knowledge_retention_verdicts": verdicts(t2="yes"),
                }
            )
        )
        result = run_metric(judge, RETENTION, chat)
        assert result.score == 1.0
        for task in ("knowledge_retention_facts", "knowledge_retention_verdicts"):
            request = judge.calls_for(task)[0]
            assert image_parts(request) == [USER_PNG, ASSISTANT_PNG]
            assert IMAGE_RULES in user_text(request)
            assert 'book({"name": "Ann"})' in user_text(request)

    def test_text_only_prompts_leave_the_image_rules_out(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {
                    "knowledge_retention_facts": BOOKING_FACTS,
                    "knowledge_retention_verdicts": verdicts(t2="yes", t4="yes", t6="yes"),
                }
            )
        )
        run_metric(judge, RETENTION, BOOKING)
        assert all(IMAGE_RULES not in user_text(request) for request in judge.requests)

    def test_plan_lists_the_calls_measure_makes(self) -> None:
        spec = parse_spec(RETENTION)
        planned = plan(spec, BOOKING)
        assert [call.task for call in planned] == [
            "knowledge_retention_facts",
            "knowledge_retention_verdicts",
        ]
        assert planned[1].completion.items == 3
        assert plan(spec, conversation(user("Hi."))) == []


ROLE_CASE = conversation(
    user("Ahoy! Who are you?"),
    assistant("Arr, I be Captain Finn, matey!"),
    user("What's 2+2?"),
    assistant("As an AI language model, I can tell you it is 4."),
    user("Thanks."),
    assistant("Fair winds to ye!"),
    chatbot_role="A pirate captain who never breaks character.",
)


class TestRoleAdherence:
    def test_score_is_in_character_turns_over_assistant_turns(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"role_adherence_verdicts": verdicts(t2="yes", t4="no", t6="yes")}))
        result = run_metric(judge, ROLE, ROLE_CASE)
        assert result.error is None
        assert result.score == pytest.approx(2 / 3)
        assert result.usage.calls == 1
        assert [(pin["turn"], pin["verdict"]) for pin in result.logs["turns"]] == [
            (2, "yes"),
            (4, "no"),
            (6, "yes"),
        ]
        assert "2 of 3 assistant turns stayed in the role" in result.reason
        assert "turn 4: reason for turn 4" in result.reason
        sent = user_text(judge.requests[0])
        assert "The assistant's role:\nA pirate captain who never breaks character." in sent
        assert "Assistant turns to judge: 2, 4, 6" in sent

    def test_all_in_character(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"role_adherence_verdicts": verdicts(t2="yes", t4="yes", t6="yes")}))
        result = run_metric(judge, ROLE, ROLE_CASE)
        assert (result.score, result.passed) == (1.0, True)
        assert "Every assistant turn stayed in the role (turns 2, 4 and 6)" in result.reason

    def test_the_same_turn_twice_is_refused_not_scored_zero(self, judge: ScriptedJudge) -> None:
        # deepeval: 2 verdicts with the same index over 2 assistant turns scored 0.0.
        chat = conversation(
            user("Hi"), assistant("Arr."), user("Bye"), assistant("Arr!"), chatbot_role="pirate"
        )
        twice = {
            "verdicts": [
                {"turn": 2, "verdict": "no", "reason": "a"},
                {"turn": 2, "verdict": "no", "reason": "b"},
            ]
        }
        answers = iter([twice, verdicts(t2="no", t4="yes")])
        judge.script(by_task({"role_adherence_verdicts": lambda request: next(answers)}))
        result = run_metric(judge, ROLE, chat)
        assert result.score == 0.5
        assert result.usage.calls == 2
        repair = judge.requests[1]["messages"][-1]["content"]
        assert "turn 2 judged more than once" in repair and "no verdict for turn 4" in repair

    def test_a_user_turn_judged_is_refused(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"role_adherence_verdicts": verdicts(t1="no", t2="yes", t4="yes")}))
        chat = conversation(
            user("Hi"), assistant("Arr."), user("Bye"), assistant("Arr!"), chatbot_role="pirate"
        )
        result = run_metric(judge, ROLE, chat)
        assert result.error.type == "invalid_answer"
        assert "turn 1 was not asked about" in result.error.message
        assert result.usage.calls == 2

    def test_no_assistant_turn_scores_one_without_a_call(self, judge: ScriptedJudge) -> None:
        result = run_metric(judge, ROLE, conversation(user("Hi"), chatbot_role="pirate"))
        assert (result.score, result.usage.calls, len(judge.requests)) == (1.0, 0, 0)
        assert "no assistant turn" in result.reason
        assert plan(parse_spec(ROLE), conversation(user("Hi"), chatbot_role="pirate")) == []

    def test_strict_mode_clamps_below_one(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"role_adherence_verdicts": verdicts(t2="yes", t4="no", t6="yes")}))
        result = run_metric(judge, {**ROLE, "strict_mode": True}, ROLE_CASE)
        assert (result.score, result.passed) == (0.0, False)

    def test_images_of_every_turn_reach_the_judge(self, judge: ScriptedJudge) -> None:
        chat = conversation(
            user(["What flag is this?", image(USER_PNG)]),
            assistant(["Me own Jolly Roger:", image(ASSISTANT_PNG)]),
            chatbot_role="pirate",
        )
        judge.script(by_task({"role_adherence_verdicts": verdicts(t2="yes")}))
        result = run_metric(judge, ROLE, chat)
        assert result.score == 1.0
        assert image_parts(judge.requests[0]) == [USER_PNG, ASSISTANT_PNG]
        assert IMAGE_RULES in user_text(judge.requests[0])

    def test_plan_is_one_call_per_conversation(self) -> None:
        planned = plan(parse_spec(ROLE), ROLE_CASE)
        assert [call.task for call in planned] == ["role_adherence_verdicts"]
        assert planned[0].completion.items == 3
