"""A call that lacks a test-case field one of a rule's metrics needs (faithfulness without a
retrieval context) is not sent to the rule's judge, as POST /v1/evaluations refuses such a case:
it is counted `skipped:missing_fields`, and a rule whose metrics it fits judges it (issue 26)."""

import json

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

TRACE_ID = "6c8efff798038103d269b633813fc60c"


def retrieval_span(span_id: str, document: str) -> dict:
    """A retrieval span (GenAI conventions) of TRACE_ID that started before the chat call."""
    documents = json.dumps([{"content": document}])
    return {
        "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "app"}}]},
        "scopeSpans": [
            {
                "scope": {"name": "hand-written"},
                "spans": [
                    {
                        "traceId": TRACE_ID,
                        "spanId": span_id,
                        "name": "retrieval",
                        "kind": 3,
                        "startTimeUnixNano": "1795685646148688092",
                        "endTimeUnixNano": "1795685646548688092",
                        "attributes": [
                            {"key": "gen_ai.operation.name", "value": {"stringValue": "retrieval"}},
                            {
                                "key": "gen_ai.retrieval.documents",
                                "value": {"stringValue": documents},
                            },
                        ],
                    }
                ],
            }
        ],
    }


class TestMissingFields:
    def test_a_call_without_the_field_a_metric_needs_is_skipped_not_judged(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        grounded = make_rule(client, name="grounded", metrics=[{"type": "faithfulness"}])
        relevant = make_rule(client, name="relevant", metrics=[{"type": "answer_relevancy"}])
        bare = {"resourceSpans": [semconv_span("00f067aa0ba90601", "app", "Capital of France?")]}

        assert client.post("/v1/traces", json=bare).status_code == 200
        judged_results(api, client, relevant["id"], 1)

        counts = client.get(f"/v1/online_rules/{grounded['id']}").json()["counts"]
        assert (counts["sampled"], counts["sent"]) == (1, 0)
        assert counts["skipped"] == {"missing_fields": 1}
        assert client.get(f"/v1/online_rules/{grounded['id']}/results").json()["data"] == []
        assert client.get(f"/v1/online_rules/{relevant['id']}").json()["counts"]["sent"] == 1
        console = signed_in(api, key)
        page = console.get(f"/console/online_rules/{grounded['id']}").text
        console.close()
        assert "Missing fields: one of the rule" in page

        # With its trace's retrieval, the same kind of call is judged for faithfulness.
        grounded_call = {
            "resourceSpans": [
                retrieval_span("00f067aa0ba90602", "Paris is the capital of France."),
                semconv_span("00f067aa0ba90603", "app", "Capital of France?", trace_id=TRACE_ID),
            ]
        }
        assert client.post("/v1/traces", json=grounded_call).status_code == 200
        [result] = judged_results(api, client, grounded["id"], 1)
        assert result["span_id"] == "00f067aa0ba90603"
        counts = client.get(f"/v1/online_rules/{grounded['id']}").json()["counts"]
        assert (counts["sent"], counts["skipped"]) == (1, {"missing_fields": 1})
        # The relevance rule, which needs no retrieval, judges that call too.
        judged = judged_results(api, client, relevant["id"], 2)
        assert {result["span_id"] for result in judged} == {"00f067aa0ba90601", "00f067aa0ba90603"}
