"""Scores go back out (issue 26 item 6): each result of an online rule reaches an OTLP/HTTP
collector on loopback as a `gen_ai.evaluation.result` log record in the judged span's context,
sent by the OpenTelemetry SDK's exporter, at least once even when the collector is away for a
while. Spans go in through POST /v1/traces, the scripted judge scores them, the ticker sends
the scores out; the events are decoded with Loupe's own OTLP decoder."""

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app import otlp
from app.config import Settings
from app.config.errors import problem_lines
from app.ids import new_id
from app.online.export import settled_before
from tests.fixtures.api import Api, app_in_mode, fast_settings, side_app
from tests.fixtures.judge import Reply, ScriptedJudge, task_of
from tests.online.test_receiver import G_EVAL, judged_results, make_rule, model_and_judge
from tests.online.test_receiver import semconv_span as span_of
from tests.otlp.capture import Capture, Receiver, ask_text, capture_server, instrumented
from workers import jobs

TOKEN = "collector-token-0123456789"
BROKEN = "Please break the judge."


@pytest.fixture(scope="module")
def collector() -> Iterator[Capture]:
    """The operator's collector (LOUPE_OTLP_EXPORT_ENDPOINT) of the module's apps."""
    with capture_server() as capture:
        yield capture


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def exporting(request: pytest.FixtureRequest, collector: Capture) -> Iterator[Api]:
    """An app in each mode exporting scores to `collector`: every result at once (no settling
    delay), and an exporter deadline shorter than its first retry's backoff, so a refusal is
    a failed export job, retried by a later one."""
    judge = request.getfixturevalue("judge_server")
    overrides = {
        "judge_base_url": judge.base_url,
        "otlp_export_endpoint": collector.endpoint,
        "otlp_export_headers": f"Authorization=Bearer%20{TOKEN}",
        "otlp_export_delay_seconds": 0,
        "otlp_export_timeout_seconds": 0.5,
    }
    with app_in_mode(request, "export", **overrides) as app:
        yield app


def judge_or_break(request: dict) -> Reply | dict:
    """The application's model answers; the judge refuses calls about BROKEN (400, which is
    not retried), and answers plausibly otherwise."""
    if task_of(request) is not None and BROKEN in json.dumps(request):
        return Reply(status=400, content="no")
    return model_and_judge(request)


def send_spans(client: httpx.Client, *questions: str) -> tuple[str, list[str]]:
    """One trace holding a chat call per question; its trace id and the calls' span ids."""
    trace_id = uuid.uuid4().hex
    span_ids = [uuid.uuid4().hex[:16] for _ in questions]
    spans = [
        span_of(span_id, "shop", question, trace_id=trace_id)
        for span_id, question in zip(span_ids, questions, strict=True)
    ]
    response = client.post("/v1/traces", json={"resourceSpans": spans})
    assert response.status_code == 200, response.text
    return trace_id, span_ids


def exported(api: Api, capture: Capture, trace_id: str, count: int) -> list[otlp.LogRecord]:
    """Tick until `capture` accepted `count` records of the trace (200 answers only)."""
    deadline = time.monotonic() + 60
    while True:
        if api.redis is not None:
            # The worker's ticker does this in distributed mode; the embedded app ticks itself.
            jobs.tick()
            api.run_queue()
        records = [
            record
            for export in capture.bodies("/v1/logs")
            if export.status == 200
            for record in otlp.decode_logs(export.body, export.content_type)
            if record.trace_id == trace_id
        ]
        if len(records) >= count:
            return records
        assert time.monotonic() < deadline, f"{len(records)} of {count} events exported"
        time.sleep(0.05)


def counter(api: Api, outcome: str) -> float:
    text = api.client().get("/metrics").text
    name = f'loupe_online_exported_events_total{{outcome="{outcome}"}} '
    lines = [line for line in text.splitlines() if line.startswith(name)]
    return float(lines[0].split()[-1]) if lines else 0.0


