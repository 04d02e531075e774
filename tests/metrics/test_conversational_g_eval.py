"""conversational_g_eval: the spec, the prompt, the answer's schema and the score, against the
scripted judge (no database)."""

import json
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec, plan
from app.metrics.conversational_g_eval import score_schema
from app.metrics.versions import metric_version
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, logprob_tokens
from tests.fixtures.metrics import by_task, case, run_metric, run_metrics, user_text

PNG_1 = "data:image/png;base64,iVBORw0KGgo="
PNG_2 = "data:image/png;base64,iVBORw0KGgoA"
SPEC = {
    "type": "conversational_g_eval",
    "name": "helpful_assistant",
    "criteria": "Does the assistant help the user reach their goal?",
}
STEPS = {"steps": ["Read the user's goal.", "Check each answer."]}
TURNS = [
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "What bird is this?"},
            {"type": "image_url", "image_url": {"url": PNG_1}},
        ],
    },
    {
        "role": "assistant",
        "content": "A robin.",
        "tools_called": [
            {"name": "classify", "input_parameters": {"image": 1}, "output": {"label": "robin"}}
        ],
        "retrieval_context": ["Robins have red breasts."],
    },
    {"role": "user", "content": [{"type": "image_url", "image_url": {"url": PNG_2}}]},
    {"role": "assistant", "content": "That one is a blue jay."},
]


def conversation(**fields):
    return case(**{"input": None, "turns": TURNS, **fields})


def scored(
    score: int,
    alternatives: dict[str, float] | None = None,
    turns: list | None = None,
    reason: str = "Both birds named.",
) -> Reply:
    cited = [{"turn": 2, "note": "names the robin"}] if turns is None else turns
    content = json.dumps({"reason": reason, "turns": cited, "score": score})
    position = content.rindex(str(score))
    return Reply(
        content=content,
        logprobs=logprob_tokens(content, {position: alternatives} if alternatives else None),
    )


class TestSpec:
    def test_defaults(self) -> None:
        spec = parse_spec(SPEC)
        assert spec.evaluation_params == ["content", "role"]
        assert spec.shape == "conversation"
        assert spec.required_test_case_fields() == ("turns",)

    @pytest.mark.parametrize(
        "changes",
        [
            {"criteria": None},
            {"name": None},
            {"evaluation_params": ["content", "content"]},
            {"evaluation_params": ["input"]},
            {"evaluation_params": ["context"]},
            {
                "rubric": [
                    {"score_range": [0, 5], "expected_outcome": "a"},
                    {"score_range": [5, 10], "expected_outcome": "b"},
                ]
            },
            {"include_reason": False},
        ],
    )
    def test_refused(self, changes) -> None:
        raw = {k: v for k, v in {**SPEC, **changes}.items() if v is not None}
        with pytest.raises(ValidationError):
            parse_spec(raw)

    def test_chatbot_role_and_user_description_are_accepted(self) -> None:
        # deepeval raises KeyError for both.
        spec = parse_spec({**SPEC, "evaluation_params": ["chatbot_role", "user_description"]})
        assert spec.case_params() == ["chatbot_role", "user_description"]

    def test_the_callers_params_are_not_changed(self) -> None:
        params = ["scenario"]
        spec = parse_spec({**SPEC, "evaluation_params": params})
        assert params == ["scenario"] and spec.evaluation_params == ["scenario"]

    def test_a_case_field_asked_for_that_the_case_lacks_is_named(self) -> None:
        spec = parse_spec({**SPEC, "evaluation_params": ["content", "scenario", "chatbot_role"]})
        submitted = SimpleNamespace(turns=TURNS, scenario="", chatbot_role="a librarian")
        assert [name for name, _ in spec.test_case_problems(submitted)] == ["scenario"]
        assert (
            spec.test_case_problems(SimpleNamespace(turns=TURNS, scenario="s", chatbot_role="r"))
            == []
        )

    def test_the_version_hashes_the_options_that_change_the_score(self) -> None:
        def version(**changes):
            return metric_version("t", parse_spec({**SPEC, **changes}), {"model": "m"}).id

        base = version()
        assert version(threshold=0.9) == base
        assert version(evaluation_params=["content", "role"]) == base
        assert version(evaluation_params=["scenario"]) != base
        assert version(rubric=[{"score_range": [0, 4], "expected_outcome": "x"}]) != base
        assert version(strict_mode=True) != base
        assert version(top_logprobs=5) != base
        assert version(criteria="Other.") != base


