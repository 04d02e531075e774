"""A third audit of online rules (issue 26), through the HTTP API: one 422 naming every field at
fault (strict types, a change's alert checked against the rule's kept metrics, a backfill's
window), a trend echoing the range its rollups cover, a webhook endpoint an alert uses kept
from deletion, and a rule warning when its daily budget cannot be enforced."""

from datetime import datetime, timedelta
from typing import Any

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.online.test_backfill import send as backfill_send
from tests.online.test_backfill import span as backfill_span
from tests.online.test_receiver import G_EVAL, judged_results, make_rule, model_and_judge
from tests.online.test_rules import rule_body
from tests.online.test_trend import CORRECT, DAY, move_rollups, score_by_question, send
from tests.test_problems import locs, problem


def made(client: Any, **changes: Any) -> dict[str, Any]:
    response = client.post("/v1/online_rules", json=rule_body(**changes))
    assert response.status_code == 201, response.text
    return response.json()


class TestOneAnswerNamesEveryField:
    def test_a_changed_alert_is_refused_for_each_field_and_its_unknown_metric_at_once(
        self, api: Api
    ) -> None:
        client = api.tenant_client()
        rule = made(client)
        refused = problem(
            client.patch(
                f"/v1/online_rules/{rule['id']}",
                json={"alert": {"metric": "faithfulness", "threshold": 2, "window_hours": 0}},
            ),
            422,
        )
        assert {"alert.threshold", "alert.window_hours", "alert.metric"} <= set(locs(refused))
        messages = {e["loc"]: e["msg"] for e in refused["errors"]}
        assert "not a metric of this rule" in messages["alert.metric"]

    def test_a_backfill_names_a_bad_since_beside_the_other_fields(self, api: Api) -> None:
        client = api.tenant_client()
        rule = made(client)
        refused = problem(
            client.post(
                f"/v1/online_rules/{rule['id']}/backfill",
                json={"since": "nope", "until": 5, "extra": 1},
            ),
            422,
        )
        assert {"since", "until", "extra"} <= set(locs(refused)), refused["errors"]

    def test_values_of_another_type_are_refused_not_coerced(self, api: Api) -> None:
        client = api.tenant_client()
        rule = made(client)
        path = f"/v1/online_rules/{rule['id']}"
        for body, loc in (
            ({"enabled": "yes"}, "enabled"),
            ({"enabled": 0}, "enabled"),
            ({"sampling": {"rate": "0.5"}}, "sampling.rate"),
            ({"daily_usd": "3"}, "daily_usd"),
        ):
            assert loc in locs(problem(client.patch(path, json=body), 422)), body
        assert "enabled" in locs(
            problem(client.post("/v1/online_rules", json=rule_body(enabled="yes")), 422)
        )
        assert client.get(path).json() == rule
        # An integer rate is still a number.
        assert client.patch(path, json={"sampling": {"rate": 1}}).json()["sampling"] == {
            "rate": 1.0
        }


class TestWebhookEndpointInUse:
    def test_an_endpoint_an_alert_uses_is_not_deleted(self, api: Api) -> None:
        client = api.tenant_client()
        with WebhookReceiver() as receiver:
            endpoint = client.post("/v1/webhook_endpoints", json={"url": receiver.url}).json()
            alert = {
                "metric": "helpful",
                "threshold": 0.5,
                "window_hours": 24,
                "webhook_url": receiver.url,
            }
            rule = made(client, alert=alert)
            refused = problem(client.delete(f"/v1/webhook_endpoints/{endpoint['id']}"), 409)
            assert rule["id"] in refused["detail"] and "support bot" in refused["detail"]
            listed = client.get("/v1/webhook_endpoints").json()["data"]
            assert [each["id"] for each in listed] == [endpoint["id"]]

            # Once no alert uses it, it goes.
            patched = client.patch(f"/v1/online_rules/{rule['id']}", json={"alert": None})
            assert patched.status_code == 200, patched.text
            gone = client.delete(f"/v1/webhook_endpoints/{endpoint['id']}")
            assert gone.status_code == 204, gone.text


