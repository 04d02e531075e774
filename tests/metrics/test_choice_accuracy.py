"""choice_accuracy: EvalScope's answer extraction, and where Loupe reads better."""

import asyncio

import pytest
from pydantic import ValidationError

from app.metrics import MetricContext, MetricTestCase, measure, parse_spec
from app.metrics.choice_accuracy import extract_label
from tests.metrics.evalscope_mcq import evalscope_answer

LABELS = ["A", "B", "C", "D"]


class TestExtractionAsEvalScope:
    """Cases where Loupe reads a completion exactly as EvalScope 1.14.1 does."""

    @pytest.mark.parametrize(
        ("completion", "label"),
        [
            ("Let me think step by step.\nANSWER: B", "B"),
            ("ANSWER: **C**", "C"),
            ("answer : D", "D"),
            ("ANSWER: $\\boxed{C}$", "C"),
            ("ANSWER: \\text{A}", "A"),
            ("ANSWER: (D)", "D"),
            ("ANSWER: [C]", "C"),
            ("ANSWER: （B）", "B"),
            ("ANSWER: 【A】", "A"),
            ("ANSWER: B.", "B"),
            ("ANSWER: A because it is round", "A"),
            ("Answer: B.\nOn reflection, ANSWER: C", "C"),  # the last marker wins
            ("ANSWER: A and B", None),  # two labels: no single answer, no fallback
            ("ANSWER: A/B", None),
            ("ANSWER: (A, C)", None),
            ("ANSWER: AB", None),  # labels run together are several labels too
            ("Option C looks right.\nANSWER: AB", None),  # ... and no fallback is tried
            ("ANSWER: BD.", None),
            ("ANSWER: E", None),  # not a valid label here
            ("I cannot tell.", None),
            ("<think>ANSWER: A</think> ANSWER: D", "D"),
        ],
    )
    def test_table(self, completion: str, label: str | None) -> None:
        assert extract_label(completion, LABELS)[0] == label
        assert evalscope_answer(completion, LABELS) == label

    def test_labels_come_from_the_spec(self) -> None:
        assert extract_label("ANSWER: E", ["A", "B", "C", "D", "E"]) == ("E", "marker")
        assert extract_label("ANSWER: 2", ["1", "2", "3"]) == ("2", "marker")


class TestEvalScopeRule:
    """The test-side copy of EvalScope's rule gives the readings the reference spells out."""

    @pytest.mark.parametrize(
        ("completion", "label"),
        [
            ("Answer: b", "A"),  # no label after the marker: the last capital, A of "Answer"
            ("ANSWER: b", None),  # the last capital is the R of "ANSWER"
            ("The correct option is (B) Cat", "C"),
            ("B) Museum", None),
            ("ANSWER: Both are wrong", "B"),  # the leading label character of "Both"
        ],
    )
    def test_readings_from_the_reference(self, completion: str, label: str | None) -> None:
        assert evalscope_answer(completion, LABELS) == label


class TestExtractionImprovements:
    """Documented differences from EvalScope, whose reading is plainly wrong here."""

    @pytest.mark.parametrize(
        ("completion", "loupe"),
        [
            ("Answer: b", "B"),  # EvalScope: last capital anywhere, the A of "Answer"
            ("ANSWER: b", "B"),  # EvalScope: no answer
            ("The correct option is (B) Cat", "B"),  # EvalScope: the C of Cat
            ("B) Museum", "B"),  # EvalScope: last capital M, not a label
            ("答案：B，C 不对", "B"),  # EvalScope: no English marker, last capital C
            ("ANSWER: Both are wrong", None),  # EvalScope: B, the first letter of "Both"
        ],
    )
    def test_reads_better(self, completion: str, loupe: str | None) -> None:
        assert extract_label(completion, LABELS)[0] == loupe
        assert evalscope_answer(completion, LABELS) != loupe

    def test_a_lower_case_article_is_not_an_answer(self) -> None:
        assert extract_label("Answer: a cat, clearly", LABELS) == (None, "none")


def score(actual: str, expected: str, **options):
    spec = parse_spec({"type": "choice_accuracy", **options})
    case = MetricTestCase(index=0, id="0", actual_output=actual, expected_output=expected)
    return asyncio.run(measure(spec, case, MetricContext(evaluation_id="eval_x")))


class TestScore:
    def test_match_is_case_insensitive(self) -> None:
        result = score("Reasoning...\nANSWER: C", " c ")
        assert (result.score, result.passed) == (1.0, True)
        assert result.logs == {"extracted_prediction": "C", "extraction": "marker", "accuracy": 1.0}

    def test_mismatch_and_no_answer_score_zero(self) -> None:
        assert score("ANSWER: A", "B").score == 0.0
        nothing = score("no idea", "B")
        assert (nothing.score, nothing.logs["extracted_prediction"]) == (0.0, "")
        assert "no answer label" in nothing.reason

    @pytest.mark.parametrize("labels", [[], ["A", "a"], ["A", ""], ["A", "B)"]])
    def test_bad_labels_are_refused(self, labels) -> None:
        with pytest.raises(ValidationError):
            parse_spec({"type": "choice_accuracy", "labels": labels})
