"""Exporters and collectors retry: a span a rule already stored is not judged again, whether
the retry comes in the same request, a later one or the next UTC day; the repeat is counted
`skipped:duplicate` and the rule's counts, results and days hold the call once (issue 26)."""

from datetime import timedelta

from sqlalchemy import update

from app.db import utcnow
from app.models import OnlineRuleDay
from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

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
