"""A rule's trend (issue 26 item 5): each metric's mean score and pass rate per UTC hour or day
with their intervals, read from the rollups the judging job keeps as it stores results. Spans go
in through POST /v1/traces, the scripted judge scores them, the trend comes out of the API."""

import json
import re
from datetime import UTC, datetime, timedelta

import httpx
from sqlalchemy import update

from app.db import utcnow
from app.models import OnlineRollup
from app.online.trend import mean_interval_from_sums
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer, task_of
from tests.online.test_receiver import ANSWER, judged_results, make_rule, semconv_span

CORRECT = {
    "type": "g_eval",
    "name": "correct",
    "criteria": "Is the answer right?",
    "evaluation_params": ["input", "actual_output"],
}
DAY = datetime(2026, 11, 20, tzinfo=UTC)


def score_by_question(request: dict) -> Reply | dict:
    """The application's model answers; the judge scores `question N` N out of 10."""
    task = task_of(request)
    if task is None:
        return Reply(content=ANSWER)
    if task == "g_eval_score":
        found = re.search(r"question (\d+)", json.dumps(request))
        assert found, request
        return Reply(content=json.dumps({"reason": "Graded.", "score": int(found.group(1))}))
    return plausible_answer(request)


def send(client: httpx.Client, *numbers: int) -> None:
    spans = [
        semconv_span(f"{n + 1:016x}", "app", f"question {n}", trace_id=f"{n + 1:032x}")
        for n in numbers
    ]
    response = client.post("/v1/traces", json={"resourceSpans": spans})
    assert response.status_code == 200, response.text


def move_rollups(api: Api, rule_id: str, to: datetime) -> None:
    """Put the rule's rollups of the current hour at another hour (as if judged then)."""
    hour = utcnow().replace(minute=0, second=0, microsecond=0)
    with api.served.runtime.session() as session:
        session.execute(
            update(OnlineRollup)
            .where(OnlineRollup.rule_id == rule_id, OnlineRollup.bucket_start >= hour)
            .values(bucket_start=to)
        )
        session.commit()


def inside(interval: list[float] | None, low: float, high: float, value: float) -> bool:
    return interval is not None and low <= interval[0] <= value <= interval[1] <= high


