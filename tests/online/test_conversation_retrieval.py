"""A conversation rule whose metric reads a turn's retrieval_context, and a retrieval step that
reaches Loupe after the call it grounds: the SDK's SimpleSpanProcessor exports each span as it
ends, and the application's retrieval span ends after the model call it started before (a
BatchSpanProcessor's schedule splits them the same way). The conversation is not judged while
the call waits for it (LOUPE_OTLP_JOIN_SECONDS), and the documents land on the call's turn."""

import json
from collections.abc import Iterator
from datetime import timedelta

import pytest
from openinference.instrumentation import using_session

from app.db import utcnow
from app.online import conversations
from tests.fixtures.api import Api, app_in_mode
from tests.fixtures.judge import Reply, ScriptedJudge, task_of
from tests.online.test_receiver import judged_results, make_rule
from tests.otlp.capture import ANSWER, Receiver, ask_text, instrumented

DOCUMENT = "The Louvre is in Paris."
QUESTION = "Where is the Louvre?"
IDLE = 1.0
JOIN = 3600.0
TURN_RAG = {"type": "turn_contextual_relevancy", "name": "grounded"}


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def grounding(request: pytest.FixtureRequest) -> Iterator[Api]:
    """An app in each mode whose conversations are idle after a second and whose calls wait
    an hour for their trace's retrieval."""
    judge = request.getfixturevalue("judge_server")
    settings = {"online_conversation_idle_seconds": IDLE, "otlp_join_seconds": JOIN}
    with app_in_mode(request, "grounding", judge_base_url=judge.base_url, **settings) as app:
        yield app


def model_and_nodes(request: dict) -> Reply | dict:
    """The application's model answers; the judge finds every retrieved node relevant."""
    task = task_of(request)
    if task is None:
        return Reply(content=ANSWER)
    assert task == "turn_contextual_relevancy_verdicts", task
    return {"nodes": [{"node": 1, "verdict": "yes", "reason": "it answers where"}]}


def sweep_at(app: Api, seconds: float) -> int:
    """The ticker's sweep as it runs `seconds` from now."""
    return conversations.sweep(app.served.runtime, now=utcnow() + timedelta(seconds=seconds))


def counts(client, rule: dict) -> dict:
    return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]


class TestLateRetrievalInAConversation:
    def test_the_conversation_waits_for_its_calls_retrieval_and_judges_it_with_the_documents(
        self, grounding: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_nodes)
        app = grounding
        key = app.new_key()
        client = app.client(key)
        rule = make_rule(
            client,
            name="grounded chats",
            target="conversation",
            metrics=[TURN_RAG],
            filter=[{"attribute": "service.name", "op": "eq", "value": "app-openinference"}],
        )
        with instrumented(
            "openinference", Receiver(app.base_url), headers={"Authorization": f"Bearer {key}"}
        ) as tracer_provider:
            tracer = tracer_provider.get_tracer("app")
            with tracer.start_as_current_span("answer"), using_session("museum-1"):
                retrieval = tracer.start_span("retrieval docs")
                retrieval.set_attribute("gen_ai.operation.name", "retrieval")
                retrieval.set_attribute(
                    "gen_ai.retrieval.documents", json.dumps([{"content": DOCUMENT}])
                )
                ask_text(judge.base_url, QUESTION)
                # The call is exported and held; its retrieval has not come yet. Idle long
                # past LOUPE_ONLINE_CONVERSATION_IDLE_SECONDS, the conversation still waits.
                assert counts(client, rule)["sampled"] == 1
                sweep_at(app, IDLE + 60)
                assert counts(client, rule)["sent"] == 0
                retrieval.end()
            # A conversation whose call's retrieval never comes.
            with tracer.start_as_current_span("answer"), using_session("museum-2"):
                ask_text(judge.base_url, QUESTION)

        sweep_at(app, IDLE + 1)
        [result] = judged_results(app, client, rule["id"], 1)
        assert result["metric"] == "grounded" and result["error"] is None, result
        assert result["score"] == 1.0
        cases = client.get(f"/v1/evaluations/{result['evaluation_id']}/test_cases").json()
        [case] = cases["data"]
        assert case["id"] == "museum-1"
        assert case["turns"][1]["retrieval_context"] == [DOCUMENT]
        [asked] = judge.calls_for("turn_contextual_relevancy_verdicts")
        assert DOCUMENT in json.dumps(asked)
        assert counts(client, rule)["skipped"] == {}

        # museum-2 waits out the join window, then is judged as it stands: no turn has
        # documents, so the turn metric has nothing to judge (each call counted).
        sweep_at(app, IDLE + 60)
        assert counts(client, rule)["skipped"] == {}
        sweep_at(app, JOIN + 1)
        final = counts(client, rule)
        assert (final["sampled"], final["sent"]) == (2, 1)
        assert final["skipped"] == {"unfit_for_metric": 1}
