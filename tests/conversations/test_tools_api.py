"""tool_correctness and argument_correctness through POST /v1/evaluations, the workers and the
scripted judge: single-turn cases and conversations, with images in turns."""

import json
import re
from typing import Any

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.evaluations.test_judged import RED, all_results, image, submit
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import user_text

TASK = "argument_correctness_verdicts"
_CALL_LINE = re.compile(r"^Tool call (\d+): (.*)$", re.M)


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "input_parameters": arguments} if arguments else {"name": name}


def conversation(expected: list[dict] | None = None, **fields: Any) -> dict[str, Any]:
    """Two exchanges; the first user turn holds a photo, the assistant calls three tools."""
    case: dict[str, Any] = {
        "id": "chat",
        "turns": [
            {"role": "user", "content": ["What's the weather where this was taken?", image(RED)]},
            {"role": "assistant", "content": "", "tools_called": [call("weather", city="Paris")]},
            {"role": "user", "content": "Book me a taxi there and a table for two in Rome"},
            {
                "role": "assistant",
                "content": "Done.",
                "tools_called": [call("taxi", to="Paris"), call("book", city="Paris", people=2)],
            },
            {"role": "user", "content": "Thanks"},
            {"role": "assistant", "content": "You're welcome."},
        ],
        **fields,
    }
    if expected is not None:
        case["expected_tools"] = expected
    return case


def rows_by_case(client: Any, evaluation_id: str) -> dict[tuple[str, str], dict]:
    return {(r["test_case_id"], r["metric"]): r for r in all_results(client, evaluation_id)}


