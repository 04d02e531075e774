"""Production calls in, judged: an application's openai client, instrumented by a real
OpenTelemetry instrumentation, exports spans with the official OTLP exporter to a live Loupe;
the tenant's online rules count, filter and sample them, and workers judge the sampled ones
(issue 26). The model the application calls and Loupe's judge are the loopback stand-in."""

import base64
import gzip
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
from google.rpc.status_pb2 import Status
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, image_parts, plausible_answer, task_of
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

G_EVAL = {
    "type": "g_eval",
    "name": "describes",
    "criteria": "Does the answer describe what the image shows?",
    "evaluation_params": ["input", "actual_output"],
}
TRACE_ID = "5b8efff798038103d269b633813fc60c"


def model_and_judge(request: dict) -> Reply | dict:
    """The application's model answers its question; Loupe's judge tasks get judge answers."""
    if task_of(request) is None:
        return Reply(content=ANSWER)
    return plausible_answer(request)


def make_rule(client: httpx.Client, **changes: Any) -> dict[str, Any]:
    body = {"name": "vision", "sampling": {"rate": 1}, "metrics": [G_EVAL], **changes}
    response = client.post("/v1/online_rules", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def judged_results(api: Api, client: httpx.Client, rule_id: str, count: int) -> list[dict]:
    """Run the queue until the rule has `count` results; returns them."""
    deadline = time.monotonic() + 60
    while True:
        api.run_queue()
        results = client.get(f"/v1/online_rules/{rule_id}/results").json()["data"]
        if len(results) >= count:
            return results
        assert time.monotonic() < deadline, f"only {len(results)} results"
        time.sleep(0.05)


def semconv_span(span_id: str, service: str, question: str, trace_id: str = TRACE_ID) -> dict:
    """An OTLP/JSON resourceSpans entry holding one chat call in the GenAI conventions."""
    messages = [{"role": "user", "parts": [{"type": "text", "content": question}]}]
    output = [{"role": "assistant", "parts": [{"type": "text", "content": "Paris."}]}]
    return {
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]},
        "scopeSpans": [
            {
                "scope": {"name": "hand-written"},
                "spans": [
                    {
                        "traceId": trace_id,
                        "spanId": span_id,
                        "name": "chat gpt-4o-mini",
                        "kind": 3,
                        "startTimeUnixNano": "1795685647148688092",
                        "endTimeUnixNano": "1795685648148688092",
                        "attributes": [
                            {"key": "gen_ai.operation.name", "value": {"stringValue": "chat"}},
                            {
                                "key": "gen_ai.request.model",
                                "value": {"stringValue": "gpt-4o-mini"},
                            },
                            {
                                "key": "gen_ai.input.messages",
                                "value": {"stringValue": json.dumps(messages)},
                            },
                            {
                                "key": "gen_ai.output.messages",
                                "value": {"stringValue": json.dumps(output)},
                            },
                        ],
                    }
                ],
            }
        ],
    }


def attributes_span(span_id: str, attributes: dict[str, str], trace_id: str = TRACE_ID) -> dict:
    """An OTLP/JSON resourceSpans entry holding one span with these string attributes."""
    return {
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "app"}}]},
        "scopeSpans": [
            {
                "scope": {"name": "hand-written"},
                "spans": [
                    {
                        "traceId": trace_id,
                        "spanId": span_id,
                        "name": "call",
                        "kind": 3,
                        "attributes": [
                            {"key": key, "value": {"stringValue": value}}
                            for key, value in attributes.items()
                        ],
                    }
                ],
            }
        ],
    }


