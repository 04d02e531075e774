"""tool_correctness as a pure function: expected and made tool calls in, a result out."""

import asyncio
from typing import Any

import pytest

from app.metrics import MetricContext, MetricResult, MetricTestCase, measure, parse_spec
from app.metrics.tool_correctness import same_value


def call(name: str, output: Any = None, **arguments: Any) -> dict[str, Any]:
    found: dict[str, Any] = {"name": name, "input_parameters": arguments or None}
    if output is not None:
        found["output"] = output
    return found


def run(expected: list[dict] | None, made: list[dict] | None, **options: Any) -> MetricResult:
    case = MetricTestCase(index=0, id="0", input="q", tools_called=made, expected_tools=expected)
    spec = parse_spec({"type": "tool_correctness", **options})
    return asyncio.run(measure(spec, case, MetricContext(evaluation_id="eval_x")))


def run_turns(expected: list[dict], turns: list[dict], **options: Any) -> MetricResult:
    case = MetricTestCase(index=0, id="0", turns=turns, expected_tools=expected)
    spec = parse_spec({"type": "tool_correctness", **options})
    return asyncio.run(measure(spec, case, MetricContext(evaluation_id="eval_x")))


class TestNames:
    def test_all_expected_made_scores_1_without_a_judge(self) -> None:
        result = run([call("search"), call("book")], [call("search"), call("book")])
        assert (result.score, result.passed, result.error) == (1.0, True, None)
        assert result.usage.calls == 0
        assert result.logs["missing"] == [] and result.logs["extra"] == []
        assert "out_of_order" not in result.logs
        assert result.reason == "2 of 2 expected tool calls were made (names compared)."

    @pytest.mark.parametrize(
        ("expected", "made", "options", "said"),
        [
            ([], ["a"], {}, "No tool call was expected but 1 was made"),
            ([], ["a", "b"], {}, "No tool call was expected but 2 were made"),
            (["a"], ["a"], {}, "The expected tool call was made"),
            (["a"], ["b"], {}, "The expected tool call was not made"),
            (["a", "b"], ["a"], {}, "1 of 2 expected tool calls was made"),
            (["a", "b"], ["c"], {}, "0 of 2 expected tool calls were made"),
            (["a"], ["a"], {"exact_match": True}, "The 1 tool call made matches the expected one"),
            (["a", "b"], ["a", "b"], {"exact_match": True}, "The 2 tool calls made match"),
            (
                ["a", "b"],
                ["a"],
                {"penalize_extra_calls": True},
                "1 of 2 expected tool calls was made, out of 1 tool call made",
            ),
        ],
    )
    def test_the_reason_counts_in_words_that_agree(self, expected, made, options, said) -> None:
        result = run([call(n) for n in expected], [call(n) for n in made], **options)
        assert result.reason.startswith(said + " ")

    def test_arguments_are_ignored_by_default(self) -> None:
        assert run([call("search", q="cats")], [call("search", q="dogs")]).score == 1.0

    def test_missing_call_is_listed(self) -> None:
        result = run([call("search", q="x"), call("book")], [call("search", q="x")])
        assert result.score == 0.5
        assert result.logs["missing"] == [{"expected": 2, "name": "book", "text": "book({})"}]
        assert "Missing: expected call 2, book({})." in result.reason

    def test_extra_calls_are_listed_and_not_penalised_by_default(self) -> None:
        result = run([call("a")], [call("a"), call("b"), call("c")])
        assert result.score == 1.0
        assert [item["call"] for item in result.logs["extra"]] == [2, 3]
        assert result.logs["extra"][0] == {"call": 2, "turn": None, "name": "b", "text": "b({})"}
        assert "Not expected (not penalised: penalize_extra_calls is off): call 2, b({}); " in (
            result.reason
        )

    def test_penalize_extra_calls_divides_by_the_longer_list(self) -> None:
        result = run(
            [call("a"), call("b")],
            [call("a"), call("x"), call("y"), call("z")],
            penalize_extra_calls=True,
        )
        assert result.score == 1 / 4
        assert "1 of 2 expected tool calls was made, out of 4 tool calls made" in result.reason

    def test_penalize_extra_calls_with_fewer_made_divides_by_expected(self) -> None:
        assert run([call("a"), call("b")], [call("a")], penalize_extra_calls=True).score == 0.5


