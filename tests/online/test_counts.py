"""A rule's counts say what became of the calls it sent to its judge: results judged, and
results stored with an error once the judge failed past its retries, on the rule, on /metrics
and on its console page; a deleted rule's series leave /metrics (issue 26)."""

import json

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, task_of
from tests.online.test_receiver import judged_results, make_rule, model_and_judge, semconv_span

FAILING_QUESTION = "Capital of Italy?"


def judge_failing_on_one_call(request: dict) -> Reply | dict:
    """The judge answers every call's task but the Italian one's, which always gets a 500."""
    if task_of(request) is not None and FAILING_QUESTION in json.dumps(request):
        return Reply(status=500, content="model crashed")
    return model_and_judge(request)


def series(api: Api, rule_id: str) -> dict[str, float]:
    """The rule's `loupe_online_calls_total` samples on /metrics, by outcome."""
    found = {}
    prefix = "loupe_online_calls_total{"
    for line in api.client().get("/metrics").text.splitlines():
        if line.startswith(prefix) and f'rule="{rule_id}"' in line:
            outcome = line.split('outcome="', 1)[1].split('"', 1)[0]
            found[outcome] = float(line.rsplit(" ", 1)[1])
    return found


class TestCounts:
    def test_a_result_stored_with_an_error_counts_as_errored_not_judged(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_failing_on_one_call)
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client)
        body = {
            "resourceSpans": [
                semconv_span("00f067aa0ba90301", "app", "Capital of France?"),
                semconv_span("00f067aa0ba90302", "app", FAILING_QUESTION),
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        path = f"/v1/online_rules/{rule['id']}"
        assert client.get(path).json()["counts"]["sent"] == 2

        results = judged_results(api, client, rule["id"], 2)

        errored = [result for result in results if result["error"] is not None]
        assert [result["span_id"] for result in errored] == ["00f067aa0ba90302"]
        counts = client.get(path).json()["counts"]
        assert counts == {
            "received": 2,
            "matched": 2,
            "sampled": 2,
            "sent": 2,
            "judged": 1,
            "errored": 1,
            "backfilled": 0,
            "skipped": {},
            "dropped": {},
        }
        assert series(api, rule["id"]) == {
            "received": 2.0,
            "matched": 2.0,
            "sampled": 2.0,
            "sent": 2.0,
            "judged": 1.0,
            "errored": 1.0,
        }
        console = signed_in(api, key)
        page = console.get(f"/console/online_rules/{rule['id']}").text
        console.close()
        assert "<dt>Sent to its judge</dt><dd>2</dd>" in page
        assert "<dt>Results judged</dt><dd>1</dd>" in page
        assert "<dt>Results errored</dt><dd>1</dd>" in page

    def test_a_deleted_rules_series_leave_metrics(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        deleted, kept = make_rule(client, name="deleted"), make_rule(client, name="kept")
        body = {"resourceSpans": [semconv_span("00f067aa0ba90311", "app", "Capital of Peru?")]}
        assert client.post("/v1/traces", json=body).status_code == 200
        judged_results(api, client, deleted["id"], 1)
        assert series(api, deleted["id"])["judged"] == 1.0

        assert client.delete(f"/v1/online_rules/{deleted['id']}").status_code == 204

        assert series(api, deleted["id"]) == {}
        assert series(api, kept["id"])["received"] == 1.0
