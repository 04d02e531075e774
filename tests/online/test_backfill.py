"""A backfill applies a rule to the calls Loupe kept (those any rule of the tenant stored) in a
time window: a rule made later judges the kept calls its filter and sampling take, once, from
what was kept of their spans' attributes (issue 26, item 3)."""

import base64
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.db import utcnow
from app.models import OnlineCall
from app.online import backfill
from app.online.schemas import BackfillRequest
from app.problems import ProblemError
from tests.console.helpers import signed_in
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge, image_parts
from tests.online.test_receiver import (
    G_EVAL,
    judged_results,
    make_rule,
    model_and_judge,
    semconv_span,
)
from tests.otlp.capture import red_square_png

METRICS = [G_EVAL]
GOLD = {"attribute": "app.tenant_tier", "op": "eq", "value": "gold"}
TRACE = "4bf92f3577b34da6a3ce929d0e0e4736"


def span(span_id: str, service: str, tier: str | None, trace_id: str = TRACE) -> dict[str, Any]:
    """A chat call of `service` in the GenAI conventions, its tier as a span attribute."""
    entry = semconv_span(span_id, service, f"Question {span_id}?", trace_id)
    attributes = entry["scopeSpans"][0]["spans"][0]["attributes"]
    if tier is not None:
        attributes.append({"key": "app.tenant_tier", "value": {"stringValue": tier}})
    attributes.append({"key": "app.long", "value": {"stringValue": "x" * 5000}})
    return entry


def send(client: Any, *entries: dict[str, Any]) -> None:
    response = client.post("/v1/traces", json={"resourceSpans": list(entries)})
    assert response.status_code == 200, response.text


GOLD_SPANS = ("a1a1a1a1a1a1a1a1", "a2a2a2a2a2a2a2a2")
OTHER_SPANS = ("b1b1b1b1b1b1b1b1", "b2b2b2b2b2b2b2b2")


def judged_by_shop_rule(api: Api, key: str) -> dict[str, Any]:
    """Rule A judges every call of `shop`; two are gold. A gold call of another service is
    judged by no rule, so Loupe keeps nothing of it."""
    client = api.client(key)
    rule = make_rule(
        client,
        name="shop",
        metrics=METRICS,
        filter=[{"attribute": "service.name", "op": "eq", "value": "shop"}],
    )
    send(
        client,
        span(GOLD_SPANS[0], "shop", "gold"),
        span(OTHER_SPANS[0], "shop", "silver"),
        span(GOLD_SPANS[1], "shop", "gold"),
        span(OTHER_SPANS[1], "shop", None),
        span("c1c1c1c1c1c1c1c1", "elsewhere", "gold"),
    )
    judged_results(api, client, rule["id"], 4)
    return rule


