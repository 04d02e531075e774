"""Exporters and collectors retry: a span a rule already stored is not judged again, whether
the retry comes in the same request, a later one or the next UTC day; the repeat is counted
`skipped:duplicate` and the rule's counts, results and days hold the call once (issue 26)."""

import json
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import update

from app.db import utcnow
from app.models import OnlineRuleDay
from app.online import ingest
from tests.console.helpers import signed_in
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span
from tests.otlp.capture import ANSWER, ask_text, capture_server, instrumented

RELEVANCY = [{"type": "answer_relevancy"}]


def stored_spans(client, rule_id: str) -> list[str]:
    """The span ids of the rule's stored calls (test cases), over all its days."""
    days = client.get("/v1/evaluations", params={"kind": "online", "limit": 100}).json()["data"]
    spans = []
    for day in days:
        if day["metadata"].get("online_rule_id") != rule_id:
            continue
        page = client.get(f"/v1/evaluations/{day['id']}/test_cases").json()
        spans.extend(case["metadata"]["span_id"] for case in page["data"])
    return sorted(spans)


class TestDuplicates:
    def test_a_span_sent_again_is_counted_a_duplicate_not_judged_twice(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, metrics=RELEVANCY)
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba90401", "app", "Capital of France?"),
                semconv_span("00f067aa0ba90402", "app", "Capital of Spain?"),
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        judged_results(api, client, rule["id"], 2)
        # The retry, and a request holding one span twice.
        assert client.post("/v1/traces", json=body).status_code == 200
        twice = {"resourceSpans": [semconv_span("00f067aa0ba90403", "app", "Capital of Peru?")] * 2}
        assert client.post("/v1/traces", json=twice).status_code == 200
        judged_results(api, client, rule["id"], 3)
        api.run_queue()

        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert (counts["received"], counts["sampled"], counts["sent"]) == (6, 6, 3)
        assert counts["judged"] + counts["errored"] == 3
        assert counts["skipped"] == {"duplicate": 3}
        results = client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"]
        assert sorted(result["span_id"] for result in results) == [
            "00f067aa0ba90401",
            "00f067aa0ba90402",
            "00f067aa0ba90403",
        ]
        assert stored_spans(client, rule["id"]) == [
            "00f067aa0ba90401",
            "00f067aa0ba90402",
            "00f067aa0ba90403",
        ]
        console = signed_in(api, key)
        page = console.get(f"/console/online_rules/{rule['id']}").text
        console.close()
        assert "Duplicate: the rule had already stored this span" in page

    def test_a_retry_after_midnight_is_a_duplicate_of_yesterdays_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client, metrics=RELEVANCY)
        body = {"resourceSpans": [semconv_span("00f067aa0ba90501", "app", "Capital of Chile?")]}
        assert client.post("/v1/traces", json=body).status_code == 200
        judged_results(api, client, rule["id"], 1)
        # The rule's day becomes yesterday's: the retry comes on the next UTC day.
        yesterday = (utcnow() - timedelta(days=1)).date().isoformat()
        with api.served.runtime.session() as session:
            session.execute(
                update(OnlineRuleDay)
                .where(OnlineRuleDay.rule_id == rule["id"])
                .values(day=yesterday)
            )
            session.commit()

        assert client.post("/v1/traces", json=body).status_code == 200

        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["sent"] == 1
        assert counts["skipped"] == {"duplicate": 1}
        assert stored_spans(client, rule["id"]) == ["00f067aa0ba90501"]

    def test_a_span_sent_again_without_its_records_is_a_duplicate(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        """The official instrumentation's content in its details log record (EVENT_ONLY): the
        span export alone is retried after both were judged (a collector retrying one request;
        traces and logs travel apart). The copy waits for records that went to the first one,
        in vain: once the join window passes it is the rule's duplicate, not a call without
        content (it counted `no_content`, saying capture is off)."""
        judge.script(model_and_judge)
        with (
            capture_server() as capture,
            side_app(tmp_path, judge_base_url=judge.base_url, otlp_join_seconds=0.2) as app,
            app.tenant_client() as client,
        ):
            with instrumented("official", capture, official_mode="EVENT_ONLY"):
                ask_text(judge.base_url, "Capital of France?")
            rule = make_rule(client, metrics=RELEVANCY)
            exports = capture.bodies("/v1/logs") + capture.bodies("/v1/traces")
            spans_only = capture.bodies("/v1/traces")
            for export in (*exports, *spans_only):
                response = client.post(
                    export.path, content=export.body, headers={"Content-Type": export.content_type}
                )
                assert response.status_code == 200, response.text
            judged_results(app, client, rule["id"], 1)
            deadline = time.monotonic() + 30
            while client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]["received"] < 2:
                # The ticker runs this every tick; called here so as not to wait for one.
                ingest.expire_pending(app.served.runtime)
                assert time.monotonic() < deadline
                time.sleep(0.1)

            counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
            assert (counts["received"], counts["sampled"], counts["sent"]) == (2, 2, 1)
            assert counts["skipped"] == {"duplicate": 1}

    def test_log_records_sent_again_before_their_span_are_joined_once(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """OpenLLMetry's per-message records (use_attributes=False) come before their span; an
        exporter retrying a logs request whose answer it lost sends them again. The call is
        judged on its messages once: its answer was joined twice, and the judge read it twice
        in one actual_output."""
        judge.script(model_and_judge)
        client = api.tenant_client()
        with capture_server() as capture, instrumented("openllmetry-events", capture):
            ask_text(judge.base_url, "Capital of France?")
        rule = make_rule(client, metrics=RELEVANCY)
        logs, traces = capture.bodies("/v1/logs"), capture.bodies("/v1/traces")
        assert logs and traces
        for export in (*logs, *logs, *traces):
            response = client.post(
                export.path, content=export.body, headers={"Content-Type": export.content_type}
            )
            assert response.status_code == 200, response.text

        [result] = judged_results(api, client, rule["id"], 1)
        assert result["test_case"]["actual_output"] == ANSWER
        assert result["test_case"]["input"] == "Capital of France?"
        asked = judge.calls_for("answer_relevancy_verdicts")
        assert asked and all(json.dumps(request).count(ANSWER) == 1 for request in asked)
