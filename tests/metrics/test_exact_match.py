"""exact_match as a pure function: spec + case in, result out."""

import asyncio

import pytest

from app.metrics import MetricContext, MetricTestCase, measure, parse_spec


def run(spec: dict, actual: object, expected: object):
    case = MetricTestCase(
        index=0, id="0", input="q", actual_output=actual, expected_output=expected
    )
    return asyncio.run(measure(parse_spec(spec), case, MetricContext(evaluation_id="eval_x")))


class TestExactMatch:
    def test_equal_strings_pass(self) -> None:
        result = run({"type": "exact_match"}, "Paris", "Paris")
        assert (result.score, result.passed, result.threshold) == (1.0, True, 1.0)
        assert result.error is None and result.usage.calls == 0

    @pytest.mark.parametrize(
        ("options", "actual", "expected", "score"),
        [
            ({}, " Paris\n", "Paris", 1.0),
            ({"strip": False}, " Paris\n", "Paris", 0.0),
            ({}, "paris", "Paris", 0.0),
            ({"case_sensitive": False}, "PARIS", "paris", 1.0),
            ({"case_sensitive": False}, "Straße", "STRASSE", 1.0),
        ],
    )
    def test_options(self, options: dict, actual: str, expected: str, score: float) -> None:
        assert run({"type": "exact_match", **options}, actual, expected).score == score

    def test_text_parts_are_joined_and_images_ignored(self) -> None:
        actual = [
            {"type": "text", "text": "a"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}},
            "b",
        ]
        assert run({"type": "exact_match"}, actual, "a\nb").score == 1.0

    def test_reason_names_first_difference(self) -> None:
        result = run({"type": "exact_match"}, "abcd", "abXd")
        assert result.passed is False
        assert result.reason == (
            "actual_output differs from expected_output at character 2 (lengths 4 and 4)"
        )
        assert result.logs["actual"] == "abcd" and result.logs["expected"] == "abXd"

    def test_threshold_zero_passes_a_mismatch(self) -> None:
        result = run({"type": "exact_match", "threshold": 0}, "a", "b")
        assert (result.score, result.passed) == (0.0, True)