class TestTrendRange:
    def test_a_trend_echoes_the_whole_buckets_it_covers(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(score_by_question)
        client = api.client(api.new_key())
        rule = make_rule(client, metrics=[CORRECT])
        send(client, 2, 8)
        judged_results(api, client, rule["id"], 2)
        move_rollups(api, rule["id"], DAY + timedelta(hours=20))
        url = f"/v1/online_rules/{rule['id']}/trend"

        answer = client.get(
            url, params={"since": "2026-11-20T19:30:00Z", "until": "2026-11-20T20:10:00Z"}
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        # The 20:00 hour is counted whole, so the range echoed ends at 21:00, not 20:10.
        assert datetime.fromisoformat(body["since"]) == DAY + timedelta(hours=19)
        assert datetime.fromisoformat(body["until"]) == DAY + timedelta(hours=21)
        [point] = body["metrics"][0]["points"]
        assert point["count"] == 2
        # An aligned bound is kept as it is, and the hour from 20:00 is then outside.
        aligned = client.get(
            url, params={"since": "2026-11-20T19:00:00Z", "until": "2026-11-20T20:00:00Z"}
        ).json()
        assert datetime.fromisoformat(aligned["until"]) == DAY + timedelta(hours=20)
        assert aligned["metrics"][0]["points"] == []
        daily = client.get(
            url,
            params={
                "since": "2026-11-20T05:00:00Z",
                "until": "2026-11-20T20:10:00Z",
                "bucket": "day",
            },
        ).json()
        assert datetime.fromisoformat(daily["since"]) == DAY
        assert datetime.fromisoformat(daily["until"]) == DAY + timedelta(days=1)


UNPRICED = (
    "daily_usd is not enforced: the judge model 'judge-unpriced' has no price in "
    "LOUPE_MODEL_PRICES, so its calls cost nothing known"
)


class TestBudgetWarnings:
    def test_a_daily_budget_its_judge_has_no_price_for_is_said_to_be_unenforced(
        self, api: Api
    ) -> None:
        client = api.tenant_client()
        unpriced = made(client, judge={"model": "judge-unpriced"})
        assert unpriced["warnings"] == [UNPRICED]
        path = f"/v1/online_rules/{unpriced['id']}"
        assert client.get(path).json()["warnings"] == [UNPRICED]
        listed = client.get("/v1/online_rules").json()["data"]
        assert listed[0]["warnings"] == [UNPRICED]
        # A priced judge (the test settings price `judge-model`), or no budget: no warning.
        priced = client.patch(path, json={"judge": {"model": "judge-model"}}).json()
        assert priced["warnings"] == []
        back = client.patch(path, json={"judge": {"model": "judge-unpriced"}}).json()
        assert back["warnings"] == [UNPRICED]
        assert client.patch(path, json={"daily_usd": None}).json()["warnings"] == []


class TestBackfillArrays:
    def test_a_backfill_reads_array_attributes_as_the_live_filter_does(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        tagged = {
            "key": "app.tags",
            "value": {"arrayValue": {"values": [{"stringValue": "a"}, {"stringValue": "b"}]}},
        }
        live = make_rule(
            client,
            name="tagged live",
            metrics=[G_EVAL],
            filter=[{"attribute": "app.tags", "op": "contains", "value": "b"}],
        )
        entry = backfill_span("d1d1d1d1d1d1d1d1", "shop", None)
        entry["scopeSpans"][0]["spans"][0]["attributes"].append(tagged)
        other = backfill_span("d2d2d2d2d2d2d2d2", "shop", None)
        backfill_send(client, entry, other)
        # The live filter took the tagged call, which it kept; the other went unjudged.
        [result] = judged_results(api, client, live["id"], 1)
        assert result["span_id"] == "d1d1d1d1d1d1d1d1"

        later = make_rule(
            client,
            name="tagged later",
            metrics=[G_EVAL],
            filter=[{"attribute": "app.tags", "op": "contains", "value": "b"}],
        )
        body = client.post(f"/v1/online_rules/{later['id']}/backfill", json={}).json()
        assert (body["considered"], body["matched"], body["sent"]) == (1, 1, 1), body
        exact = make_rule(
            client,
            name="tagged exactly",
            metrics=[G_EVAL],
            filter=[{"attribute": "app.tags", "op": "eq", "value": "a,b"}],
        )
        again = client.post(f"/v1/online_rules/{exact['id']}/backfill", json={}).json()
        assert again["matched"] == 1, again