class TestBackfill:
    def test_a_rule_made_later_judges_the_kept_calls_it_takes_once(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        # Another tenant's kept gold calls are never considered.
        judged_by_shop_rule(api, api.new_key())
        rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD])

        response = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={})

        assert response.status_code == 202, response.text
        body = response.json()
        assert {key: body[key] for key in ("considered", "matched", "sampled")} == {
            "considered": 4,
            "matched": 2,
            "sampled": 2,
        }
        assert body["already_judged"] == 0 and body["sent"] == 2 and body["skipped"] == {}
        assert body["truncated"] is False and body["next_after"] is None
        results = judged_results(api, client, rule["id"], 2)
        assert sorted(result["span_id"] for result in results) == sorted(GOLD_SPANS)
        assert {result["trace_id"] for result in results} == {TRACE}
        assert all(result["error"] is None and result["score"] is not None for result in results)
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts == {
            "received": 0,
            "matched": 2,
            "sampled": 2,
            "sent": 2,
            "judged": 2,
            "errored": 0,
            "backfilled": 4,
            "skipped": {},
            "dropped": {},
        }

        # The rule's console page says it too.
        console = signed_in(api, key)
        page = console.get(f"/console/online_rules/{rule['id']}").text
        console.close()
        assert "Kept calls considered by backfills</dt><dd>4</dd>" in page

        again = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={}).json()

        assert again["considered"] == 4 and again["sampled"] == 2
        assert again["already_judged"] == 2 and again["sent"] == 0
        assert len(client.get(f"/v1/online_rules/{rule['id']}/results").json()["data"]) == 2
        # Each kept call counted once, however often its window is backfilled.
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["counts"] == counts

    def test_backfills_over_the_same_window_count_each_kept_call_once(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        """Calls a backfill took up but did not send (unmatched, unsampled) are not counted
        again by a second backfill of the window, nor by a wider one around it."""
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD], sampling={"rate": 0})
        path = f"/v1/online_rules/{rule['id']}/backfill"
        expected = {
            "received": 0,
            "matched": 2,
            "sampled": 0,
            "sent": 0,
            "judged": 0,
            "errored": 0,
            "backfilled": 4,
            "skipped": {"not_sampled": 2},
            "dropped": {},
        }
        since = (utcnow() - timedelta(hours=2)).isoformat()
        for window in ({}, {}, {"since": since}):
            body = client.post(path, json=window).json()
            assert body["considered"] == 4 and body["matched"] == 2 and body["sampled"] == 0
            assert body["skipped"] == {"not_sampled": 2}
            assert client.get(f"/v1/online_rules/{rule['id']}").json()["counts"] == expected
        exposition = api.client().get("/metrics").text
        for outcome, n in (("backfilled", 4), ("matched", 2), ("skipped_not_sampled", 2)):
            line = f'loupe_online_calls_total{{outcome="{outcome}",rule="{rule["id"]}"}} {n}.0'
            assert line in exposition, line

    def test_a_backfilled_call_reaches_the_judge_with_its_image(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        client = api.tenant_client()
        shop = make_rule(
            client,
            metrics=METRICS,
            filter=[{"attribute": "service.name", "op": "eq", "value": "shop"}],
        )
        entry = span("d1d1d1d1d1d1d1d1", "shop", "gold")
        attributes = entry["scopeSpans"][0]["spans"][0]["attributes"]
        image = {
            "type": "blob",
            "modality": "image",
            "mime_type": "image/png",
            "content": base64.b64encode(red_square_png()).decode("ascii"),
        }
        question = {"type": "text", "content": "What colour is this square?"}
        messages = [{"role": "user", "parts": [question, image]}]
        [content] = [item for item in attributes if item["key"] == "gen_ai.input.messages"]
        content["value"] = {"stringValue": json.dumps(messages)}
        send(client, entry)
        judged_results(api, client, shop["id"], 1)
        seen = len([call for call in judge.calls_for("g_eval_score") if image_parts(call)])
        # Steps of its own, so its judge is asked afresh rather than answered from the cache.
        colours = {
            "type": "g_eval",
            "name": "colour",
            "evaluation_steps": ["Check that the answer names the square's colour."],
            "evaluation_params": ["input", "actual_output"],
        }
        rule = make_rule(client, name="gold", metrics=[colours], filter=[GOLD])

        body = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={}).json()

        assert body["sent"] == 1
        [result] = judged_results(api, client, rule["id"], 1)
        assert result["error"] is None and result["span_id"] == "d1d1d1d1d1d1d1d1"
        with_images = [call for call in judge.calls_for("g_eval_score") if image_parts(call)]
        assert len(with_images) == seen + 1
        assert "What colour is this square?" in json.dumps(with_images[-1])

    def test_a_retried_backfill_is_answered_once(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD])
        path = f"/v1/online_rules/{rule['id']}/backfill"
        headers = {"Idempotency-Key": "backfill-gold-1"}

        first = client.post(path, json={}, headers=headers)
        retry = client.post(path, json={}, headers=headers)

        assert first.status_code == retry.status_code == 202
        assert retry.headers["Idempotent-Replayed"] == "true"
        # Where to read what it judges, and when to look: as every 202 that starts work answers.
        for answer in (first, retry):
            assert answer.headers["location"] == f"/v1/online_rules/{rule['id']}/results"
            assert answer.headers["retry-after"] == "2"
        assert retry.json() == first.json() and first.json()["sent"] == 2
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]["backfilled"] == 4

    def test_a_window_wider_than_one_backfill_is_taken_up_in_turns(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        with side_app(tmp_path, backfill_max_calls=3, judge_base_url=judge.base_url) as app:
            key = app.new_key()
            client = app.client(key)
            judged_by_shop_rule(app, key)
            rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD])
            path = f"/v1/online_rules/{rule['id']}/backfill"

            first = client.post(path, json={}).json()

            assert first["considered"] == 3 and first["sent"] == 2
            assert first["truncated"] is True and first["next_after"]

            rest = client.post(path, json={"after": first["next_after"]}).json()

            assert rest["considered"] == 1 and rest["sent"] == 0 and rest["already_judged"] == 0
            assert rest["truncated"] is False and rest["next_after"] is None
            results = judged_results(app, client, rule["id"], 2)
            assert sorted(result["span_id"] for result in results) == sorted(GOLD_SPANS)

    def test_a_window_before_the_calls_came_considers_none(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD])
        until = (utcnow() - timedelta(hours=1)).isoformat()

        body = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={"until": until})

        assert body.status_code == 202, body.text
        assert body.json()["considered"] == 0 and body.json()["sent"] == 0

    def test_a_kept_call_keeps_its_scalar_attributes_bounded_and_no_content(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        judged_by_shop_rule(api, key)
        with api.served.runtime.session() as session:
            call = session.scalars(
                select(OnlineCall)
                .where(OnlineCall.span_id == GOLD_SPANS[0])
                .order_by(OnlineCall.id.desc())
                .limit(1)
            ).one()
        assert call.attributes["app.tenant_tier"] == "gold"
        assert call.attributes["gen_ai.request.model"] == "gpt-4o-mini"
        assert len(call.attributes["app.long"]) == 1024
        assert "gen_ai.input.messages" not in call.attributes
        assert "gen_ai.output.messages" not in call.attributes
        assert call.resource["service.name"] == "shop"

    def test_bad_windows_are_one_422_naming_each_field(self, api: Api) -> None:
        client = api.tenant_client()
        rule = make_rule(client, metrics=METRICS)
        path = f"/v1/online_rules/{rule['id']}/backfill"
        now = utcnow()
        cases = [
            ({"since": "yesterday", "until": "soon"}, {"since", "until"}),
            ({"since": (now - timedelta(days=40)).isoformat()}, {"since"}),
            (
                {"since": now.isoformat(), "until": (now - timedelta(hours=1)).isoformat()},
                {"until"},
            ),
            ({"after": "not-a-cursor", "since": "nope"}, {"after", "since"}),
            ({"window": "all"}, {"window"}),
        ]
        for payload, fields in cases:
            response = client.post(path, json=payload)
            assert response.status_code == 422, (payload, response.text)
            assert response.headers["content-type"].startswith("application/problem+json")
            assert {error["loc"] for error in response.json()["errors"]} == fields, payload

    def test_another_tenants_rule_is_not_found(self, api: Api) -> None:
        rule = make_rule(api.tenant_client(), metrics=METRICS)

        response = api.tenant_client().post(f"/v1/online_rules/{rule['id']}/backfill", json={})

        assert response.status_code == 404
        assert response.headers["content-type"].startswith("application/problem+json")

    def test_the_window_goes_back_no_further_than_retention(self, api: Api) -> None:
        settings = api.settings.model_copy(update={"retention_days": 2})
        since = (utcnow() - timedelta(days=3)).isoformat()

        with pytest.raises(ProblemError) as refused:
            backfill.parse(BackfillRequest(since=since), settings)

        assert refused.value.status == 422
        assert [error.loc for error in refused.value.errors or []] == ["since"]


class TestBackfillLeavesOutWhatIngestWould:
    def test_a_span_backfilled_then_exported_again_is_judged_once(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        rule = make_rule(client, name="gold", metrics=METRICS, filter=[GOLD])
        assert client.post(f"/v1/online_rules/{rule['id']}/backfill", json={}).json()["sent"] == 2
        judged_results(api, client, rule["id"], 2)
        # The exporter retries a batch the backfill already took: the rule does not judge it again.
        send(client, span(GOLD_SPANS[0], "shop", "gold"))
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["sent"] == 2 and counts["skipped"] == {"duplicate": 1}
        assert len(judged_results(api, client, rule["id"], 2)) == 2

    def test_a_kept_call_without_a_field_a_metric_needs_is_not_sent(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        judged_by_shop_rule(api, key)
        rule = make_rule(client, name="grounded", metrics=[{"type": "faithfulness"}], filter=[GOLD])
        body = client.post(f"/v1/online_rules/{rule['id']}/backfill", json={}).json()
        # The kept gold calls have no retrieved documents: faithfulness has nothing to check.
        assert body["sent"] == 0 and body["skipped"] == {"missing_fields": 2}
        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        assert counts["sent"] == 0 and counts["skipped"] == {"missing_fields": 2}