class TestToolCorrectness:
    def test_single_turn_cases_are_scored_without_a_judge(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        search = call("search", q="weather")
        cases = [
            # deepeval 4.3.1 scores this 0.5 (its used calls are a value-equality set, #3141).
            {
                "id": "twice",
                "input": "q",
                "tools_called": [search, search],
                "expected_tools": [search, search],
            },
            {
                "id": "missing",
                "input": "q",
                "tools_called": [call("a")],
                "expected_tools": [call("a"), call("b")],
            },
            {"id": "unwanted", "input": "q", "tools_called": [call("a")], "expected_tools": []},
            {"id": "none", "input": "q", "expected_tools": [call("a")]},
            {
                "id": "swapped",
                "input": "q",
                "tools_called": [call("b"), call("a", n=1)],
                "expected_tools": [call("a", n=1), call("b")],
            },
        ]
        metrics = [
            {"type": "tool_correctness"},
            {
                "type": "tool_correctness",
                "name": "ordered",
                "arguments": "exact",
                "consider_ordering": True,
            },
            {"type": "tool_correctness", "name": "exact", "exact_match": True},
        ]
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": cases, "metrics": metrics})
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        assert judge.requests == [] and final["usage"]["calls"] == 0
        rows = rows_by_case(client, final["id"])
        scores = {key: row["score"] for key, row in rows.items()}
        assert scores == {
            ("twice", "tool_correctness"): 1.0,
            ("twice", "ordered"): 1.0,
            ("twice", "exact"): 1.0,
            ("missing", "tool_correctness"): 0.5,
            ("missing", "ordered"): 0.5,
            ("missing", "exact"): 0.0,
            ("unwanted", "tool_correctness"): 0.0,
            ("unwanted", "ordered"): 0.0,
            ("unwanted", "exact"): 0.0,
            ("none", "tool_correctness"): 0.0,
            ("none", "ordered"): 0.0,
            ("none", "exact"): 0.0,
            ("swapped", "tool_correctness"): 1.0,
            ("swapped", "ordered"): 0.5,
            ("swapped", "exact"): 0.0,
        }
        missing = rows[("missing", "tool_correctness")]
        assert missing["logs"]["missing"] == [{"expected": 2, "name": "b", "text": "b({})"}]
        assert "Missing: expected call 2, b({})." in missing["reason"]
        swapped = rows[("swapped", "ordered")]["logs"]
        assert [item["call"] for item in swapped["out_of_order"]] == [2]  # a, made after b
        assert swapped["missing"] == [] and swapped["extra"] == []
        assert [
            item["name"] for item in rows[("unwanted", "tool_correctness")]["logs"]["extra"]
        ] == ["a"]

    def test_a_conversations_calls_are_pinned_to_their_turns(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        expected = [call("book"), call("weather"), call("taxi"), call("pay")]
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {
                "test_cases": [conversation(expected)],
                "metrics": [{"type": "tool_correctness", "consider_ordering": True}],
            },
        )
        assert final["status"] == "completed" and judge.requests == []
        (result,) = all_results(client, final["id"])
        assert result["score"] == 0.5  # weather then taxi in order, of 4 expected
        assert [(pin["turn"], pin["verdict"], pin["call"]) for pin in result["logs"]["turns"]] == [
            (2, "expected", 1),
            (4, "expected", 2),
            (4, "out_of_order", 3),
        ]
        assert result["logs"]["missing"][0]["name"] == "pay"
        assert "Out of order: turn 4: call 3, book(" in result["reason"]
        assert "Missing: expected call 4, pay({})." in result["reason"]

    def test_subset_arguments_reach_into_nested_objects(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        # A search whose filter object holds more than the expected one: `subset` asks that
        # every expected argument be there, at any depth, not that a nested object be equal.
        made = call("search", q="shoes", filter={"color": "red", "size": {"eu": 42, "uk": 8}})
        cases = [
            {
                "id": "nested",
                "input": "q",
                "tools_called": [made],
                "expected_tools": [call("search", filter={"size": {"eu": 42}})],
            },
            {
                "id": "differs-deep",
                "input": "q",
                "tools_called": [made],
                "expected_tools": [call("search", filter={"size": {"eu": 41}})],
            },
            {
                # Lists are compared item by item (same length), each item by the same rule.
                "id": "list-of-objects",
                "input": "q",
                "tools_called": [call("send", to=[{"id": 1, "name": "Ann"}, {"id": 2}])],
                "expected_tools": [call("send", to=[{"id": 1}, {"id": 2}])],
            },
            {
                "id": "list-shorter",
                "input": "q",
                "tools_called": [call("send", to=[{"id": 1}, {"id": 2}])],
                "expected_tools": [call("send", to=[{"id": 1}])],
            },
        ]
        metrics = [
            {"type": "tool_correctness", "arguments": "subset"},
            {"type": "tool_correctness", "name": "exact", "arguments": "exact"},
        ]
        client = api.tenant_client()
        final = submit(api, client, {"test_cases": cases, "metrics": metrics})
        assert final["status"] == "completed" and judge.requests == []
        scores = {key: row["score"] for key, row in rows_by_case(client, final["id"]).items()}
        assert scores == {
            ("nested", "tool_correctness"): 1.0,
            ("nested", "exact"): 0.0,
            ("differs-deep", "tool_correctness"): 0.0,
            ("differs-deep", "exact"): 0.0,
            ("list-of-objects", "tool_correctness"): 1.0,
            ("list-of-objects", "exact"): 0.0,
            ("list-shorter", "tool_correctness"): 0.0,
            ("list-shorter", "exact"): 0.0,
        }

    def test_expected_tools_is_required_and_options_are_checked(self, api: Api) -> None:
        client = api.tenant_client()
        body = {
            "test_cases": [{"input": "q", "tools_called": [call("a")]}, conversation()],
            "metrics": [{"type": "tool_correctness"}],
        }
        locs = error_locs(problem(client.post("/v1/evaluations", json=body), 422))
        assert "test_cases[0].expected_tools" in locs and "test_cases[1].expected_tools" in locs
        body = {
            "test_cases": [{"input": "q", "expected_tools": []}],
            "metrics": [{"type": "tool_correctness", "arguments": "fuzzy"}],
        }
        locs = error_locs(problem(client.post("/v1/evaluations", json=body), 422))
        assert any(loc.startswith("metrics[0]") and "arguments" in loc for loc in locs), locs


def verdicts_by_city(request: dict) -> dict:
    """The stand-in's verdicts: a call is `no` when it names Paris for a Rome booking, or has
    no arguments; the others `yes`, each keyed by the call's number."""
    answers = []
    for number, line in _CALL_LINE.findall(user_text(request)):
        wrong = line.startswith("book(") or "({})" in line
        answers.append(
            {"call": int(number), "verdict": "no" if wrong else "yes", "reason": f"saw {line}"}
        )
    return {"verdicts": answers}


class TestArgumentCorrectness:
    def test_score_is_the_formula_on_the_judges_verdicts(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: verdicts_by_city(request) if task_of(request) == TASK else {})
        cases = [
            {
                "id": "single",
                "input": ["Weather here?", image(RED)],
                "tools_called": [call("weather", city="Paris"), call("clock")],
            },
            {"id": "idle", "input": "Hello"},
            conversation(),
        ]
        client = api.tenant_client()
        final = submit(
            api, client, {"test_cases": cases, "metrics": [{"type": "argument_correctness"}]}
        )
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 0
        # One call per case that called a tool; none for the case that called nothing.
        assert len(judge.requests) == 2 and final["usage"]["calls"] == 2
        rows = rows_by_case(client, final["id"])

        for key in ("single", "chat"):
            result = rows[(key, "argument_correctness")]
            given = [item["verdict"] for item in result["logs"]["verdicts"]]
            assert result["score"] == pytest.approx(given.count("yes") / len(given))
        assert rows[("single", "argument_correctness")]["score"] == 0.5
        chat = rows[("chat", "argument_correctness")]
        assert chat["score"] == pytest.approx(2 / 3)
        assert [(pin["turn"], pin["verdict"], pin["call"]) for pin in chat["logs"]["turns"]] == [
            (2, "yes", 1),
            (4, "yes", 2),
            (4, "no", 3),
        ]
        assert "Not fitting: turn 4: call 3, book(" in chat["reason"]
        idle = rows[("idle", "argument_correctness")]
        assert (idle["score"], idle["usage"]["calls"]) == (1.0, 0)
        assert idle["reason"].startswith("No tool was called")

        # The photo of the first user turn, and the single-turn case's, reach the judge.
        for request in judge.calls_for(TASK):
            (url,) = image_parts(request)
            assert url.startswith("data:image/")
        chat_request = next(r for r in judge.requests if "Turn 4 (assistant)" in user_text(r))
        assert "Turn 5" not in user_text(chat_request)

    def test_a_call_left_unjudged_is_repaired_once_then_stored_as_an_error(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        only_first = {"verdicts": [{"call": 1, "verdict": "yes", "reason": "ok"}]}
        judge.script(lambda request: only_first)
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {"test_cases": [conversation()], "metrics": [{"type": "argument_correctness"}]},
        )
        assert final["status"] == "completed" and final["result_counts"]["errored"] == 1
        (result,) = all_results(client, final["id"])
        assert (result["score"], result["error"]["type"]) == (None, "invalid_answer")
        assert "no verdict for tool call 2, 3" in result["error"]["message"]
        assert result["usage"]["calls"] == len(judge.requests) == 2
        assert "no verdict for tool call 2, 3" in user_text(judge.requests[1])

    def test_a_miscount_repaired_is_scored(self, api: Api, judge: ScriptedJudge) -> None:
        three = {"verdicts": [{"call": n, "verdict": "yes"} for n in (1, 2, 3)]}
        two = {"verdicts": [{"call": 1, "verdict": "yes"}, {"call": 2, "verdict": "no"}]}
        judge.sequence(json.dumps(three), json.dumps(two))
        client = api.tenant_client()
        final = submit(
            api,
            client,
            {
                "test_cases": [
                    {"input": "q", "tools_called": [call("weather", city="Paris"), call("clock")]}
                ],
                "metrics": [{"type": "argument_correctness"}],
            },
        )
        (result,) = all_results(client, final["id"])
        assert result["error"] is None and result["score"] == 0.5
        assert result["usage"]["calls"] == 2 and result["logs"]["repaired_calls"] == ["verdicts"]

    def test_the_estimate_is_the_calls_the_run_makes(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(verdicts_by_city)
        body = {
            "test_cases": [conversation(), {"input": "Hello"}],
            "metrics": [{"type": "argument_correctness"}],
        }
        client = api.tenant_client()
        estimate = client.post("/v1/evaluations/estimate", json=body)
        assert estimate.status_code == 200, estimate.text
        final = submit(api, client, body)
        assert estimate.json()["calls"] == final["usage"]["calls"] == len(judge.requests) == 1
