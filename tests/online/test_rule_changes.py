"""A changed rule judges the calls after the change as it now stands (an outside audit of online
judging): its day holds one evaluation per configuration (metrics, judge, target), so new
criteria, thresholds, metrics or a new target apply at once, and a metric never judges a case of
the wrong shape; a batch of calls is cut to the rule's daily_usd, counting the calls taken and
not judged yet; a change's alert is checked against the metrics the rule keeps."""

import json
from typing import Any

from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.online.test_conversation_target import (
    conversation_span,
    counts,
    model_and_turns,
    sweep_past_idle,
)
from tests.online.test_receiver import judged_results, make_rule, semconv_span
from tests.test_problems import locs, problem

HELPFUL = {
    "type": "g_eval",
    "name": "helpful",
    "criteria": "Helpful?",
    "evaluation_params": ["input", "actual_output"],
}
CORRECT = {**HELPFUL, "criteria": "Is it CORRECT?", "threshold": 0.9}
ASK = {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}
SUNNY = {"role": "assistant", "parts": [{"type": "text", "content": "It is sunny."}]}
THEN = {"role": "user", "parts": [{"type": "text", "content": "And tomorrow?"}]}
RAIN = {"role": "assistant", "parts": [{"type": "text", "content": "Rain."}]}


def judge_everything(request: dict) -> Reply | dict:
    """G-Eval as plausible_answer answers it, answer_relevancy all relevant, turn_relevancy as
    the conversation tests script it."""
    task = task_of(request)
    if task == "answer_relevancy_verdicts":
        return {"statements": [{"statement": "Paris.", "verdict": "yes"}], "reason": "On point."}
    if task == "turn_relevancy_verdicts":
        return model_and_turns(request)
    return plausible_answer(request)


def send_span(client: Any, span_id: str, question: str = "Capital of France?") -> None:
    body = {"resourceSpans": [semconv_span(span_id, "app", question)]}
    assert client.post("/v1/traces", json=body).status_code == 200


def patched(client: Any, rule: dict, **changes: Any) -> dict:
    response = client.patch(f"/v1/online_rules/{rule['id']}", json=changes)
    assert response.status_code == 200, response.text
    return response.json()


class TestAChangeAppliesToTheCallsAfterIt:
    def test_new_criteria_a_threshold_and_a_new_metric_judge_the_next_call(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_everything)
        client = api.tenant_client()
        rule = make_rule(client, name="helpful", metrics=[HELPFUL])
        send_span(client, "00f067aa0ba90201")
        [before] = judged_results(api, client, rule["id"], 1)

        patched(client, rule, metrics=[CORRECT, {"type": "answer_relevancy"}])
        send_span(client, "00f067aa0ba90202")
        results = judged_results(api, client, rule["id"], 3)
        after = {r["metric"]: r for r in results if r["evaluation_id"] != before["evaluation_id"]}
        assert set(after) == {"helpful", "answer_relevancy"}
        assert after["helpful"]["threshold"] == 0.9 and after["helpful"]["error"] is None
        assert after["helpful"]["metric_version"] != before["metric_version"]
        assert after["answer_relevancy"]["error"] is None
        # The new criteria are a version of their own, as an evaluation's would be.
        versions = client.get("/v1/metric_versions", params={"limit": 100}).json()["data"]
        criteria = {json.dumps(v["definition"]) for v in versions if v["type"] == "g_eval"}
        assert any("Is it CORRECT?" in each for each in criteria), criteria
        # The day's two configurations are two evaluations of the rule, both read through it.
        day = client.get(f"/v1/evaluations/{after['helpful']['evaluation_id']}").json()
        assert [m["type"] for m in day["metrics"]] == ["g_eval", "answer_relevancy"]
        assert day["name"].endswith("(2)")
        assert counts(client, rule)["sent"] == 2

    def test_a_rule_turned_to_conversations_judges_them_with_its_conversation_metrics(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_everything)
        client = api.tenant_client()
        rule = make_rule(client, name="to chats", metrics=[HELPFUL])
        send_span(client, "00f067aa0ba90203")
        judged_results(api, client, rule["id"], 1)

        turn_relevancy = {"type": "turn_relevancy"}
        patched(client, rule, target="conversation", metrics=[turn_relevancy])
        body = {
            "resourceSpans": [
                conversation_span("00f067aa0ba90204", 0, [ASK], [SUNNY]),
                conversation_span("00f067aa0ba90205", 5, [ASK, SUNNY, THEN], [RAIN]),
            ]
        }
        assert client.post("/v1/traces", json=body).status_code == 200
        assert sweep_past_idle(api) >= 1
        [conversation, _] = judged_results(api, client, rule["id"], 2)
        assert conversation["metric"] == "turn_relevancy"
        assert conversation["error"] is None and conversation["score"] == 0.5
        [case] = client.get(f"/v1/evaluations/{conversation['evaluation_id']}/test_cases").json()[
            "data"
        ]
        assert case["id"] == "trip-7" and len(case["turns"]) == 4
        assert case["input"] is None and case["metadata"]["calls"] == 2
        trend = client.get(f"/v1/online_rules/{rule['id']}/trend").json()
        [metric] = trend["metrics"]
        assert metric["metric"] == "turn_relevancy"
        assert sum(point["count"] for point in metric["points"]) == 1

    def test_calls_held_for_a_conversation_are_not_judged_once_it_judges_single_calls(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_everything)
        client = api.tenant_client()
        rule = make_rule(
            client, name="chats", target="conversation", metrics=[{"type": "turn_relevancy"}]
        )
        body = {"resourceSpans": [conversation_span("00f067aa0ba90206", 0, [ASK], [SUNNY])]}
        assert client.post("/v1/traces", json=body).status_code == 200
        patched(client, rule, target="span", metrics=[HELPFUL])
        assert sweep_past_idle(api) >= 1
        api.run_queue()
        found = counts(client, rule)
        assert found["sent"] == 0 and found["skipped"] == {"target_changed": 1}
        assert client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"] == []


