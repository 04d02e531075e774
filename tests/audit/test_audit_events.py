"""The audit trail end to end: each state change made through the API leaves exactly one event
naming who made it; a refused or rolled-back change leaves none; tenants never see each other's
events; the list pages and filters like every other, and bad filters are problem+json."""

import json
import logging
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx

from app.evaluations import lifecycle_service
from app.tenants.service import create_key
from app.unscoped.evaluation_jobs import UnscopedJobRepository
from tests.audit.helpers import actions, events, key_actor
from tests.comparisons.helpers import quiz_dataset
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer
from tests.online.test_rules import rule_body
from tests.runs.helpers import wait_run

PROBLEM_JSON = "application/problem+json"
EVALUATION = {
    "name": "audited",
    "test_cases": [{"input": "2+2?", "actual_output": "4", "expected_output": "4"}],
    "metrics": [{"type": "exact_match"}],
}
G_EVAL = {
    "type": "g_eval",
    "criteria": "Is it right?",
    "evaluation_params": ["input", "actual_output"],
}
CRITERION = {
    "type": "string_check",
    "name": "exact",
    "operation": "eq",
    "input": "{{ item.answer }}",
    "reference": "{{ item.answer }}",
}
EVAL = {
    "name": "audited eval",
    "data_source_config": {"type": "custom", "item_schema": {"type": "object"}},
    "testing_criteria": [CRITERION],
}
ROWS = [{"item": {"question": "Two plus two?", "answer": "4"}}]


def created(response: httpx.Response, status: int = 201) -> dict[str, Any]:
    assert response.status_code == status, response.text
    return response.json()


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM_JSON)
    return response.json()