class TestAnswerSchema:
    def test_score_out_of_range_and_unknown_turns_are_mismatches(self) -> None:
        schema = score_schema(0, 5, 4)
        schema.model_validate({"reason": "r", "turns": [{"turn": 4, "note": ""}], "score": 5})
        for bad in (
            {"reason": "r", "turns": [], "score": 6},
            {"reason": "r", "turns": [{"turn": 5}], "score": 3},
            {"reason": "r", "turns": [{"turn": 0}], "score": 3},
            {"reason": "r", "turns": [{"turn": 2}, {"turn": 2}], "score": 3},
        ):
            with pytest.raises(ValidationError):
                schema.model_validate(bad)


class TestPrompt:
    def test_every_image_in_place_and_tools_only_when_asked(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(7)}
            )
        )
        run_metric(judge, SPEC, conversation())
        request = judge.calls_for("conversational_g_eval_score")[0]
        assert image_parts(request) == [PNG_1, PNG_2]
        text = user_text(request)
        assert "Turn 1 (user):\nWhat bird is this?" in text
        assert "classify" not in text and "Robins have red breasts" not in text
        assert "1. Read the user's goal.\n2. Check each answer." in text
        assert "Images count as evidence" in text
        # The steps call sees no case content and no image.
        steps_call = judge.calls_for("conversational_g_eval_steps")[0]
        assert image_parts(steps_call) == [] and "robin" not in user_text(steps_call)

    def test_params_bring_tools_context_and_case_fields(self, judge: ScriptedJudge) -> None:
        judge.script(by_task({"conversational_g_eval_score": scored(7)}))
        spec = {
            **SPEC,
            "evaluation_steps": ["Judge it."],
            "evaluation_params": [
                "tools_called",
                "retrieval_context",
                "scenario",
                "user_description",
            ],
        }
        run_metric(judge, spec, conversation(scenario="Birdwatching.", user_description="A child."))
        text = user_text(judge.calls_for("conversational_g_eval_score")[0])
        assert 'classify({"image": 1}) -> {"label": "robin"}' in text
        assert "Robins have red breasts" in text
        assert "Scenario:\nBirdwatching." in text and "About the user:\nA child." in text
        assert judge.calls_for("conversational_g_eval_steps") == []

    def test_text_only_prompts_leave_the_image_rules_out(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(7)}
            )
        )
        turns = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
        run_metric(judge, SPEC, conversation(turns=turns))
        assert "Images count" not in user_text(judge.calls_for("conversational_g_eval_score")[0])


