"""A call that lacks a test-case field one of a rule's metrics needs (faithfulness without a
retrieval context) is not sent to the rule's judge, as POST /v1/evaluations refuses such a case:
it is counted `skipped:missing_fields`, and a rule whose metrics it fits judges it (issue 26)."""

import json
import time
from collections.abc import Iterator

import httpx
import pytest

from app.online import ingest
from tests.console.helpers import signed_in
from tests.fixtures.api import Api, app_in_mode
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


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def waiting(request: pytest.FixtureRequest) -> Iterator[Api]:
    """An app in each mode whose calls wait half a second for their trace's retrieval."""
    judge = request.getfixturevalue("judge_server")
    with app_in_mode(
        request, "missing", judge_base_url=judge.base_url, otlp_join_seconds=0.5
    ) as app:
        yield app


def settled(app: Api, client: httpx.Client, rule: dict, received: int) -> dict:
    """The rule's counts once it has counted `received` calls, the calls that waited for a
    retrieval in vain counted (the ticker does this every tick; called here not to wait)."""
    deadline = time.monotonic() + 30
    while (counts := client.get(f"/v1/online_rules/{rule['id']}").json()["counts"])[
        "received"
    ] < received:
        ingest.expire_pending(app.served.runtime)
        assert time.monotonic() < deadline, counts
        time.sleep(0.05)
    return counts


class TestMissingFields:
    def test_a_call_without_the_field_a_metric_needs_is_skipped_not_judged(
        self, waiting: Api, judge: ScriptedJudge
    ) -> None:
        api = waiting
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        grounded = make_rule(client, name="grounded", metrics=[{"type": "faithfulness"}])
        relevant = make_rule(client, name="relevant", metrics=[{"type": "answer_relevancy"}])
        bare = {"resourceSpans": [semconv_span("00f067aa0ba90601", "app", "Capital of France?")]}

        assert client.post("/v1/traces", json=bare).status_code == 200
        judged_results(api, client, relevant["id"], 1)

        # It waits LOUPE_OTLP_JOIN_SECONDS for a retrieval of its trace, which never comes.
        counts = settled(api, client, grounded, received=1)
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
