"""A third audit of online rules (issue 26), through the HTTP API: one 422 naming every field at
fault (strict types, a change's alert checked against the rule's kept metrics, a backfill's
window), a trend echoing the range its rollups cover, a webhook endpoint an alert uses kept
from deletion, and a rule warning when its daily budget cannot be enforced."""

from datetime import datetime, timedelta
from typing import Any

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.fixtures.receiver import WebhookReceiver
from tests.online.test_receiver import judged_results, make_rule
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