class TestScore:
    def test_logprob_weighted_and_turns_pinned(self, judge: ScriptedJudge) -> None:
        cited = [{"turn": 4, "note": "names the jay"}, {"turn": 2, "note": "names the robin"}]
        judge.script(
            by_task(
                {
                    "conversational_g_eval_steps": STEPS,
                    "conversational_g_eval_score": scored(7, {"7": 0.6, "8": 0.3, "6": 0.1}, cited),
                }
            )
        )
        result = run_metric(judge, SPEC, conversation())
        assert result.logs["score_mode"] == "logprob_weighted"
        assert result.score == pytest.approx(0.72)
        assert result.logs["turns"] == [
            {"turn": 2, "verdict": "cited", "reason": "names the robin"},
            {"turn": 4, "verdict": "cited", "reason": "names the jay"},
        ]
        assert result.reason == "Both birds named. (turn 2: names the robin; turn 4: names the jay)"
        assert judge.calls_for("conversational_g_eval_score")[0]["top_logprobs"] == 20

    def test_notes_the_reason_already_says_are_not_repeated(self, judge: ScriptedJudge) -> None:
        cited = [{"turn": 2, "note": "names the robin"}, {"turn": 4, "note": "names the jay"}]
        reason = "turn 2: names the robin; turn 4: names  the Jay."
        judge.script(
            by_task(
                {
                    "conversational_g_eval_steps": STEPS,
                    "conversational_g_eval_score": scored(7, turns=cited, reason=reason),
                }
            )
        )
        result = run_metric(judge, SPEC, conversation())
        assert result.reason == reason
        assert [p["reason"] for p in result.logs["turns"]] == ["names the robin", "names the jay"]

    def test_rubric_span_normalises(self, judge: ScriptedJudge) -> None:
        # deepeval divides by 10 whatever the rubric: 4 on a 0-5 rubric would be 0.4.
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(4)}
            )
        )
        rubric = [
            {"score_range": [0, 2], "expected_outcome": "Unhelpful."},
            {"score_range": [3, 5], "expected_outcome": "Helpful."},
        ]
        result = run_metric(judge, {**SPEC, "rubric": rubric}, conversation())
        assert result.score == pytest.approx(0.8)
        text = user_text(judge.calls_for("conversational_g_eval_score")[0])
        assert "0-2: Unhelpful.\n3-5: Helpful." in text and "from 0" in text and "to 5" in text

    def test_single_point_rubric_has_no_division_by_zero(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(3)}
            )
        )
        rubric = [{"score_range": [3, 3], "expected_outcome": "Exactly right."}]
        assert run_metric(judge, {**SPEC, "rubric": rubric}, conversation()).score == 1.0

    def test_out_of_range_is_repaired_once_then_an_error(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(12)}
            )
        )
        result = run_metric(judge, SPEC, conversation())
        assert (result.score, result.error.type) == (None, "invalid_answer")
        assert len(judge.calls_for("conversational_g_eval_score")) == 2

    def test_an_unknown_turn_is_repaired(self, judge: ScriptedJudge) -> None:
        answers = iter([scored(6, turns=[{"turn": 9, "note": "?"}]), scored(6)])
        judge.script(
            by_task(
                {
                    "conversational_g_eval_steps": STEPS,
                    "conversational_g_eval_score": lambda r: next(answers),
                }
            )
        )
        result = run_metric(judge, SPEC, conversation())
        assert result.score == pytest.approx(0.6)
        assert result.logs["repaired_calls"] == ["score"]

    @pytest.mark.parametrize(("raw", "score"), [(1, 1.0), (0, 0.0)])
    def test_strict_mode_asks_a_binary_question(self, judge: ScriptedJudge, raw, score) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(raw)}
            )
        )
        result = run_metric(judge, {**SPEC, "strict_mode": True}, conversation())
        assert (result.score, result.logs["score_mode"]) == (score, "strict_binary")
        request = judge.calls_for("conversational_g_eval_score")[0]
        assert "score 1 only if" in user_text(request)
        assert request.get("top_logprobs") is None

    def test_steps_generated_once_for_many_conversations(self, judge: ScriptedJudge) -> None:
        judge.script(
            by_task(
                {"conversational_g_eval_steps": STEPS, "conversational_g_eval_score": scored(5)}
            )
        )
        results = run_metrics(judge, SPEC, [conversation(index=i, id=str(i)) for i in range(3)])
        assert [r.score for r in results] == [0.5, 0.5, 0.5]
        assert len(judge.calls_for("conversational_g_eval_steps")) == 1
        assert len(judge.calls_for("conversational_g_eval_score")) == 3


class TestPlan:
    def test_steps_then_one_score_call(self) -> None:
        calls = plan(parse_spec(SPEC), conversation())
        assert [c.task for c in calls] == [
            "conversational_g_eval_steps",
            "conversational_g_eval_score",
        ]
        assert calls[0].shared is not None
        given = plan(parse_spec({**SPEC, "evaluation_steps": ["Judge."]}), conversation())
        assert [c.task for c in given] == ["conversational_g_eval_score"]
