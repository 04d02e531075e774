"""A conversation that never goes idle (a call every few minutes, for hours) is judged all the
same: once its first call not judged is LOUPE_ONLINE_CONVERSATION_MAX_SECONDS old, the ticker
judges what it holds, and its later calls resume it."""

from collections.abc import Iterator
from datetime import timedelta

import pytest
from openinference.instrumentation import using_session

from app.db import utcnow
from app.evaluations.case_schemas import MAX_TURNS
from app.online import conversations
from tests.fixtures.api import Api, app_in_mode
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_conversation_target import FOLLOW_UP, TURN_RELEVANCY, model_and_turns
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import QUESTION, Receiver, ask_text, instrumented

IDLE = 3600.0
MAX = 1800.0


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def busy(request: pytest.FixtureRequest) -> Iterator[Api]:
    """An app in each mode whose conversations are idle after an hour, and judged at most half
    an hour after their first call not judged."""
    judge = request.getfixturevalue("judge_server")
    settings = {"online_conversation_idle_seconds": IDLE, "online_conversation_max_seconds": MAX}
    with app_in_mode(request, "busy", judge_base_url=judge.base_url, **settings) as app:
        yield app


def sweep_at(app: Api, seconds: float) -> int:
    """The ticker's sweep as it runs `seconds` from now."""
    return conversations.sweep(app.served.runtime, now=utcnow() + timedelta(seconds=seconds))


def test_a_conversation_that_never_goes_idle_is_judged_at_its_longest_wait(
    busy: Api, judge: ScriptedJudge
) -> None:
    judge.script(model_and_turns)
    key = busy.new_key()
    client = busy.client(key)
    rule = make_rule(
        client,
        name="busy chats",
        target="conversation",
        metrics=[TURN_RELEVANCY],
        filter=[{"attribute": "service.name", "op": "eq", "value": "app-openinference"}],
    )
    with (
        instrumented(
            "openinference", Receiver(busy.base_url), headers={"Authorization": f"Bearer {key}"}
        ),
        using_session("always-on"),
    ):
        ask_text(judge.base_url, QUESTION)
    # Neither idle nor held long enough: nothing judged.
    assert sweep_at(busy, MAX - 60) == 0
    # Held longer than LOUPE_ONLINE_CONVERSATION_MAX_SECONDS, though its last call is not
    # idle (a busy conversation's last call is always recent): judged as it stands.
    assert sweep_at(busy, MAX + 1) == 1
    [first] = judged_results(busy, client, rule["id"], 1)
    assert first["error"] is None, first

    with (
        instrumented(
            "openinference", Receiver(busy.base_url), headers={"Authorization": f"Bearer {key}"}
        ),
        using_session("always-on"),
    ):
        ask_text(judge.base_url, FOLLOW_UP)
    assert sweep_at(busy, 60) == 0
    assert sweep_at(busy, MAX + 1) == 1
    results = judged_results(busy, client, rule["id"], 2)
    [second] = [result for result in results if result["id"] != first["id"]]
    cases = client.get(f"/v1/evaluations/{second['evaluation_id']}/test_cases").json()
    [case] = [c for c in cases["data"] if c["metadata"].get("calls") == 2]
    assert [turn["content"] for turn in case["turns"]][2] == FOLLOW_UP
    assert case["metadata"]["calls_judged_before"] == 1


def test_a_conversation_holding_all_a_case_can_hold_is_judged_at_once(
    busy: Api, judge: ScriptedJudge
) -> None:
    judge.script(model_and_turns)
    key = busy.new_key()
    client = busy.client(key)
    rule = make_rule(
        client,
        name="long chats",
        target="conversation",
        metrics=[TURN_RELEVANCY],
        filter=[{"attribute": "service.name", "op": "eq", "value": "app-openinference"}],
    )
    with (
        instrumented(
            "openinference", Receiver(busy.base_url), headers={"Authorization": f"Bearer {key}"}
        ),
        using_session("long-one"),
    ):
        for _ in range(MAX_TURNS - 1):
            ask_text(judge.base_url, QUESTION)
        # One call short of what a case holds: it waits.
        assert sweep_at(busy, 60) == 0
        ask_text(judge.base_url, QUESTION)
    # As many calls not judged as a case holds: judged now, neither idle nor old.
    assert sweep_at(busy, 60) == 1
    [result] = judged_results(busy, client, rule["id"], 1)
    cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
    [case] = [c for c in cases["data"] if c["id"] == "long-one"]
    assert case["metadata"]["calls"] == MAX_TURNS