class TestDuplicates:
    def test_two_identical_expected_against_two_identical_made_score_1(self) -> None:
        # deepeval 4.3.1 tracks used calls in a value-equality set and scores this 0.5 (#3141).
        same = call("search", q="weather")
        for options in (
            {},
            {"arguments": "exact"},
            {"consider_ordering": True},
            {"exact_match": True},
            {"arguments": "subset"},
        ):
            result = run([same, same], [dict(same), dict(same)], **options)
            assert result.score == 1.0, options
            assert result.logs["missing"] == [] and result.logs["extra"] == []

    def test_two_expected_against_one_made_is_half(self) -> None:
        same = call("search", q="weather")
        result = run([same, same], [same])
        assert result.score == 0.5
        assert [item["expected"] for item in result.logs["missing"]] == [2]

    def test_one_expected_against_two_made_lists_the_second_as_extra(self) -> None:
        same = call("search", q="weather")
        result = run([same], [same, same], arguments="exact")
        assert result.score == 1.0
        assert [item["call"] for item in result.logs["extra"]] == [2]


class TestArguments:
    @pytest.mark.parametrize(
        ("mode", "made", "score"),
        [
            ("exact", call("f", city="Paris", days=3), 1.0),
            ("exact", call("f", city="Paris", days=3.0), 1.0),
            ("exact", call("f", city="Paris"), 0.0),
            ("exact", call("f", city="Paris", days=3, units="metric"), 0.0),
            ("exact", call("f", city="paris", days=3), 0.0),
            ("subset", call("f", city="Paris", days=3, units="metric"), 1.0),
            ("subset", call("f", city="Paris"), 0.0),
            ("subset", call("f", city="Paris", days=4), 0.0),
            ("ignore", call("f"), 1.0),
            ("exact", call("g", city="Paris", days=3), 0.0),
        ],
    )
    def test_modes(self, mode: str, made: dict, score: float) -> None:
        assert run([call("f", city="Paris", days=3)], [made], arguments=mode).score == score

    def test_no_arguments_equal_empty_arguments(self) -> None:
        assert (
            run([{"name": "f"}], [{"name": "f", "input_parameters": {}}], arguments="exact").score
            == 1.0
        )

    def test_nested_values_compare_deeply(self) -> None:
        expected = [call("f", filters={"tags": ["a", "b"], "open": True})]
        assert (
            run(
                expected, [call("f", filters={"tags": ["a", "b"], "open": True})], arguments="exact"
            ).score
            == 1.0
        )
        assert (
            run(
                expected, [call("f", filters={"tags": ["b", "a"], "open": True})], arguments="exact"
            ).score
            == 0.0
        )

    def test_subset_finds_the_largest_matching(self) -> None:
        # Matching expected call 1 to made call 1 (both fit) would leave expected call 2 with
        # nothing; the one-to-one matching pairs 1 with 2 and 2 with 1.
        expected = [call("f", x=1), call("f", x=1, y=2)]
        made = [call("f", x=1, y=2), call("f", x=1)]
        result = run(expected, made, arguments="subset")
        assert result.score == 1.0 and result.logs["missing"] == []

    def test_check_output(self) -> None:
        expected = [call("f", output={"temp": 20}, city="Paris")]
        assert (
            run(expected, [call("f", output={"temp": 20}, city="Rome")], check_output=True).score
            == 1.0
        )
        assert (
            run(expected, [call("f", output={"temp": 21}, city="Paris")], check_output=True).score
            == 0.0
        )
        assert run(expected, [call("f", output={"temp": 21}, city="Paris")]).score == 1.0

    def test_a_boolean_never_equals_a_number(self) -> None:
        assert same_value(True, 1) is False and same_value(1, 1.0) is True
        assert same_value({"a": [1, None]}, {"a": [1.0, None]}) is True
        assert same_value("1", 1) is False
        assert run([call("f", flag=True)], [call("f", flag=1)], arguments="exact").score == 0.0


