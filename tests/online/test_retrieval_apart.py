"""A trace's retrieval step exported in another request than the model call after it: the
call is judged with the documents all the same (issue 26's out-of-order and split exports).

An application's retriever records a GenAI retrieval span, then its openai client, instrumented
by OpenLLMetry, asks the scripted model; the SDK's SimpleSpanProcessor exports each span as it
ends, so the retrieval reaches Loupe one request before the call it grounds (a
BatchSpanProcessor splits them the same way whenever its 5-second schedule falls between)."""

import json
import time
import uuid
from pathlib import Path

from opentelemetry.sdk.trace import TracerProvider

from app.online import ingest
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_joining import SPAN, TRACE, bare_span, details_record
from tests.online.test_missing_fields import retrieval_span, settled
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
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


def grounded_call(trace_id: str, span_id: str) -> dict:
    return {"resourceSpans": [semconv_span(span_id, "app", QUESTION, trace_id=trace_id)]}


class TestKeptRetrievalExpires:
    def test_a_retrieval_outlasts_the_join_window_and_not_its_own(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        """Kept past LOUPE_OTLP_JOIN_SECONDS (a model call often takes longer than its records
        take to come), dropped by the ticker after LOUPE_OTLP_RETRIEVAL_KEEP_SECONDS."""
        judge.script(model_and_judge)
        keep = 8.0
        settings = {"otlp_join_seconds": 0.1, "otlp_retrieval_keep_seconds": keep}
        with (
            side_app(tmp_path, judge_base_url=judge.base_url, **settings) as app,
            app.tenant_client() as client,
        ):
            rule = make_rule(client, metrics=[{"type": "faithfulness"}])
            trace_id = uuid.uuid4().hex
            retrieval = retrieval_span("00f067aa0ba90701", DOCUMENT)
            retrieval["scopeSpans"][0]["spans"][0]["traceId"] = trace_id
            kept_at = time.monotonic()
            assert client.post("/v1/traces", json={"resourceSpans": [retrieval]}).status_code == 200
            time.sleep(0.3)
            ingest.expire_pending(app.served.runtime)
            sent = client.post("/v1/traces", json=grounded_call(trace_id, "00f067aa0ba90702"))
            assert sent.status_code == 200
            assert time.monotonic() - kept_at < keep, "the machine is too slow for this test"
            counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
            assert (counts["sent"], counts["skipped"]) == (1, {})

            time.sleep(max(0.0, keep - (time.monotonic() - kept_at)) + 0.2)
            ingest.expire_pending(app.served.runtime)
            late = client.post("/v1/traces", json=grounded_call(trace_id, "00f067aa0ba90703"))
            assert late.status_code == 200
            # It waits for a retrieval of its trace, in vain: counted once the window passes.
            counts = settled(app, client, rule, received=2)
            assert (counts["sent"], counts["skipped"]) == (1, {"missing_fields": 1})
            [result] = judged_results(app, client, rule["id"], 1)
            assert result["test_case"]["retrieval_context"] == [DOCUMENT]


class TestRetrievalAfterItsCall:
    def test_a_call_waits_for_its_traces_retrieval_the_other_rules_do_not(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        """Another service's retrieval, or a collector's later batch, reaches Loupe after the
        call it grounded: the rule needing documents judges the call with them once they come;
        a rule that needs none judged it at once. A call whose retrieval never comes is counted
        `missing_fields` by the first once the join window passes, and judged by the second."""
        judge.script(model_and_judge)
        with (
            side_app(tmp_path, judge_base_url=judge.base_url, otlp_join_seconds=0.5) as app,
            app.tenant_client() as client,
        ):
            grounded = make_rule(client, name="grounded", metrics=[{"type": "faithfulness"}])
            relevant = make_rule(client, name="relevant", metrics=[{"type": "answer_relevancy"}])
            trace_id = uuid.uuid4().hex
            call = client.post("/v1/traces", json=grounded_call(trace_id, "00f067aa0ba90801"))
            assert call.status_code == 200
            counts = client.get(f"/v1/online_rules/{relevant['id']}").json()["counts"]
            assert (counts["received"], counts["sent"]) == (1, 1)
            assert (
                client.get(f"/v1/online_rules/{grounded['id']}").json()["counts"]["received"] == 0
            )

            retrieval = retrieval_span("00f067aa0ba90802", DOCUMENT)
            retrieval["scopeSpans"][0]["spans"][0]["traceId"] = trace_id
            assert client.post("/v1/traces", json={"resourceSpans": [retrieval]}).status_code == 200
            counts = client.get(f"/v1/online_rules/{grounded['id']}").json()["counts"]
            assert (counts["received"], counts["sent"], counts["skipped"]) == (1, 1, {})
            [result] = judged_results(app, client, grounded["id"], 1)
            assert result["span_id"] == "00f067aa0ba90801"
            assert result["test_case"]["retrieval_context"] == [DOCUMENT]

            alone = client.post(
                "/v1/traces", json=grounded_call(uuid.uuid4().hex, "00f067aa0ba90803")
            )
            assert alone.status_code == 200
            counts = settled(app, client, grounded, received=2)
            assert (counts["sent"], counts["skipped"]) == (1, {"missing_fields": 1})
            counts = client.get(f"/v1/online_rules/{relevant['id']}").json()["counts"]
            assert (counts["received"], counts["sent"], counts["skipped"]) == (2, 2, {})
            judged_results(app, client, relevant["id"], 2)

    def test_a_call_completed_by_its_records_waits_for_its_retrieval_too(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        """The official instrumentation's EVENT_ONLY call: its span, then its details record,
        then its trace's retrieval; judged with the documents."""
        judge.script(model_and_judge)
        with (
            side_app(tmp_path, judge_base_url=judge.base_url, otlp_join_seconds=30) as app,
            app.tenant_client() as client,
        ):
            grounded = make_rule(client, metrics=[{"type": "faithfulness"}])
            assert client.post("/v1/traces", json=bare_span()).status_code == 200
            assert client.post("/v1/logs", json=details_record(QUESTION)).status_code == 200
            assert (
                client.get(f"/v1/online_rules/{grounded['id']}").json()["counts"]["received"] == 0
            )
            retrieval = retrieval_span("00f067aa0ba90901", DOCUMENT)
            retrieval["scopeSpans"][0]["spans"][0]["traceId"] = TRACE
            assert client.post("/v1/traces", json={"resourceSpans": [retrieval]}).status_code == 200

            [result] = judged_results(app, client, grounded["id"], 1)
            assert result["span_id"] == SPAN
            assert result["test_case"]["retrieval_context"] == [DOCUMENT]
