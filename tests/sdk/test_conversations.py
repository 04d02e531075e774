"""Conversations through the Python SDK, like any other test case: submitted with `Turn` and
`ToolCall`, read back with their turns, compared item by item, exported with their pins."""

import json

from loupe_client import ImageUrlPart, Loupe, TestCase, ToolCall, ToolCorrectness, Turn

from tests.fixtures.api import Api
from tests.sdk.helpers import RED, while_queue_runs

NO_PROXY = {"trust_env": False}


def conversation(index: int, second_tool: str) -> TestCase:
    return TestCase(
        id=f"conv-{index}",
        turns=[
            Turn(
                role="user", content=["Book me a table; this is the menu I like", ImageUrlPart(RED)]
            ),
            Turn(
                role="assistant",
                content="",
                tools_called=[ToolCall(name="find_restaurant", input_parameters={"city": "Oslo"})],
            ),
            Turn(role="assistant", content="Done.", tools_called=[ToolCall(name=second_tool)]),
        ],
        expected_tools=[ToolCall(name="find_restaurant"), ToolCall(name="book")],
        chatbot_role="A booking assistant.",
    )


def submit(client: Loupe, api: Api, second_tools: list[str]) -> str:
    created = client.evaluations.create(
        test_cases=[conversation(i, tool) for i, tool in enumerate(second_tools)],
        metrics=[ToolCorrectness(threshold=1.0)],
    )
    final = while_queue_runs(api, lambda: client.evaluations.wait(created.id, timeout=120))
    assert final.status == "completed" and final.result_counts.errored == 0
    return created.id


def test_conversations_are_submitted_compared_and_exported_like_any_case(api: Api) -> None:
    with Loupe(api.base_url, api.new_key(), httpx_args=NO_PROXY) as client:
        baseline = submit(client, api, ["book"] * 4)
        candidate = submit(client, api, ["book", "cancel", "book", "cancel"])

        # Stored as sent: the turns, the image as a media URL, the tool calls.
        cases = list(client.evaluations.test_cases(candidate))
        assert [case.id for case in cases] == [f"conv-{i}" for i in range(4)]
        turns = cases[1].to_dict()["turns"]
        assert [turn["role"] for turn in turns] == ["user", "assistant", "assistant"]
        assert turns[0]["content"][1]["image_url"]["url"].startswith(api.base_url + "/v1/media/")
        assert turns[2]["tools_called"] == [{"name": "cancel"}]

        # Scored per conversation: half the expected calls made in the "cancel" ones.
        scores = {r.test_case_id: r.score for r in client.evaluations.results(candidate)}
        assert scores == {"conv-0": 1.0, "conv-1": 0.5, "conv-2": 1.0, "conv-3": 0.5}

        comparison = client.comparisons.create(baseline, candidate)
        (metric,) = comparison.metrics
        assert (metric.metric, metric.n, metric.mean_difference) == ("tool_correctness", 4, -0.25)
        moved = list(client.comparisons.items(comparison.id))
        assert sorted(item.test_case_id for item in moved) == ["conv-1", "conv-3"]
        assert all(item.difference == -0.5 for item in moved)

        # The export carries each result's pins: the extra call pinned to the turn that made it.
        lines = [json.loads(line) for line in client.evaluations.export(candidate).splitlines()]
        pins = {line["test_case_id"]: line["logs"]["turns"] for line in lines}
        assert {"turn": 3, "verdict": "extra"}.items() <= pins["conv-1"][-1].items()