class TestTrend:
    def test_each_hour_has_its_mean_and_pass_rate_with_intervals_inside_the_range(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(score_by_question)
        client = api.client(api.new_key())
        rule = make_rule(client, metrics=[CORRECT])
        send(client, 2, 6, 9, 10)
        results = judged_results(api, client, rule["id"], 4)
        scores = [r["score"] for r in results]
        assert all(s is not None for s in scores), results

        response = client.get(f"/v1/online_rules/{rule['id']}/trend")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["object"] == "online_rule_trend" and body["bucket"] == "hour"
        [metric] = body["metrics"]
        assert metric["metric"] == "correct" and metric["bounds"] == [0, 1]
        [point] = metric["points"]
        hour = utcnow().replace(minute=0, second=0, microsecond=0)
        assert datetime.fromisoformat(point["bucket_start"]) in (hour, hour - timedelta(hours=1))
        assert point["count"] == point["scored"] == 4 and point["errored"] == 0
        assert abs(point["mean"] - sum(scores) / 4) < 1e-9
        # Four scores spread inside [0, 1]: too few for an interval, as in a summary.
        assert point["mean_ci95"] is None and point["mean_method"] is None
        assert point["mean_note"] == (
            "no interval from 4 scores: at least 10 are needed for an honest 95% interval of a "
            "bounded score"
        )
        passed = sum(r["passed"] is True for r in results)
        assert point["passed"] == passed and point["passed"] + point["failed"] == 4
        assert point["pass_rate"] == passed / 4
        assert inside(point["pass_rate_ci95"], 0, 1, point["pass_rate"])
        # The rule's counts stay as they were.
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["judged"] == 4 and counts["skipped"] == {}

    def test_a_day_sums_its_hours(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(score_by_question)
        client = api.client(api.new_key())
        rule = make_rule(client, metrics=[CORRECT])
        send(client, 2, 8)
        judged_results(api, client, rule["id"], 2)
        move_rollups(api, rule["id"], DAY + timedelta(hours=3))
        send(client, 10, 9, 7)  # spans of their own: one sent twice is a duplicate
        judged_results(api, client, rule["id"], 5)
        move_rollups(api, rule["id"], DAY + timedelta(hours=15))

        window = {"since": "2026-11-20T00:00:00Z", "until": "2026-11-21T00:00:00+00:00"}
        url = f"/v1/online_rules/{rule['id']}/trend"
        hourly = client.get(url, params={**window, "metric": "correct"}).json()
        [metric] = hourly["metrics"]
        first, second = metric["points"]
        assert datetime.fromisoformat(first["bucket_start"]) == DAY + timedelta(hours=3)
        assert datetime.fromisoformat(second["bucket_start"]) == DAY + timedelta(hours=15)
        assert (first["count"], second["count"]) == (2, 3)
        assert abs(first["mean"] - 0.5) < 1e-9 and abs(second["mean"] - 26 / 30) < 1e-9

        daily = client.get(url, params={**window, "bucket": "day"}).json()
        assert daily["bucket"] == "day"
        [day] = daily["metrics"][0]["points"]
        assert datetime.fromisoformat(day["bucket_start"]) == DAY
        assert day["count"] == 5 and day["scored"] == 5
        assert abs(day["mean"] - (2 * 0.5 + 26 / 10) / 5) < 1e-9
        assert day["passed"] == first["passed"] + second["passed"]
        assert day["failed"] == first["failed"] + second["failed"]
        assert day["mean_ci95"] is None and "from 5 scores" in day["mean_note"]
        assert inside(day["pass_rate_ci95"], 0, 1, day["pass_rate"])
        # Outside the window: nothing.
        later = client.get(url, params={"since": "2026-11-21", "until": "2026-11-22"}).json()
        assert later["metrics"][0]["points"] == []

    def test_one_metric_is_that_metrics_points_alone(self, api: Api, judge: ScriptedJudge) -> None:
        """`metric=` reads that metric's rollups only (the database sums no other's), and its
        points are the ones the whole trend has for it."""

        def polite_scores_three(request: dict) -> Reply | dict:
            if task_of(request) == "g_eval_score" and "polite" in json.dumps(request):
                return Reply(content=json.dumps({"reason": "Curt.", "score": 3}))
            return score_by_question(request)

        judge.script(polite_scores_three)
        client = api.client(api.new_key())
        polite = {
            "type": "g_eval",
            "name": "polite",
            "evaluation_steps": ["Check that the answer is polite."],
            "evaluation_params": ["input", "actual_output"],
        }
        rule = make_rule(client, metrics=[CORRECT, polite])
        send(client, 8, 10)
        judged_results(api, client, rule["id"], 4)
        url = f"/v1/online_rules/{rule['id']}/trend"
        for bucket in ("hour", "day"):
            whole = client.get(url, params={"bucket": bucket}).json()["metrics"]
            assert [metric["metric"] for metric in whole] == ["correct", "polite"]
            for metric in whole:
                response = client.get(url, params={"bucket": bucket, "metric": metric["metric"]})
                assert response.status_code == 200, response.text
                assert response.json()["metrics"] == [metric]
            [correct], [polite_point] = (metric["points"] for metric in whole)
            assert abs(correct["mean"] - 0.9) < 1e-9 and abs(polite_point["mean"] - 0.3) < 1e-9

    def test_equal_scores_give_no_interval_of_no_width_from_few_results(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Two equal scores said [0.5, 0.5] (a t interval of zero spread): a bucket's interval
        follows a summary's rules, none below 10 scores between the bounds and, from 10 equal
        ones, no width with a note saying why."""

        def five(request: dict) -> Reply | dict:
            if task_of(request) == "g_eval_score":
                return Reply(content=json.dumps({"reason": "Half right.", "score": 5}))
            return score_by_question(request)

        judge.script(five)
        client = api.client(api.new_key())
        rule = make_rule(client, metrics=[CORRECT])
        url = f"/v1/online_rules/{rule['id']}/trend"
        send(client, 1, 2)
        judged_results(api, client, rule["id"], 2)
        [point] = client.get(url).json()["metrics"][0]["points"]
        assert point["scored"] == 2 and abs(point["mean"] - 0.5) < 1e-9
        assert point["mean_ci95"] is None and point["mean_method"] is None
        assert point["mean_note"].startswith("no interval from 2 scores: at least 10")

        send(client, *range(3, 11))
        judged_results(api, client, rule["id"], 10)
        [point] = client.get(url).json()["metrics"][0]["points"]
        assert point["scored"] == 10 and point["mean_method"] == "t"
        assert point["mean_ci95"] == [point["mean"], point["mean"]]
        assert point["mean_note"] == (
            "every score is 0.5: the scores do not vary, so the interval has no width"
        )

    def test_bad_parameters_are_named_in_one_422(self, api: Api) -> None:
        client = api.client(api.new_key())
        rule = make_rule(client, metrics=[CORRECT])
        url = f"/v1/online_rules/{rule['id']}/trend"
        response = client.get(
            url, params={"metric": "nope", "bucket": "week", "since": "yesterday"}
        )
        assert response.status_code == 422
        assert response.headers["content-type"].startswith("application/problem+json")
        errors = {e["loc"]: e["type"] for e in response.json()["errors"]}
        assert errors == {
            "query.metric": "unknown_metric",
            "query.bucket": "invalid_bucket",
            "query.since": "invalid_datetime",
        }
        backwards = client.get(url, params={"since": "2026-11-21", "until": "2026-11-20"})
        assert backwards.status_code == 422
        assert [e["loc"] for e in backwards.json()["errors"]] == ["query.since"]
        too_long = client.get(url, params={"since": "2026-01-01", "until": "2026-11-20"})
        assert [e["type"] for e in too_long.json()["errors"]] == ["range_too_long"]
        # The calendar's ends, once in UTC or once a trend's buckets are laid out around them
        # (each was a 500).
        for params, field in [
            ({"since": "0001-01-01T00:00:00+14:00"}, "query.since"),
            ({"until": "9999-12-31T23:00:00-14:00"}, "query.until"),
            ({"until": "0001-01-01T00:00:00Z"}, "query.until"),
            ({"since": "9999-12-31T00:00:00Z", "until": "9999-12-31T23:30:00Z"}, "query.until"),
            ({"bucket": "day", "until": "9999-12-31T12:00:00Z"}, "query.until"),
        ]:
            edge = client.get(url, params=params)
            assert edge.status_code == 422, (params, edge.text)
            assert [(e["loc"], e["type"]) for e in edge.json()["errors"]] == [
                (field, "datetime_out_of_range")
            ]
        # Another tenant's rule is not found, whatever the parameters.
        other = api.client(api.new_key())
        assert other.get(url, params={"bucket": "week"}).status_code == 404


class TestIntervalsFromSums:
    def test_pass_fail_scores_get_wilson_and_spread_scores_stay_in_their_range(self) -> None:
        # Every score at a bound: Wilson, scaled to the range.
        mean, ci95, method, _ = mean_interval_from_sums(4, 3.0, 3.0, (0.0, 1.0))
        assert method == "wilson" and ci95 is not None and 0 < ci95[0] < 0.75 < ci95[1] < 1
        # Ten scores near the top of a 0–10 range: the t interval is clipped at 10.
        mean, ci95, method, _ = mean_interval_from_sums(10, 99.0, 981.0, (0.0, 10.0))
        assert method == "t" and ci95 is not None and ci95[1] == 10.0 and ci95[0] < mean
        # Fewer: none, as a summary gives none below 10 scores between the bounds.
        assert mean_interval_from_sums(9, 89.0, 881.0, (0.0, 10.0))[1:3] == (None, None)
        # One score, none: no interval, said why.
        assert mean_interval_from_sums(1, 0.5, 0.25, (0.0, 1.0))[1:3] == (None, None)
        assert mean_interval_from_sums(0, 0.0, 0.0, (0.0, 1.0), errored=2)[3] == (
            "no scored results: every result errored so far"
        )
