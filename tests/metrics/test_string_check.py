"""string_check: eq, ne, like, ilike on planted strings; no trimming; template errors."""

import asyncio

import pytest
from pydantic import ValidationError

from app.metrics import (
    GRADER_TYPES,
    MetricContext,
    MetricResult,
    grader_spec,
    measure,
    parse_spec,
)
from tests.fixtures.metrics import case


def check(operation: str, output: str, answer: str, **spec: object) -> MetricResult:
    raw = {
        "type": "string_check",
        "name": "answer match-4f1c",
        "input": "{{ sample.output_text }}",
        "reference": "{{ item.answer }}",
        "operation": operation,
        **spec,
    }
    test_case = case(
        input=[], metadata={"item": {"answer": answer}, "sample": {"output_text": output}}
    )
    return asyncio.run(measure(parse_spec(raw), test_case, MetricContext(evaluation_id="e")))


class TestOperations:
    @pytest.mark.parametrize(
        ("operation", "output", "answer", "passed"),
        [
            ("eq", "Paris", "Paris", True),
            ("eq", "paris", "Paris", False),
            ("eq", "Paris ", "Paris", False),
            ("eq", "", "", True),
            ("ne", "Paris", "Paris", False),
            ("ne", "Paris.", "Paris", True),
            ("ne", "paris", "Paris", True),
            ("like", "The capital is Paris.", "Paris", True),
            ("like", "The capital is paris.", "Paris", False),
            ("like", "Par is", "Paris", False),
            ("like", "anything", "", True),
            ("ilike", "THE CAPITAL IS PARIS.", "paris", True),
            ("ilike", "Straße", "STRASSE", True),
            ("ilike", "Lyon", "paris", False),
            ("ilike", " Paris", " paris ", False),
        ],
    )
    def test_planted(self, operation: str, output: str, answer: str, passed: bool) -> None:
        result = check(operation, output, answer)
        assert result.error is None
        assert result.passed is passed
        assert result.score == (1.0 if passed else 0.0)
        assert result.threshold == 1.0
        assert result.logs == {"input": output, "reference": answer, "operation": operation}

    def test_reason_says_what_held(self) -> None:
        assert check("like", "It is Paris", "Paris").reason == "input contains reference"
        assert check("eq", "a", "b").reason == "not true that input equals reference"


class TestErrors:
    def test_missing_path_is_an_errored_result(self) -> None:
        result = check("eq", "x", "x", reference="{{ item.meta.answer }}")
        assert (result.score, result.passed) == (None, None)
        assert result.error.type == "template_variable_missing"
        assert "item.meta.answer" in result.error.message

    def test_missing_sample_is_an_errored_result(self) -> None:
        raw = {
            "type": "string_check",
            "input": "{{ sample.output_text }}",
            "reference": "x",
            "operation": "eq",
        }
        test_case = case(input=[], metadata={"item": {}, "sample": None})
        result = asyncio.run(measure(parse_spec(raw), test_case, MetricContext(evaluation_id="e")))
        assert result.error.type == "template_variable_missing"


class TestSpec:
    def test_openai_criterion_with_its_id_as_name(self) -> None:
        criterion = {
            "type": "string_check",
            "name": "answer match",
            "input": "{{ sample.output_text }}",
            "reference": "{{ item.answer }}",
            "operation": "ilike",
        }
        # As long as a result's metric column holds (128), and no longer.
        criterion_id = ("answer match-" + "0" * 36).rjust(128, "x")
        spec = parse_spec({**criterion, "name": criterion_id})
        assert spec.display_name == criterion_id and spec.threshold == 1.0
        assert "threshold" not in spec.model_dump()
        with pytest.raises(ValidationError):
            parse_spec({**criterion, "name": "x" + criterion_id})

    @pytest.mark.parametrize(
        "bad",
        [{"operation": "contains"}, {"threshold": 0.5}, {"unknown": 1}, {"reference": None}],
    )
    def test_refused(self, bad: dict) -> None:
        raw = {"type": "string_check", "input": "a", "reference": "b", "operation": "eq", **bad}
        with pytest.raises(ValidationError):
            parse_spec(raw)

    def test_grader_spec_from_a_criterion(self) -> None:
        criterion = {
            "id": "match-1",
            "type": "string_check",
            "name": "match",
            "input": "{{ sample.output_text }}",
            "reference": "x",
            "operation": "like",
        }
        spec = grader_spec(criterion, "match-1")
        assert (spec.type, spec.display_name, spec.operation) == ("string_check", "match-1", "like")
        assert {"string_check", "text_similarity", "label_model", "score_model"} == GRADER_TYPES

    @pytest.mark.parametrize("kind", ["exact_match", "python", "multi", None])
    def test_grader_spec_takes_graders_only(self, kind: str | None) -> None:
        with pytest.raises(ValueError, match="unsupported grader type"):
            grader_spec({"type": kind, "actual_output": "x"}, "id-1")

    def test_not_in_the_public_union(self) -> None:
        from pydantic import TypeAdapter

        from app.metrics import MetricSpec

        with pytest.raises(ValidationError):
            TypeAdapter(MetricSpec).validate_python(
                {"type": "string_check", "input": "a", "reference": "b", "operation": "eq"}
            )
