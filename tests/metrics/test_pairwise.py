"""pairwise against the scripted judge: both orders, agreement, ties and position bias."""

import threading

import pytest
from pydantic import ValidationError

from app.metrics import parse_spec
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.fixtures.metrics import by_task, case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
SPEC = {"type": "pairwise", "criteria": "Which answer names the capital correctly?"}


def pair_case(**fields):
    values = {"input": "Capital of France?", "actual_output": "Paris.", "expected_output": "Lyon."}
    return case(**{**values, **fields})


def judge_says(first_order: str, second_order: str):
    """The judge's winner when actual_output is shown first, then when it is shown second."""

    def respond(request: dict) -> dict:
        text = user_text(request)
        actual_first = text.index("Paris") < text.index("Lyon")
        winner = first_order if actual_first else second_order
        return {
            "reason": f"picked {winner} ({'actual' if actual_first else 'second'} first)",
            "winner": winner,
        }

    return by_task({"pairwise_preference": respond})


class TestPairwise:
    @pytest.mark.parametrize(
        ("first", "second", "score", "preferred", "consistent"),
        [
            ("A", "B", 1.0, "actual_output", True),  # actual_output wins in both orders
            ("B", "A", 0.0, "expected_output", True),  # the other answer wins in both
            ("A", "A", 0.5, "tie", False),  # position bias: always the first shown
            ("B", "B", 0.5, "tie", False),  # always the second shown
            ("tie", "tie", 0.5, "tie", True),
            ("A", "tie", 0.5, "tie", False),
        ],
    )
    def test_a_win_needs_both_orders(
        self, judge: ScriptedJudge, first, second, score, preferred, consistent
    ) -> None:
        judge.script(judge_says(first, second))
        result = run_metric(judge, SPEC, pair_case())
        assert result.score == score
        assert result.logs["preferred"] == preferred
        assert result.logs["position_consistent"] is consistent
        assert result.usage.calls == 2
        orders = [v["order"] for v in result.logs["verdicts"]]
        assert orders == [
            ["actual_output", "expected_output"],
            ["expected_output", "actual_output"],
        ]
        # Both verdicts and reasons are kept, and the reason quotes both.
        assert [v["winner"] for v in result.logs["verdicts"]] == [first, second]
        assert "actual first" in result.reason and "second first" in result.reason

    def test_the_judge_sees_criteria_context_and_both_answers(self, judge: ScriptedJudge) -> None:
        judge.script(judge_says("A", "B"))
        spec = {**SPEC, "evaluation_params": ["input", "retrieval_context"]}
        run_metric(
            judge,
            spec,
            pair_case(retrieval_context=[[{"type": "image_url", "image_url": {"url": PNG}}]]),
        )
        for request in judge.requests:
            text = user_text(request)
            assert "capital correctly" in text and "Capital of France?" in text
            assert "Answer A:" in text and "Answer B:" in text
            assert image_parts(request) == [PNG]

    def test_the_two_orders_are_asked_at_once(self, judge: ScriptedJudge) -> None:
        judge.script(judge_says("A", "B"))
        judge.hold()
        done = threading.Event()

        def release_when_both_arrive() -> None:
            while len(judge.requests) < 2 and not done.wait(0.01):
                pass
            judge.release()

        watcher = threading.Thread(target=release_when_both_arrive, daemon=True)
        watcher.start()
        result = run_metric(judge, SPEC, pair_case())
        done.set()
        watcher.join()
        assert result.score == 1.0 and judge.max_in_flight == 2

    def test_second_output_from_metadata(self, judge: ScriptedJudge) -> None:
        judge.script(judge_says("B", "A"))
        spec = {**SPEC, "second_output": "metadata.baseline"}
        test_case = pair_case(expected_output=None, metadata={"baseline": "Lyon."})
        result = run_metric(judge, spec, test_case)
        assert (result.score, result.logs["preferred"]) == (0.0, "metadata.baseline")
        parsed = parse_spec(spec)
        assert parsed.required_test_case_fields() == ("actual_output", "input")
        assert parsed.test_case_problems(pair_case(metadata={})) == [
            ("metadata", "needs the second answer as text at metadata.baseline")
        ]

    def test_an_unknown_winner_is_a_judge_error(self, judge: ScriptedJudge) -> None:
        judge.script(judge_says("Answer A", "both"))
        result = run_metric(judge, SPEC, pair_case())
        assert result.score is None and result.error.type == "invalid_answer"
        # Both orders asked, and the second once more after its winner did not fit.
        assert "'both'" in result.error.message and result.usage.calls == 3

    @pytest.mark.parametrize(
        ("first", "second", "passed_by_default", "passed_at_half"),
        [
            ("A", "B", True, True),  # a win in both orders
            ("tie", "tie", False, True),  # a consistent tie
            ("A", "A", False, True),  # a position-inconsistent tie
            ("B", "A", False, False),  # a loss
        ],
    )
    def test_passing_means_winning_unless_the_threshold_says_otherwise(
        self, judge: ScriptedJudge, first, second, passed_by_default, passed_at_half
    ) -> None:
        # At the usual default of 0.5 a tie passed, so pass_rate counted ties as wins.
        judge.script(judge_says(first, second))
        result = run_metric(judge, SPEC, pair_case())
        assert (result.threshold, result.passed) == (1.0, passed_by_default)
        half = run_metric(judge, {**SPEC, "threshold": 0.5}, pair_case())
        assert (half.threshold, half.passed) == (0.5, passed_at_half)
        assert half.score == result.score

    def test_strict_mode_a_tie_is_zero(self, judge: ScriptedJudge) -> None:
        judge.script(judge_says("A", "A"))
        result = run_metric(judge, {**SPEC, "strict_mode": True}, pair_case())
        assert (result.score, result.threshold, result.passed) == (0.0, 1.0, False)
        # The tie's own score is kept, and the reason says why 0 was stored (docs/metrics.md).
        assert result.logs["unclamped_score"] == 0.5
        assert result.reason is not None and result.reason.startswith("Strict mode: the score 0.5")

    @pytest.mark.parametrize(
        "changes",
        [
            {"second_output": "actual_output"},
            {"second_output": "metadata."},
            {"evaluation_params": ["input", "input"]},
            {"evaluation_params": ["actual_output"]},
            {"criteria": "  "},
        ],
    )
    def test_spec_errors(self, changes: dict) -> None:
        with pytest.raises(ValidationError):
            parse_spec({**SPEC, **changes})