class TestDailyBudget:
    def test_a_batch_past_the_daily_cap_is_cut_and_the_calls_not_judged_yet_count(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(judge_everything)
        client = api.tenant_client()
        one_call = client.post(
            "/v1/evaluations/estimate",
            json={
                "test_cases": [{"input": "Capital of France?", "actual_output": "Paris."}],
                "metrics": [{"type": "answer_relevancy"}],
            },
        ).json()["usd"]
        assert one_call > 0
        rule = make_rule(
            client, name="capped", metrics=[{"type": "answer_relevancy"}], daily_usd=2.5 * one_call
        )
        batch = [
            semconv_span(f"00f067aa0ba903{n:02x}", "app", "Capital of France?") for n in range(20)
        ]
        assert client.post("/v1/traces", json={"resourceSpans": batch}).status_code == 200
        found = counts(client, rule)
        # The third call starts below the cap: it may pass it by its own cost, no more.
        assert found["sent"] == 3 and found["skipped"] == {"over_budget": 17}
        if api.redis is not None:
            # Before they are judged (the queue has not run), the three calls taken already
            # fill the day.
            send_span(client, "00f067aa0ba90399")
            assert counts(client, rule)["skipped"] == {"over_budget": 18}
        results = judged_results(api, client, rule["id"], 3)
        day = client.get(f"/v1/evaluations/{results[0]['evaluation_id']}").json()
        assert day["cost_usd"] <= rule["daily_usd"] + one_call

    def test_a_backfill_past_the_daily_cap_is_cut_too(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(judge_everything)
        client = api.tenant_client()
        one_call = client.post(
            "/v1/evaluations/estimate",
            json={
                "test_cases": [{"input": "Capital of France?", "actual_output": "Paris."}],
                "metrics": [{"type": "answer_relevancy"}],
            },
        ).json()["usd"]
        keeper = make_rule(client, name="keeps", metrics=[{"type": "answer_relevancy"}])
        batch = [
            semconv_span(f"00f067aa0ba904{n:02x}", "app", "Capital of France?") for n in range(10)
        ]
        assert client.post("/v1/traces", json={"resourceSpans": batch}).status_code == 200
        judged_results(api, client, keeper["id"], 10)
        later = make_rule(
            client, name="later", metrics=[{"type": "answer_relevancy"}], daily_usd=2.5 * one_call
        )
        response = client.post(f"/v1/online_rules/{later['id']}/backfill", json={})
        assert response.status_code == 202, response.text
        done = response.json()
        assert done["sent"] == 3 and done["skipped"] == {"over_budget": 7}, done


class TestAlertOfAChange:
    def test_refused_null_metrics_leave_the_alert_checked_on_the_rules_own(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, name="alerting", metrics=[HELPFUL, {"type": "answer_relevancy"}])
        refused = problem(
            client.patch(
                f"/v1/online_rules/{rule['id']}",
                json={"metrics": None, "alert": {"metric": "helpful"}},
            ),
            422,
        )
        assert "metrics" in locs(refused)
        assert "alert.metric" not in locs(refused), refused["errors"]
        # An alert on a metric the rule does not have is still named.
        refused = problem(
            client.patch(
                f"/v1/online_rules/{rule['id']}",
                json={"metrics": None, "alert": {"metric": "faithfulness"}},
            ),
            422,
        )
        messages = {e["loc"]: e["msg"] for e in refused["errors"]}
        assert "it has: helpful, answer_relevancy" in messages["alert.metric"], messages