class TestEachChange:
    def test_evaluations_created_canceled_and_deleted(self, api: Api, judge: ScriptedJudge) -> None:
        key = api.new_key()
        client = api.client(key)
        done = created(client.post("/v1/evaluations", json=EVALUATION), 202)
        api.wait(client, done["id"])
        judge.script(plausible_answer)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        judged = {**EVALUATION, "metrics": [{**G_EVAL, "name": "right"}]}
        running = created(client.post("/v1/evaluations", json=judged), 202)
        assert client.post(f"/v1/evaluations/{running['id']}/cancel").status_code == 200
        api.run_queue()
        assert client.delete(f"/v1/evaluations/{done['id']}").status_code == 204
        assert actions(client) == [
            ("evaluation.create", "evaluation", done["id"]),
            ("evaluation.create", "evaluation", running["id"]),
            ("evaluation.cancel", "evaluation", running["id"]),
            ("evaluation.delete", "evaluation", done["id"]),
        ]
        listed = events(client)
        assert {event["actor"] for event in listed} == {key_actor(api, key)}
        assert listed[-1]["details"]["name"] == "audited"

    def test_datasets_runs_models_and_comparisons(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        dataset_id = quiz_dataset(client, rows=2)
        model = created(
            client.post(
                "/v1/models",
                json={"base_url": judge.base_url, "model": "candidate", "api_key": "sk-hidden"},
            )
        )
        runs = []
        for answer in "AB":
            predictions = [{"index": i, "prediction": f"ANSWER: {answer}"} for i in range(2)]
            body = {"dataset_id": dataset_id, "predictions": predictions, "limit": 2}
            runs.append(created(client.post("/v1/runs", json=body), 202)["id"])
            wait_run(api, client, runs[-1])
        comparison = created(
            client.post("/v1/comparisons", json={"baseline_id": runs[0], "candidate_id": runs[1]}),
            200,
        )
        for run_id in runs:
            assert client.delete(f"/v1/runs/{run_id}").status_code == 204
        assert client.delete(f"/v1/datasets/{dataset_id}").status_code == 204
        assert client.delete(f"/v1/models/{model['id']}").status_code == 204
        assert actions(client) == [
            ("dataset.create", "dataset", dataset_id),
            ("model.create", "model", model["id"]),
            ("run.create", "run", runs[0]),
            ("run.create", "run", runs[1]),
            ("comparison.create", "comparison", comparison["id"]),
            ("run.delete", "run", runs[0]),
            ("run.delete", "run", runs[1]),
            ("dataset.delete", "dataset", dataset_id),
            ("model.delete", "model", model["id"]),
        ]
        # The model's key is a secret: no event carries it.
        assert "sk-hidden" not in json.dumps(events(client))

    def test_evals_their_runs_and_files(self, api: Api) -> None:
        client = api.tenant_client()
        content = "\n".join(json.dumps(row) for row in ROWS).encode()
        file = created(
            client.post(
                "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
            ),
            200,
        )
        definition = created(client.post("/v1/evals", json=EVAL))
        created(client.post(f"/v1/evals/{definition['id']}", json={"name": "renamed"}), 200)
        source = {"type": "file_id", "id": file["id"]}
        body = {"name": "nightly", "data_source": {"type": "jsonl", "source": source}}
        run = created(client.post(f"/v1/evals/{definition['id']}/runs", json=body))
        api.run_queue()
        assert client.delete(f"/v1/evals/{definition['id']}/runs/{run['id']}").status_code == 200
        assert client.delete(f"/v1/files/{file['id']}").status_code == 200
        assert client.delete(f"/v1/evals/{definition['id']}").status_code == 200
        assert actions(client) == [
            ("file.create", "file", file["id"]),
            ("eval.create", "eval", definition["id"]),
            ("eval.update", "eval", definition["id"]),
            ("eval_run.create", "eval_run", run["id"]),
            ("eval_run.delete", "eval_run", run["id"]),
            ("file.delete", "file", file["id"]),
            ("eval.delete", "eval", definition["id"]),
        ]

    def test_webhook_endpoints_and_online_rules(self, api: Api) -> None:
        client = api.tenant_client()
        hook = created(
            client.post(
                "/v1/webhook_endpoints", json={"url": f"http://127.0.0.1:9/{uuid.uuid4().hex}"}
            )
        )
        rule = created(client.post("/v1/online_rules", json=rule_body()))
        path = f"/v1/online_rules/{rule['id']}"
        assert client.patch(path, json={"sampling": {"rate": 0.5}}).status_code == 200
        assert client.post(f"{path}/disable").status_code == 200
        assert client.post(f"{path}/enable").status_code == 200
        assert client.post(f"{path}/backfill", json={}).status_code == 202
        assert client.delete(path).status_code == 204
        assert client.delete(f"/v1/webhook_endpoints/{hook['id']}").status_code == 204
        rid = rule["id"]
        assert actions(client) == [
            ("webhook_endpoint.create", "webhook_endpoint", hook["id"]),
            ("online_rule.create", "online_rule", rid),
            ("online_rule.update", "online_rule", rid),
            ("online_rule.disable", "online_rule", rid),
            ("online_rule.enable", "online_rule", rid),
            ("online_rule.backfill", "online_rule", rid),
            ("online_rule.delete", "online_rule", rid),
            ("webhook_endpoint.delete", "webhook_endpoint", hook["id"]),
        ]
        listed = events(client)
        assert listed[-3]["details"] == {"fields": ["sampling"]}
        assert hook["secret"] not in json.dumps(listed)

    def test_a_webhook_urls_query_values_are_not_kept(self, api: Api) -> None:
        """Receivers take tokens in query strings (`?token=...`): the trail, which every key
        with `admin` reads for a year, kept the whole URL. Its query's values are replaced."""
        client = api.tenant_client()
        token = uuid.uuid4().hex
        path = f"http://127.0.0.1:9/hooks/{uuid.uuid4().hex[:8]}"
        hook = created(
            client.post(
                "/v1/webhook_endpoints",
                json={"url": f"{path}?token={token}&channel=ops&flag#part-{token}"},
            )
        )
        assert client.delete(f"/v1/webhook_endpoints/{hook['id']}").status_code == 204
        trail = events(client, object_type="webhook_endpoint")
        assert [event["details"]["url"] for event in trail] == [
            f"{path}?token=REDACTED&channel=REDACTED&flag=REDACTED"
        ] * 2
        assert token not in json.dumps(events(client))


class TestNothingHappened:
    def test_refused_requests_leave_no_event(self, api: Api) -> None:
        client = api.tenant_client()
        done = created(client.post("/v1/evaluations", json=EVALUATION), 202)
        api.wait(client, done["id"])
        before = events(client)
        # A finished evaluation is not canceled; an invalid body stores nothing; a missing
        # object is not deleted; a duplicate URL is not registered.
        problem(client.post(f"/v1/evaluations/{done['id']}/cancel"), 409)
        problem(client.post("/v1/evaluations", json={**EVALUATION, "metrics": []}), 422)
        problem(client.delete("/v1/datasets/ds_missing"), 404)
        url = f"http://127.0.0.1:9/{uuid.uuid4().hex}"
        created(client.post("/v1/webhook_endpoints", json={"url": url}))
        problem(client.post("/v1/webhook_endpoints", json={"url": url}), 409)
        problem(client.patch("/v1/online_rules/rule_missing", json={"name": "x"}), 404)
        after = events(client)
        assert [e["action"] for e in after[: len(after) - len(before)]] == [
            "webhook_endpoint.create"
        ]

    def test_a_change_that_rolls_back_leaves_no_event(
        self, api: Api, log_records: list[logging.LogRecord]
    ) -> None:
        # The event is written in the change's own transaction: the lifecycle's delete, rolled
        # back instead of committed, leaves the evaluation, no event and no log line.
        client = api.tenant_client()
        done = created(client.post("/v1/evaluations", json=EVALUATION), 202)
        api.wait(client, done["id"])
        runtime = api.served.runtime
        with runtime.session() as session:
            evaluation = UnscopedJobRepository(session).get(done["id"])
            assert evaluation is not None
            lifecycle_service.delete(session, runtime, evaluation)
            session.flush()
            session.rollback()
        assert client.get(f"/v1/evaluations/{done['id']}").status_code == 200
        assert [e["action"] for e in events(client)] == ["evaluation.create"]
        logged = [r.getMessage() for r in log_records if r.name == "loupe.audit"]
        assert "audit.evaluation.delete" not in logged

    def test_an_unauthenticated_or_foreign_request_leaves_no_event(self, api: Api) -> None:
        owner, stranger = api.tenant_client(), api.tenant_client()
        done = created(owner.post("/v1/evaluations", json=EVALUATION), 202)
        problem(api.client().delete(f"/v1/evaluations/{done['id']}"), 401)
        problem(stranger.delete(f"/v1/evaluations/{done['id']}"), 404)
        assert [e["action"] for e in events(owner)] == ["evaluation.create"]
        assert events(stranger) == []


class TestListing:
    def test_another_tenants_events_are_never_listed(self, api: Api) -> None:
        mine, theirs = api.tenant_client(), api.tenant_client()
        ours = created(mine.post("/v1/evaluations", json=EVALUATION), 202)
        other = created(theirs.post("/v1/evaluations", json=EVALUATION), 202)
        assert [e["object_id"] for e in events(mine)] == [ours["id"]]
        assert [e["object_id"] for e in events(theirs)] == [other["id"]]
        assert events(mine, object_id=other["id"]) == []

    def test_pages_and_filters(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        ids = [
            created(client.post("/v1/evaluations", json=EVALUATION), 202)["id"] for _ in range(5)
        ]
        api.run_queue()
        for evaluation_id in ids[:2]:
            api.wait(client, evaluation_id)
            assert client.delete(f"/v1/evaluations/{evaluation_id}").status_code == 204
        first = client.get("/v1/audit_events", params={"limit": 3}).json()
        assert first["object"] == "list" and first["has_more"] is True
        assert len(first["data"]) == 3 and first["first_id"] == first["data"][0]["id"]
        rest = client.get(
            "/v1/audit_events", params={"limit": 10, "after": first["last_id"]}
        ).json()
        assert rest["has_more"] is False and len(rest["data"]) == 4
        every = first["data"] + rest["data"]
        assert len({e["id"] for e in every}) == 7
        assert [e["at"] for e in every] == sorted((e["at"] for e in every), reverse=True)
        assert every[0]["object"] == "audit_event"
        deleted = events(client, action="evaluation.delete")
        assert [e["object_id"] for e in deleted] == [ids[1], ids[0]]
        assert len(events(client, object_type="evaluation", object_id=ids[0])) == 2
        assert len(events(client, actor=key_actor(api, key))) == 7
        assert events(client, actor="operator") == []
        oldest = every[-1]["at"]
        assert len(events(client, since=oldest)) == 7
        assert events(client, until=oldest) == []
        assert len(events(client, since="2000-01-01T00:00:00", until="2999-01-01T00:00:00Z")) == 7
        # The same instant written with another offset filters alike (SQLite drops offsets,
        # so a time is turned to UTC before it is compared).
        newest = datetime.fromisoformat(every[0]["at"])
        east = (newest + timedelta(microseconds=1)).astimezone(timezone(timedelta(hours=5)))
        west = newest.astimezone(timezone(timedelta(hours=-5)))
        assert len(events(client, until=east.isoformat())) == 7
        assert len(events(client, since=west.isoformat())) == 1
        assert (
            events(
                client, since=(newest + timedelta(seconds=1)).astimezone(east.tzinfo).isoformat()
            )
            == []
        )

    def test_a_read_only_key_is_refused(self, api: Api) -> None:
        # Who did what is for the team's admins; a read-only key (a dashboard's) is a 403.
        with api.served.runtime.session() as session:
            _, key = create_key(session, f"audit-{uuid.uuid4().hex[:8]}", scopes=["read"])
            session.commit()
        body = problem(api.client(key).get("/v1/audit_events"), 403)
        assert body["required_scope"] == "admin"
        spec = api.client(key).get("/openapi.json").json()
        assert spec["paths"]["/v1/audit_events"]["get"]["x-loupe-scope"] == "admin"

    def test_a_key_that_may_write_but_not_administer_is_refused(self, api: Api) -> None:
        # Creating and deleting is not reading who did what: that takes `admin`.
        with api.served.runtime.session() as session:
            _, writer = create_key(
                session, f"audit-{uuid.uuid4().hex[:8]}", scopes=["read", "write"]
            )
            _, admin = create_key(session, f"audit-{uuid.uuid4().hex[:8]}", scopes=["admin"])
            session.commit()
        body = problem(api.client(writer).get("/v1/audit_events"), 403)
        assert body["required_scope"] == "admin" and "`admin`" in body["detail"]
        assert api.client(admin).get("/v1/audit_events").status_code == 200

    def test_bad_filters_are_problems_naming_each_field(self, api: Api) -> None:
        client = api.tenant_client()
        body = problem(
            client.get("/v1/audit_events", params={"since": "yesterday", "until": "soon"}), 422
        )
        assert sorted(e["loc"] for e in body["errors"]) == ["query.since", "query.until"]
        # A number is no moment (pydantic read it as seconds since 1970).
        body = problem(
            client.get("/v1/audit_events", params={"since": "1700000000", "until": "0.5"}), 422
        )
        assert {e["loc"]: e["type"] for e in body["errors"]} == {
            "query.since": "invalid_datetime",
            "query.until": "invalid_datetime",
        }
        assert "'0.5' is not an ISO 8601 date or time" in body["detail"]
        body = problem(
            client.get(
                "/v1/audit_events",
                params={"since": "2026-01-02T00:00:00Z", "until": "2026-01-01T00:00:00Z"},
            ),
            400,
        )
        assert sorted(e["loc"] for e in body["errors"]) == ["query.since", "query.until"]
        # Moments past year 9999 or before year 1 once in UTC (each was a 500).
        body = problem(
            client.get(
                "/v1/audit_events",
                params={"since": "9999-12-31T23:00:00-14:00", "until": "0001-01-01T00:00:00+14:00"},
            ),
            422,
        )
        assert {e["loc"]: e["type"] for e in body["errors"]} == {
            "query.since": "datetime_out_of_range",
            "query.until": "datetime_out_of_range",
        }
        body = problem(client.get("/v1/audit_events", params={"after": "evn_nope"}), 400)
        assert [e["loc"] for e in body["errors"]] == ["query.after"]
        body = problem(client.get("/v1/audit_events", params={"limit": 0, "action": ""}), 422)
        assert sorted(e["loc"] for e in body["errors"]) == ["query.action", "query.limit"]
        body = problem(client.get("/v1/audit_events", params={"who": "me"}), 400)
        assert [e["loc"] for e in body["errors"]] == ["query.who"]
        problem(api.client().get("/v1/audit_events"), 401)


class TestConsole:
    def test_a_console_cancel_is_the_signed_in_keys_act(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        key = api.new_key()
        judged = {**EVALUATION, "metrics": [{**G_EVAL, "name": "right"}]}
        evaluation_id = created(api.client(key).post("/v1/evaluations", json=judged), 202)["id"]
        console = signed_in(api, key)
        page = console.get(f"/console/evaluations/{evaluation_id}")
        cancel = console.post(
            f"/console/evaluations/{evaluation_id}/cancel",
            data={"csrf_token": csrf_of(page.text)},
        )
        assert cancel.status_code == 303
        api.run_queue()
        canceled = events(api.client(key), action="evaluation.cancel")
        assert [(e["actor"], e["object_id"]) for e in canceled] == [
            (key_actor(api, key), evaluation_id)
        ]
        assert console.get("/console/audit").status_code == 200

    def test_the_audit_page_needs_admin(self, api: Api) -> None:
        with api.served.runtime.session() as session:
            _, key = create_key(session, f"audit-{uuid.uuid4().hex[:8]}", scopes=["read", "write"])
            _, admin = create_key(
                session, f"audit-{uuid.uuid4().hex[:8]}", scopes=["read", "admin"]
            )
            session.commit()
        response = signed_in(api, key).get("/console/audit")
        assert response.status_code == 403
        assert "`admin`" in response.text
        assert signed_in(api, admin).get("/console/audit").status_code == 200


class TestLogLine:
    def test_each_committed_event_is_logged_without_secrets(
        self, api: Api, log_records: list[logging.LogRecord]
    ) -> None:
        client = api.tenant_client()
        hook = created(
            client.post(
                "/v1/webhook_endpoints", json={"url": f"http://127.0.0.1:9/{uuid.uuid4().hex}"}
            )
        )
        problem(client.post("/v1/webhook_endpoints", json={"url": "ftp://nope"}), 422)
        lines = [r for r in log_records if r.name == "loupe.audit"]
        assert [line.getMessage() for line in lines] == ["audit.webhook_endpoint.create"]
        (line,) = lines
        assert line.object_id == hook["id"] and line.object_type == "webhook_endpoint"
        assert line.actor.startswith("key:") and line.action == "webhook_endpoint.create"
        assert hook["secret"] not in json.dumps(line.__dict__, default=str)
        # A receiver's URL may carry a token in its path or query: the line has its origin,
        # the trail the whole URL.
        assert line.details == {"url": "http://127.0.0.1:9/…"}
        assert hook["url"].rsplit("/", 1)[1] not in json.dumps(line.__dict__, default=str)
        trail = client.get("/v1/audit_events").json()["data"]
        assert [event["details"]["url"] for event in trail] == [hook["url"]]
