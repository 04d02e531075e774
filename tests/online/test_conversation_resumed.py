"""A conversation judged online that resumes after it was judged: the next case holds the
whole conversation, its earlier turns included, and names the case it continues."""

import json
import re
from datetime import timedelta

from openinference.instrumentation import using_session

from app.db import utcnow
from app.online import conversations
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.online.test_conversation_target import (
    FOLLOW_UP,
    TURN_RELEVANCY,
    counts,
    model_and_turns,
    sweep_past_idle,
)
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import (
    ANSWER,
    QUESTION,
    Receiver,
    ask_about_image,
    ask_text,
    data_url,
    instrumented,
    red_square_png,
)


class TestResumedConversation:
    def test_a_conversation_resumed_after_it_was_judged_is_judged_whole_again(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client,
            name="chats",
            target="conversation",
            metrics=[TURN_RELEVANCY],
            filter=[
                {"attribute": "service.name", "op": "eq", "value": "app-openinference"},
                {"attribute": "model", "op": "eq", "value": "gpt-4o-mini"},
            ],
        )
        judge.script(model_and_turns)
        exporting = instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        )
        with exporting, using_session("support-77"):
            ask_about_image(judge.base_url, data_url(red_square_png()))
        assert sweep_past_idle(api) >= 1
        [first] = judged_results(api, client, rule["id"], 1)

        # The user comes back after the conversation was judged.
        exporting = instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        )
        with exporting, using_session("support-77"):
            ask_text(judge.base_url, FOLLOW_UP)
        assert sweep_past_idle(api) >= 1
        results = judged_results(api, client, rule["id"], 2)
        [second] = [result for result in results if result["id"] != first["id"]]

        cases = client.get(f"/v1/evaluations/{second['evaluation_id']}/test_cases").json()
        [case] = [c for c in cases["data"] if c["metadata"].get("calls") == 2]
        turns = case["turns"]
        assert [turn["role"] for turn in turns] == ["user", "assistant", "user", "assistant"]
        assert QUESTION in json.dumps(turns[0]["content"])
        assert re.search(r"/v1/media/[0-9a-f]{64}", json.dumps(turns[0]["content"]))
        assert turns[1]["content"] == ANSWER
        assert turns[2]["content"] == FOLLOW_UP
        metadata = case["metadata"]
        assert metadata["conversation_id"] == "support-77"
        assert (metadata["continues_evaluation_id"], metadata["continues_index"]) == (
            first["evaluation_id"],
            first["test_case_index"],
        )
        assert metadata["calls_judged_before"] == 1
        # The judge read the whole conversation, its first image included.
        asked = judge.calls_for("turn_relevancy_verdicts")[-1]
        assert image_parts(asked) and FOLLOW_UP in json.dumps(asked)
        # Two cases stored (the second the whole conversation) of its two calls.
        found = counts(client, rule)
        assert (found["sampled"], found["sent"], found["skipped"]) == (2, 2, {})

    def test_a_conversation_resumed_after_its_calls_were_forgotten_is_a_new_case(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Past LOUPE_ONLINE_CONVERSATION_KEEP_SECONDS after it was judged, a conversation's
        calls are forgotten: its later calls are a case of their own, continuing nothing."""
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client,
            name="chats",
            target="conversation",
            metrics=[TURN_RELEVANCY],
            filter=[{"attribute": "service.name", "op": "eq", "value": "app-openinference"}],
        )
        judge.script(model_and_turns)
        for question in (QUESTION, FOLLOW_UP):
            exporting = instrumented(
                "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
            )
            with exporting, using_session("support-78"):
                ask_text(judge.base_url, question)
            # The ticker's sweep a day and more later: the first conversation is forgotten.
            later = api.settings.online_conversation_keep_seconds + 600
            assert (
                conversations.sweep(api.served.runtime, now=utcnow() + timedelta(seconds=later))
                >= 1
            )
        results = judged_results(api, client, rule["id"], 2)
        for result in results:
            cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
            [case] = [c for c in cases["data"] if c["index"] == result["test_case_index"]]
            assert len(case["turns"]) == 2
            assert "continues_evaluation_id" not in case["metadata"]
