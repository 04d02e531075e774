"""A trace's retrieval step exported in another request than the model call after it: the
call is judged with the documents all the same (issue 26's out-of-order and split exports).

An application's retriever records a GenAI retrieval span, then its openai client, instrumented
by OpenLLMetry, asks the scripted model; the SDK's SimpleSpanProcessor exports each span as it
ends, so the retrieval reaches Loupe one request before the call it grounds (a
BatchSpanProcessor splits them the same way whenever its 5-second schedule falls between)."""

import json

from opentelemetry.sdk.trace import TracerProvider

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge
from tests.otlp.capture import Receiver, ask_text, instrumented

DOCUMENT = "Paris is the capital of France."
QUESTION = "What is the capital of France?"


def retrieve(tracer_provider: TracerProvider) -> None:
    """The application's retrieval step, traced as the GenAI conventions say."""
    tracer = tracer_provider.get_tracer("app.retriever")
    with tracer.start_as_current_span("retrieval docs") as span:
        span.set_attribute("gen_ai.operation.name", "retrieval")
        span.set_attribute("gen_ai.retrieval.query.text", QUESTION)
        span.set_attribute(
            "gen_ai.retrieval.documents", json.dumps([{"id": "doc_1", "content": DOCUMENT}])
        )


class TestRetrievalInAnotherExport:
    def test_a_call_exported_after_its_traces_retrieval_is_judged_with_the_documents(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client,
            filter=[{"attribute": "model", "op": "eq", "value": "gpt-4o-mini"}],
            metrics=[{"type": "faithfulness"}],
        )
        receiver = Receiver(api.base_url)
        with instrumented(
            "openllmetry", receiver, headers={"Authorization": f"Bearer {key}"}
        ) as tracer_provider:
            tracer = tracer_provider.get_tracer("app")
            with tracer.start_as_current_span("answer"):
                retrieve(tracer_provider)
                ask_text(judge.base_url, QUESTION)

        # Not `missing_fields`: the retrieval came in the request before.
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert (counts["sent"], counts["skipped"]) == (1, {})
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["test_case"]["retrieval_context"] == [DOCUMENT]
        assert result["error"] is None, result
        asked = json.dumps(judge.requests)
        assert DOCUMENT in asked
