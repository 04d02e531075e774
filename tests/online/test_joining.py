"""A call whose messages travel in log records, sent apart from its span: joined whichever of
the two arrives first, and counted without content once the join window passes with no records
(issue 26: the earlier per-message events and the details event as log records)."""

import json
import time
from pathlib import Path

from app.online import ingest
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge
from tests.otlp.capture import Receiver, ask_text, instrumented

TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"
SPAN = "00f067aa0ba902b7"


def bare_span(service: str = "app") -> dict:
    """A chat span with no message content (it is in the details log record)."""
    return {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": service}}]
                },
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": TRACE,
                                "spanId": SPAN,
                                "name": "chat gpt-4o-mini",
                                "kind": 3,
                                "attributes": [
                                    {
                                        "key": "gen_ai.operation.name",
                                        "value": {"stringValue": "chat"},
                                    },
                                    {
                                        "key": "gen_ai.request.model",
                                        "value": {"stringValue": "gpt-4o-mini"},
                                    },
                                ],
                            }
                        ]
                    }
                ],
            }
        ]
    }


def details_record(question: str) -> dict:
    """The details event as a log record: the call's messages, for the span above."""
    messages = [{"role": "user", "parts": [{"type": "text", "content": question}]}]
    output = [{"role": "assistant", "parts": [{"type": "text", "content": "Rome."}]}]
    return {
        "resourceLogs": [
            {
                "scopeLogs": [
                    {
                        "logRecords": [
                            {
                                "timeUnixNano": "1795685647148688092",
                                "eventName": "gen_ai.client.inference.operation.details",
                                "traceId": TRACE,
                                "spanId": SPAN,
                                "body": {},
                                "attributes": [
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
                        ]
                    }
                ]
            }
        ]
    }


def counts(client, rule: dict) -> dict:  # type: ignore[no-untyped-def]
    return client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]


class TestJoining:
    def test_the_official_instrumentations_details_event_completes_its_span(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client)
        judge.script(model_and_judge)
        with instrumented(
            "official",
            Receiver(api.base_url),
            official_mode="EVENT_ONLY",
            headers={"Authorization": f"Bearer {key}"},
        ):
            ask_text(judge.base_url, "Name a prime number.")
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None
        assert counts(client, rule)["judged"] == 1

    def test_a_span_waits_for_records_sent_after_it(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client)
        assert client.post("/v1/traces", json=bare_span()).status_code == 200
        # Waiting: not counted yet, neither as judged nor as lacking content.
        assert counts(client, rule)["received"] == 0
        assert client.post("/v1/logs", json=details_record("Capital of Italy?")).status_code == 200
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["span_id"] == SPAN and result["trace_id"] == TRACE
        assert counts(client, rule) == {
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

    def test_records_wait_for_the_span_sent_after_them(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        rule = make_rule(client)
        assert client.post("/v1/logs", json=details_record("Capital of Spain?")).status_code == 200
        assert client.post("/v1/traces", json=bare_span()).status_code == 200
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["span_id"] == SPAN

    def test_a_span_whose_records_never_come_is_counted_without_content(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path, otlp_join_seconds=0.2) as app, app.tenant_client() as client:
            rule = make_rule(client, metrics=[{"type": "answer_relevancy"}])
            assert client.post("/v1/traces", json=bare_span()).status_code == 200
            assert counts(client, rule)["received"] == 0
            deadline = time.monotonic() + 30
            while counts(client, rule)["received"] == 0:
                # The ticker runs this every tick; called here so as not to wait for one.
                ingest.expire_pending(app.served.runtime)
                assert time.monotonic() < deadline
                time.sleep(0.1)
            assert counts(client, rule) == {
                "received": 1,
                "matched": 1,
                "sampled": 1,
                "sent": 0,
                "judged": 0,
                "errored": 0,
                "backfilled": 0,
                "skipped": {"no_content": 1},
                "dropped": {},
            }