class TestTracedCalls:
    def test_an_image_call_traced_by_openllmetry_is_judged_with_its_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(
            client, filter=[{"attribute": "service.name", "op": "eq", "value": "app-openllmetry"}]
        )
        judge.script(model_and_judge)
        png = red_square_png()
        with instrumented(
            "openllmetry", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_about_image(judge.base_url, data_url(png))

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["metric"] == "describes" and result["error"] is None
        assert result["score"] is not None and result["reason"]
        assert len(result["trace_id"]) == 32 and len(result["span_id"]) == 16
        # The judge saw the call's image with its question and answer.
        [judged] = judge.calls_for("g_eval_score")
        assert image_parts(judged), judged
        text = json.dumps(judged)
        assert QUESTION in text and ANSWER in text
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts == {
            "received": 1,
            "matched": 1,
            "sampled": 1,
            "sent": 1,
            "judged": 1,
            "errored": 0,
            "backfilled": 0,
            "skipped": {},
            "dropped": {},
        }
        # The day's evaluation holds the call as a test case, its image stored by Loupe.
        evaluation_id = result["evaluation_id"]
        cases = client.get(f"/v1/evaluations/{evaluation_id}/test_cases")
        assert cases.status_code == 200, cases.text
        [case] = cases.json()["data"]
        assert case["id"] == result["span_id"]
        # Its image is a URL of Loupe's media store, readable with the tenant's key.
        [media] = re.findall(r'"(http[^"]*/v1/media/[0-9a-f]{64})"', json.dumps(case["input"]))
        assert client.get(media).status_code == 200

    def test_an_image_call_traced_by_openinference_is_judged_with_its_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client)
        judge.script(model_and_judge)
        with instrumented(
            "openinference", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            # A small PNG: its data URL is under OpenInference's 32,000-character limit.
            ask_about_image(judge.base_url, data_url(red_square_png()))
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None
        [judged] = judge.calls_for("g_eval_score")
        assert image_parts(judged), judged
        assert QUESTION in json.dumps(judged)

    def test_the_official_instrumentations_image_call_is_counted_as_withheld(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client)
        judge.script(model_and_judge)
        with instrumented(
            "official", Receiver(api.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_about_image(judge.base_url, data_url(red_square_png()))
            ask_text(judge.base_url, "Name a prime number.")
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["received"] == 2 and counts["sampled"] == 2
        assert counts["skipped"] == {"image_withheld": 1}
        assert counts["sent"] == 1
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None


class TestRulesOnTraffic:
    def test_filters_and_sampling_are_counted_per_rule(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        none_sampled = make_rule(client, name="none", sampling={"rate": 0})
        other_service = make_rule(
            client,
            name="billing only",
            filter=[{"attribute": "service", "op": "eq", "value": "billing"}],
        )
        models = make_rule(
            client,
            name="mini models",
            filter=[{"attribute": "model", "op": "regex", "value": "-mini$"}],
        )
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba902b7", "support", "Capital of France?"),
                semconv_span("00f067aa0ba902b8", "support", "Capital of Italy?"),
            ]
        }
        response = client.post("/v1/traces", json=body)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "application/json"
        assert response.json() == {}

        def counts(rule: dict) -> dict:
            return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]

        assert counts(none_sampled) == {
            "received": 2,
            "matched": 2,
            "sampled": 0,
            "sent": 0,
            "judged": 0,
            "errored": 0,
            "backfilled": 0,
            "skipped": {"not_sampled": 2},
            "dropped": {},
        }
        assert counts(other_service) == {
            "received": 2,
            "matched": 0,
            "sampled": 0,
            "sent": 0,
            "judged": 0,
            "errored": 0,
            "backfilled": 0,
            "skipped": {},
            "dropped": {},
        }
        # Its results are judged by workers (at once in embedded mode): counted below.
        assert {k: v for k, v in counts(models).items() if k not in ("judged", "errored")} == {
            "received": 2,
            "matched": 2,
            "sampled": 2,
            "sent": 2,
            "backfilled": 0,
            "skipped": {},
            "dropped": {},
        }
        results = judged_results(api, client, models["id"], 2)
        assert (counts(models)["judged"], counts(models)["errored"]) == (2, 0)
        assert {r["span_id"] for r in results} == {"00f067aa0ba902b7", "00f067aa0ba902b8"}
        assert {r["trace_id"] for r in results} == {TRACE_ID}
        # The same counts on /metrics, per rule and outcome.
        exposition = api.client().get("/metrics").text
        for rule, outcome, n in (
            (none_sampled, "skipped_not_sampled", 2),
            (other_service, "received", 2),
            (models, "sent", 2),
            (models, "judged", 2),
        ):
            line = f'loupe_online_calls_total{{outcome="{outcome}",rule="{rule["id"]}"}} {n}.0'
            assert line in exposition, line
        # A disabled rule no longer counts what arrives.
        client.post(f"/v1/online_rules/{models['id']}/disable")
        client.post("/v1/traces", json=body)
        assert counts(models)["received"] == 2

    def test_model_and_operation_read_the_same_in_every_convention(self, api: Api) -> None:
        """`operation` is the GenAI operation name and `model` the model asked for, whether
        the span says so in the GenAI conventions, OpenInference's or OpenLLMetry's."""
        client = api.tenant_client()
        chats = make_rule(
            client,
            name="mini chats",
            sampling={"rate": 0},
            filter=[
                {"attribute": "operation", "op": "eq", "value": "chat"},
                {"attribute": "model", "op": "eq", "value": "gpt-4o-mini"},
            ],
        )
        completions = make_rule(
            client,
            name="completions",
            sampling={"rate": 0},
            filter=[{"attribute": "operation", "op": "eq", "value": "text_completion"}],
        )
        genai = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini"}
        openinference = {
            "openinference.span.kind": "LLM",
            "llm.model_name": "gpt-4o-mini-2024-07-18",  # the response's model
            "llm.invocation_parameters": json.dumps({"model": "gpt-4o-mini"}),
            "llm.input_messages.0.message.role": "user",
            "llm.input_messages.0.message.content": "Capital of France?",
        }
        openllmetry = {"llm.request.type": "chat", "gen_ai.request.model": "gpt-4o-mini"}
        completion = {"llm.request.type": "completion", "gen_ai.request.model": "davinci-002"}
        body = {
            "resourceSpans": [
                attributes_span(f"00f067aa0ba902c{n}", attributes)
                for n, attributes in enumerate((genai, openinference, openllmetry, completion))
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200

        def counts(rule: dict) -> dict:
            return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]

        assert (counts(chats)["received"], counts(chats)["matched"]) == (4, 3)
        assert (counts(completions)["received"], counts(completions)["matched"]) == (4, 1)

    def test_provider_reads_the_same_in_every_convention(self, api: Api) -> None:
        """`provider` is `gen_ai.provider.name` (1.37 on), `gen_ai.system` (before it, and
        OpenLLMetry), OpenInference's `llm.provider`, else its `llm.system`."""
        client = api.tenant_client()
        openai_calls = make_rule(
            client,
            name="openai calls",
            sampling={"rate": 0},
            filter=[{"attribute": "provider", "op": "eq", "value": "openai"}],
        )
        chat = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini"}
        spans = (
            {**chat, "gen_ai.provider.name": "openai"},
            {**chat, "gen_ai.system": "openai"},
            {"openinference.span.kind": "LLM", "llm.system": "openai"},
            # OpenInference's provider (who served it) wins over its system (the API spoken).
            {"openinference.span.kind": "LLM", "llm.provider": "azure", "llm.system": "openai"},
            {**chat, "gen_ai.provider.name": "anthropic", "gen_ai.system": "openai"},
            chat,
        )
        body = {
            "resourceSpans": [
                attributes_span(f"00f067aa0ba902d{n}", attributes)
                for n, attributes in enumerate(spans)
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        counts = client.get(f"/v1/online_rules/{openai_calls['id']}").json()["counts"]
        assert (counts["received"], counts["matched"]) == (6, 3)

    def test_sampling_follows_the_trace_id(self, api: Api, judge: ScriptedJudge) -> None:
        """The lower 64 bits of the trace id decide, as OpenTelemetry's ratio sampler does:
        half the id space is taken at rate 0.5, whichever process receives it."""
        client = api.tenant_client()
        rule = make_rule(client, sampling={"rate": 0.5}, metrics=[{"type": "answer_relevancy"}])
        low, high = "0" * 16 + "7" + "f" * 15, "0" * 16 + "8" + "0" * 15
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba902b7", "app", "Question one?", trace_id=low),
                semconv_span("00f067aa0ba902b8", "app", "Question two?", trace_id=high),
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["sampled"] == 1 and counts["skipped"] == {"not_sampled": 1}
        # The one judged is the call whose trace id is below half of the id space.
        [result] = judged_results(api, client, rule["id"], 1)
        assert (result["trace_id"], result["span_id"]) == (low, "00f067aa0ba902b7")


class TestReceiverAnswers:
    def test_a_span_without_valid_ids_is_rejected_in_a_partial_success(self, api: Api) -> None:
        client = api.tenant_client()
        request = ExportTraceServiceRequest()
        span = request.resource_spans.add().scope_spans.add().spans.add()
        span.trace_id, span.span_id, span.name = b"\x01\x02", bytes(range(1, 9)), "chat"
        attribute = span.attributes.add()
        attribute.key, attribute.value.string_value = "gen_ai.operation.name", "chat"
        response = client.post(
            "/v1/traces",
            content=request.SerializeToString(),
            headers={"Content-Type": "application/x-protobuf"},
        )
        assert response.status_code == 200, response.text
        partial = ExportTraceServiceResponse.FromString(response.content).partial_success
        assert partial.rejected_spans == 1 and "trace or span id" in partial.error_message
        assert "span 'chat' has a trace id of 2 bytes, not 16" in partial.error_message

    def test_spans_with_all_zero_ids_are_rejected_and_the_others_taken(self, api: Api) -> None:
        """All-zero ids are invalid in OTLP: those spans are rejected, saying why, and the
        batch's other spans are taken."""
        client = api.tenant_client()
        rule = make_rule(client, sampling={"rate": 0})
        request = ExportTraceServiceRequest()
        spans = request.resource_spans.add().scope_spans.add().spans
        for name, trace_id, span_id in (
            ("zero trace", bytes(16), bytes(range(1, 9))),
            ("zero span", bytes.fromhex(TRACE_ID), bytes(8)),
            ("good", bytes.fromhex(TRACE_ID), bytes(range(1, 9))),
        ):
            span = spans.add()
            span.name, span.trace_id, span.span_id = name, trace_id, span_id
            attribute = span.attributes.add()
            attribute.key, attribute.value.string_value = "gen_ai.operation.name", "chat"
        response = client.post(
            "/v1/traces",
            content=request.SerializeToString(),
            headers={"Content-Type": "application/x-protobuf"},
        )
        assert response.status_code == 200, response.text
        partial = ExportTraceServiceResponse.FromString(response.content).partial_success
        assert partial.rejected_spans == 2
        assert "span 'zero trace' has an all-zero trace id" in partial.error_message
        assert "span 'zero span' has an all-zero span id" in partial.error_message
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["received"] == 1

    def test_a_json_span_with_a_bad_id_is_rejected_alone(self, api: Api) -> None:
        """As a protobuf export is answered: the bad span is counted in partial_success with
        the field at fault, the batch's other spans are taken (it was a 400 for the batch)."""
        client = api.tenant_client()
        rule = make_rule(client, sampling={"rate": 0})
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba902b7", "app", "Capital of France?"),
                semconv_span("not-hex-at-all!!", "app", "Capital of Italy?"),
                semconv_span("00f067aa0ba902b9", "app", "Capital of Spain?", trace_id="abc"),
                semconv_span("00f067aa0ba902ba", "app", "Capital of Peru?", trace_id="0" * 32),
            ]
        }
        response = client.post("/v1/traces", json=body)
        assert response.status_code == 200, response.text
        partial = response.json()["partialSuccess"]
        assert partial["rejectedSpans"] == "3"
        message = partial["errorMessage"]
        assert "resourceSpans[1].scopeSpans[0].spans[0].spanId is not hex" in message
        assert "resourceSpans[2].scopeSpans[0].spans[0].traceId must be 32 hex digits" in message
        assert "span 'chat gpt-4o-mini' has an all-zero trace id" in message
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["received"] == 1
        # A body that is not OTLP at all is still refused whole.
        response = client.post("/v1/traces", json={"resourceSpans": [{"scopeSpans": 7}]})
        assert response.status_code == 400

    def test_a_json_span_nested_too_deep_is_rejected_alone(self, api: Api) -> None:
        """An attribute of arrays in arrays 50 deep leaves out its span, named in
        partial_success, not the batch (it was a 400 for the batch)."""
        client = api.tenant_client()
        rule = make_rule(client, sampling={"rate": 0})
        deep = semconv_span("00f067aa0ba902b8", "app", "Capital of Italy?")
        value: dict = {"stringValue": "leaf"}
        for _ in range(50):
            value = {"arrayValue": {"values": [value]}}
        deep["scopeSpans"][0]["spans"][0]["attributes"].append({"key": "deep", "value": value})
        body = {"resourceSpans": [semconv_span("00f067aa0ba902b7", "app", "Capital?"), deep]}
        response = client.post("/v1/traces", json=body)
        assert response.status_code == 200, response.text
        partial = response.json()["partialSuccess"]
        assert partial["rejectedSpans"] == "1"
        assert (
            "resourceSpans[1].scopeSpans[0].spans[0] nests deeper than" in (partial["errorMessage"])
        )
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]["received"] == 1

    def test_a_protobuf_export_gets_a_protobuf_answer(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post(
            "/v1/traces", content=b"", headers={"Content-Type": "application/x-protobuf"}
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/x-protobuf"
        answer = ExportTraceServiceResponse.FromString(response.content)
        assert not answer.HasField("partial_success")

    def test_a_body_that_does_not_decode_is_a_400_status_in_its_encoding(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post(
            "/v1/traces",
            content=b"\xff\xff\xff",
            headers={"Content-Type": "application/x-protobuf"},
        )
        assert response.status_code == 400
        assert response.headers["content-type"] == "application/x-protobuf"
        status = Status.FromString(response.content)
        assert status.code == 3 and "does not decode" in status.message
        response = client.post(
            "/v1/traces", content=b"{not json", headers={"Content-Type": "application/json"}
        )
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == 3 and body["status"] == 400 and "does not decode" in body["message"]

    def test_an_unknown_encoding_or_type_and_a_missing_key_are_refused(self, api: Api) -> None:
        client = api.tenant_client()
        brotli = client.post(
            "/v1/traces",
            content=base64.b64encode(b"plain"),
            headers={"Content-Type": "application/json", "Content-Encoding": "br"},
        )
        assert brotli.status_code == 415
        assert brotli.headers["content-type"] == "application/problem+json"
        problem = brotli.json()
        assert problem["code"] == 3 and problem["status"] == 415
        assert problem["detail"] == (
            "Content-Encoding 'br' is not supported: send gzip, deflate or identity"
        )
        assert [error["loc"] for error in problem["errors"]] == ["header.Content-Encoding"]
        zstd = client.post(
            "/v1/logs",
            content=b"\x28\xb5\x2f\xfd",
            headers={"Content-Type": "application/x-protobuf", "Content-Encoding": "zstd"},
        )
        assert zstd.status_code == 415
        assert zstd.headers["content-type"] == "application/x-protobuf"
        status = Status.FromString(zstd.content)
        assert "'zstd' is not supported: send gzip, deflate or identity" in status.message
        text = client.post("/v1/traces", content=b"x", headers={"Content-Type": "text/plain"})
        assert text.status_code == 415
        untyped = client.post("/v1/traces", content=b"x")
        assert untyped.status_code == 415
        assert untyped.json()["detail"] == (
            "The request has no Content-Type: send application/x-protobuf or application/json"
        )
        anonymous = api.client().post(
            "/v1/traces", content=b"", headers={"Content-Type": "application/x-protobuf"}
        )
        assert anonymous.status_code == 401
        assert Status.FromString(anonymous.content).code == 16


class TestLimits:
    def test_an_export_past_the_limit_is_a_413_compressed_or_not(self, tmp_path: Path) -> None:
        with side_app(tmp_path, otlp_max_bytes=4096) as app, app.tenant_client() as client:
            # 1 MiB of zeros gzips to about 1 KiB: refused once it grows past the limit.
            bomb = gzip.compress(b"\0" * (1 << 20))
            assert len(bomb) < 4096
            response = client.post(
                "/v1/traces",
                content=bomb,
                headers={
                    "Content-Type": "application/x-protobuf",
                    "Content-Encoding": "gzip",
                },
            )
            assert response.status_code == 413
            status = Status.FromString(response.content)
            assert status.code == 8 and "4096" in status.message
            # A body past the limit as sent is refused before it is read, and before any route
            # takes it: still a Status in the request's encoding, as the receiver answers.
            response = client.post(
                "/v1/logs",
                content=b"\0" * 8192,
                headers={"Content-Type": "application/x-protobuf"},
            )
            assert response.status_code == 413
            assert response.headers["content-type"] == "application/x-protobuf"
            status = Status.FromString(response.content)
            assert status.code == 8 and "LOUPE_OTLP_MAX_BYTES" in status.message
            response = client.post(
                "/v1/traces", content=b" " * 8192, headers={"Content-Type": "application/json"}
            )
            assert response.status_code == 413
            assert response.json()["code"] == 8 and response.json()["status"] == 413
            # Other routes keep their problem+json.
            response = client.post(
                "/v1/evaluations",
                content=b" " * ((4 << 20) + 1),
                headers={"Content-Type": "application/json"},
            )
            assert response.status_code == 413
            assert "code" not in response.json()


class TestBudgets:
    def test_a_rule_whose_daily_budget_is_spent_judges_nothing_and_says_so(self, api: Api) -> None:
        client = api.tenant_client()
        spent = make_rule(client, name="spent", daily_usd=0)
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba902b7", "app", "Question one?"),
                semconv_span("00f067aa0ba902b8", "app", "Question two?"),
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        counts = client.get(f"/v1/online_rules/{spent['id']}").json()["counts"]
        assert counts["sampled"] == 2 and counts["sent"] == 0
        assert counts["skipped"] == {"over_budget": 2}
        assert client.get(f"/v1/online_rules/{spent['id']}/results").json()["data"] == []


class TestSameImageTwice:
    def test_an_image_seen_again_the_same_day_is_judged_again(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Two requests bring the same image to one rule's day: the day already holds the
        image, and the second request is judged like the first (it was a 500 losing the batch)."""
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client)
        image = data_url(red_square_png())
        for span_id in ("00f067aa0ba902c1", "00f067aa0ba902c2"):
            span = semconv_span(span_id, "app", "What is in this image?")
            attributes = span["scopeSpans"][0]["spans"][0]["attributes"]
            parts = [
                {"type": "text", "content": "What is in this image?"},
                {"type": "uri", "modality": "image", "uri": image},
            ]
            attributes[2] = {
                "key": "gen_ai.input.messages",
                "value": {"stringValue": json.dumps([{"role": "user", "parts": parts}])},
            }
            response = client.post("/v1/traces", json={"resourceSpans": [span]})
            assert response.status_code == 200, response.text
        results = judged_results(api, client, rule["id"], 2)
        assert all(result["error"] is None for result in results)
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["judged"] == 2 and counts["skipped"] == {}