class TestOrdering:
    def test_order_ignored_by_default(self) -> None:
        assert run([call("a"), call("b"), call("c")], [call("c"), call("b"), call("a")]).score == 1

    def test_consider_ordering_scores_the_longest_common_subsequence(self) -> None:
        result = run(
            [call("a"), call("b"), call("c")],
            [call("c"), call("a"), call("b")],
            consider_ordering=True,
        )
        assert result.score == 2 / 3
        assert result.logs["out_of_order"] == [
            {"call": 1, "turn": None, "expected": 3, "name": "c", "text": "c({})"}
        ]
        assert result.logs["missing"] == [] and result.logs["extra"] == []
        assert "Out of order: call 1, c({}) (expected call 3)." in result.reason
        assert result.reason.startswith("2 of 3 expected tool calls were made in order")

    def test_ordering_with_missing_extra_and_late_calls(self) -> None:
        expected = [call("a"), call("b"), call("c"), call("d")]
        made = [call("b"), call("x"), call("a"), call("c")]
        result = run(expected, made, consider_ordering=True)
        # b, c in order (or a, c): 2 of 4; one of a/b late, d missing, x extra.
        assert result.score == 0.5
        assert [item["expected"] for item in result.logs["missing"]] == [4]
        assert [item["name"] for item in result.logs["extra"]] == ["x"]
        assert len(result.logs["out_of_order"]) == 1

    def test_exact_match(self) -> None:
        expected = [call("a"), call("b")]
        assert run(expected, [call("a"), call("b")], exact_match=True).score == 1.0
        assert run(expected, [call("b"), call("a")], exact_match=True).score == 0.0
        assert run(expected, [call("a"), call("b"), call("c")], exact_match=True).score == 0.0
        result = run(expected, [call("a")], exact_match=True)
        assert result.score == 0.0
        assert "(1 made, 2 expected, 1 in order)" in result.reason

    def test_exact_match_with_arguments(self) -> None:
        expected = [call("a", n=1)]
        assert run(expected, [call("a", n=2)], exact_match=True).score == 1.0
        assert run(expected, [call("a", n=2)], exact_match=True, arguments="exact").score == 0.0


class TestEmpty:
    def test_nothing_expected_nothing_made_is_1(self) -> None:
        for made in (None, []):
            result = run([], made)
            assert result.score == 1.0
            assert result.reason == "No tool call was expected and none was made (names compared)."

    def test_nothing_expected_but_calls_made_is_0(self) -> None:
        for options in ({}, {"penalize_extra_calls": True}):
            result = run([], [call("a")], **options)
            assert result.score == 0.0
            assert [item["name"] for item in result.logs["extra"]] == ["a"]

    def test_calls_expected_none_made_is_0(self) -> None:
        result = run([call("a")], None)
        assert result.score == 0.0 and result.passed is False


class TestConversation:
    TURNS = [
        {"role": "user", "content": "Weather in Paris, then book a table"},
        {"role": "assistant", "content": "", "tools_called": [call("weather", city="Paris")]},
        {"role": "user", "content": "And a taxi"},
        {
            "role": "assistant",
            "content": "Done",
            "tools_called": [call("taxi", to="restaurant"), call("book", people=2)],
        },
        # A user turn's calls are not the assistant's (as deepeval reads only assistant turns).
        {"role": "user", "content": "thanks", "tools_called": [call("book")]},
    ]

    def test_calls_of_every_assistant_turn_in_order(self) -> None:
        # weather then taxi is the one longest subsequence in order; book came last.
        expected = [call("book"), call("weather"), call("taxi")]
        result = run_turns(expected, self.TURNS, consider_ordering=True)
        assert result.score == 2 / 3
        assert result.logs["made_count"] == 3
        assert result.logs["turns"] == [
            {
                "turn": 2,
                "verdict": "expected",
                "reason": 'call 1, weather({"city": "Paris"}) (expected call 2)',
                "call": 1,
                "expected": 2,
            },
            {
                "turn": 4,
                "verdict": "expected",
                "reason": 'call 2, taxi({"to": "restaurant"}) (expected call 3)',
                "call": 2,
                "expected": 3,
            },
            {
                "turn": 4,
                "verdict": "out_of_order",
                "reason": 'call 3, book({"people": 2}) (expected call 1)',
                "call": 3,
                "expected": 1,
            },
        ]
        assert result.logs["out_of_order"][0]["turn"] == 4
        assert 'Out of order: turn 4: call 3, book({"people": 2}) (expected call 1).' in (
            result.reason
        )

    def test_extra_calls_are_pinned_to_their_turn(self) -> None:
        result = run_turns([call("weather")], self.TURNS)
        assert result.score == 1.0
        assert [(pin["turn"], pin["verdict"]) for pin in result.logs["turns"]] == [
            (2, "expected"),
            (4, "extra"),
            (4, "extra"),
        ]
        assert "turn 4: call 2, taxi" in result.reason

    def test_a_conversation_without_calls(self) -> None:
        turns = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
        result = run_turns([call("weather")], turns)
        assert result.score == 0.0 and result.logs["turns"] == []
        assert result.logs["missing"][0]["name"] == "weather"


class TestLongLists:
    def test_reason_lists_ten_then_counts_the_rest(self) -> None:
        result = run([], [call(f"t{n}") for n in range(13)])
        assert "; and 3 more." in result.reason
        assert len(result.logs["extra"]) == 13