class TestScoresGoOut:
    def test_each_result_is_an_evaluation_event_of_the_judged_span(
        self, exporting: Api, collector: Capture, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = exporting.tenant_client()
        rule = make_rule(client, metrics=[G_EVAL, {**G_EVAL, "name": "answers", "threshold": 1}])
        before = counter(exporting, "exported")
        trace_id, span_ids = send_spans(client, "Capital of France?", "Capital of Spain?")
        results = judged_results(exporting, client, rule["id"], 4)

        records = exported(exporting, collector, trace_id, 4)
        assert len(records) == 4, "each result once"
        by_result = {record.attributes["loupe.result.id"]: record for record in records}
        for result in results:
            record = by_result[result["id"]]
            assert record.event_name == "gen_ai.evaluation.result"
            assert record.trace_id == trace_id and record.span_id == result["span_id"]
            assert result["error"] is None and result["score"] is not None
            assert record.attributes == {
                "gen_ai.evaluation.name": result["metric"],
                "gen_ai.evaluation.score.value": pytest.approx(result["score"]),
                "gen_ai.evaluation.score.label": "pass" if result["passed"] else "fail",
                "gen_ai.evaluation.explanation": result["reason"],
                "loupe.result.id": result["id"],
                "loupe.online_rule.id": rule["id"],
            }
            assert isinstance(record.attributes["gen_ai.evaluation.score.value"], float)
            assert record.scope_name == "loupe.online" and record.resource["service.name"]
        assert {r.span_id for r in records} == set(span_ids)
        assert {r.attributes["gen_ai.evaluation.name"] for r in records} == {"describes", "answers"}
        # A result under its threshold is labelled fail.
        assert {r.attributes["gen_ai.evaluation.score.label"] for r in records} == {"pass", "fail"}
        assert counter(exporting, "exported") >= before + 4
        # The operator's collector gets LOUPE_OTLP_EXPORT_HEADERS.
        assert {export.headers.get("authorization") for export in collector.bodies("/v1/logs")} == {
            f"Bearer {TOKEN}"
        }
        # Nothing is sent twice once accepted: later ticks find nothing new.
        again = exported(exporting, collector, trace_id, 4)
        assert len(again) == 4

    def test_an_errored_result_carries_its_error_type(
        self, exporting: Api, collector: Capture, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_or_break)
        client = exporting.tenant_client()
        rule = make_rule(client)
        trace_id, [span_id] = send_spans(client, BROKEN)
        [result] = judged_results(exporting, client, rule["id"], 1)
        assert result["error"] is not None

        [record] = exported(exporting, collector, trace_id, 1)
        assert record.span_id == span_id
        assert record.attributes["error.type"] == result["error"]["type"]
        assert record.attributes["gen_ai.evaluation.name"] == "describes"
        assert record.attributes["gen_ai.evaluation.explanation"] == result["error"]["message"]
        assert "gen_ai.evaluation.score.value" not in record.attributes
        assert "gen_ai.evaluation.score.label" not in record.attributes

    @pytest.mark.parametrize("which", ["official", "openinference", "openllmetry"])
    def test_a_traced_calls_event_names_its_response(
        self, exporting: Api, collector: Capture, judge: ScriptedJudge, which: str
    ) -> None:
        """The event carries the judged call's gen_ai.response.id, as the conventions
        recommend, from the span of each real instrumentation (OpenInference keeps it in
        output.value's response JSON)."""
        response_id = f"chatcmpl-{uuid.uuid4().hex}"

        def model(request: dict) -> Reply | dict:
            if task_of(request) is not None:
                return model_and_judge(request)
            choice = {"index": 0, "message": {"role": "assistant", "content": "Paris."}}
            body = {
                "id": response_id,
                "object": "chat.completion",
                "created": 1,
                "model": "gpt-4o-mini",
                "choices": [{**choice, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 9, "completion_tokens": 2, "total_tokens": 11},
            }
            return Reply(raw_body=json.dumps(body).encode())

        judge.script(model)
        key = exporting.new_key()
        client = exporting.client(key)
        app_model = [{"attribute": "model", "op": "eq", "value": "gpt-4o-mini"}]
        rule = make_rule(client, filter=app_model)
        with instrumented(
            which, Receiver(exporting.base_url), headers={"Authorization": f"Bearer {key}"}
        ):
            ask_text(judge.base_url, "Capital of France?")
        [result] = judged_results(exporting, client, rule["id"], 1)

        [record] = exported(exporting, collector, result["trace_id"], 1)
        assert record.span_id == result["span_id"]
        assert record.attributes["gen_ai.response.id"] == response_id
        assert result["test_case"]["metadata"]["response_id"] == response_id

    def test_a_collector_that_is_away_costs_time_not_events(
        self, exporting: Api, collector: Capture, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = exporting.tenant_client()
        failed_before = counter(exporting, "failed")
        with capture_server() as away:
            away.refusals.extend([503, 503])
            rule = make_rule(client, export_endpoint=away.endpoint)
            trace_id, span_ids = send_spans(client, "One?", "Two?", "Three?")
            results = judged_results(exporting, client, rule["id"], 3)

            records = exported(exporting, away, trace_id, 3)
            refused = [e for e in away.bodies("/v1/logs") if e.status == 503]
            assert len(refused) == 2, "each refusal was a failed export, retried later"
            assert {r.attributes["loupe.result.id"] for r in records} == {
                result["id"] for result in results
            }
            assert {r.span_id for r in records} == set(span_ids)
        assert counter(exporting, "failed") > failed_before
        # The rule's own endpoint took the place of the operator's collector.
        assert not [
            record
            for export in collector.bodies("/v1/logs")
            for record in otlp.decode_logs(export.body, export.content_type)
            if record.trace_id == trace_id
        ]

    def test_a_rules_own_endpoint_overrides_the_operators(
        self,
        exporting: Api,
        collector: Capture,
        judge: ScriptedJudge,
        monkeypatch: pytest.MonkeyPatch,
    ) -> None:
        # Loupe's own telemetry settings: the SDK would add these headers to every export, and
        # describe the operator's deployment in every record's resource.
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_HEADERS", "x-process-secret=do-not-leak")
        monkeypatch.setenv("OTEL_RESOURCE_ATTRIBUTES", "k8s.namespace.name=loupe-prod-internal")
        monkeypatch.setenv("OTEL_SERVICE_NAME", "loupe-prod-internal")
        judge.script(model_and_judge)
        client = exporting.tenant_client()
        rule = make_rule(client, enabled=False)
        assert rule["export_endpoint"] is None
        with capture_server() as own:
            changed = client.patch(
                f"/v1/online_rules/{rule['id']}", json={"export_endpoint": own.endpoint + "/"}
            )
            assert changed.status_code == 200, changed.text
            assert changed.json()["export_endpoint"] == own.endpoint
            assert client.get(f"/v1/online_rules/{rule['id']}").json()["export_endpoint"] == (
                own.endpoint
            )
            client.post(f"/v1/online_rules/{rule['id']}/enable")
            trace_id, _ = send_spans(client, "Where is Rome?")
            [result] = judged_results(exporting, client, rule["id"], 1)
            [record] = exported(exporting, own, trace_id, 1)
            assert record.attributes["loupe.result.id"] == result["id"]
            assert all(export.path == "/v1/logs" for export in own.exports)
            # A tenant's collector gets neither the operator's headers nor the process's.
            for export in own.exports:
                assert "authorization" not in export.headers
                assert "x-process-secret" not in export.headers
                assert b"loupe-prod-internal" not in export.body
            assert record.resource["service.name"] == "loupe"
        assert not [
            record
            for export in collector.bodies("/v1/logs")
            for record in otlp.decode_logs(export.body, export.content_type)
            if record.trace_id == trace_id
        ]
        # null puts the rule back on the operator's collector.
        cleared = client.patch(f"/v1/online_rules/{rule['id']}", json={"export_endpoint": None})
        assert cleared.json()["export_endpoint"] is None


class TestExportEndpointPolicy:
    def test_an_endpoint_the_webhook_policy_refuses_is_a_422_naming_the_field(
        self, tmp_path: Path
    ) -> None:
        """Loopback and private addresses are refused unless the operator allows them: checked
        on the addresses themselves, nothing is sent anywhere."""
        with side_app(tmp_path, allow_private_urls=False) as app:
            client = app.tenant_client()
            for url in ("http://127.0.0.1:4318", "http://10.1.2.3:4318", "http://[::1]:4318"):
                response = client.post(
                    "/v1/online_rules",
                    json={
                        "name": "out",
                        "sampling": {"rate": 1},
                        "metrics": [{"type": "answer_relevancy"}],
                        "export_endpoint": url,
                    },
                )
                assert response.status_code == 422, response.text
                assert response.headers["content-type"].startswith("application/problem+json")
                fields = [error["loc"] for error in response.json()["errors"]]
                assert fields == ["export_endpoint"], response.text
            rule = make_rule(client, metrics=[{"type": "answer_relevancy"}])
            changed = client.patch(
                f"/v1/online_rules/{rule['id']}",
                json={"export_endpoint": "http://127.0.0.1:4318"},
            )
            assert changed.status_code == 422
            assert [e["loc"] for e in changed.json()["errors"]] == ["export_endpoint"]
            # A body failing its schema elsewhere still gets the policy's word in the same 422.
            both = client.post(
                "/v1/online_rules",
                json={"name": "", "sampling": {"rate": 1}, "metrics": [], **_loopback()},
            )
            assert both.status_code == 422
            assert "export_endpoint" in [e["loc"] for e in both.json()["errors"]]
            assert client.get(f"/v1/online_rules/{rule['id']}").json()["export_endpoint"] is None

    def test_an_endpoint_that_is_no_http_url_is_refused(self, api: Api) -> None:
        client = api.tenant_client()
        for url in ("ftp://collector:21", "http://user:pw@collector:4318", "collector:4318"):
            response = client.post(
                "/v1/online_rules",
                json={
                    "name": "out",
                    "sampling": {"rate": 1},
                    "metrics": [{"type": "answer_relevancy"}],
                    "export_endpoint": url,
                },
            )
            assert response.status_code == 422, url
            assert "export_endpoint" in [e["loc"] for e in response.json()["errors"]]


def _loopback() -> dict[str, str]:
    return {"export_endpoint": "http://127.0.0.1:4318"}


class TestExportSettings:
    def test_the_endpoint_gets_v1_logs_appended_and_the_headers_are_a_secret(self) -> None:
        settings = fast_settings(
            otlp_export_endpoint="http://127.0.0.1:4318/",
            otlp_export_headers=f"Authorization=Bearer%20{TOKEN},X-Team=evals",
        )
        assert settings.otlp_export_endpoint == "http://127.0.0.1:4318"
        assert settings.otlp_export_header_map() == {
            "Authorization": f"Bearer {TOKEN}",
            "X-Team": "evals",
        }
        assert TOKEN in settings.secret_values()
        assert TOKEN not in repr(settings)

    def test_a_malformed_header_is_named_without_its_value(self) -> None:
        with pytest.raises(ValidationError) as refused:
            Settings(otlp_export_headers=f"Authorization Bearer {TOKEN}")
        lines = problem_lines(refused.value)
        assert lines and lines[0].startswith("LOUPE_OTLP_EXPORT_HEADERS: pair 1")
        assert TOKEN not in "\n".join(lines)
        with pytest.raises(ValidationError):
            Settings(otlp_export_endpoint="collector:4318")

    def test_a_result_is_exported_once_older_than_the_delay(self) -> None:
        """A result id is issued before its job commits it: the cursor only passes ids older
        than LOUPE_OTLP_EXPORT_DELAY_SECONDS, so a slower job's earlier id is not skipped."""
        boundary = settled_before(fast_settings(otlp_export_delay_seconds=10))
        assert new_id("res") > boundary
        assert f"res_{int((time.time() - 11) * 1000):012x}{'f' * 16}" < boundary
