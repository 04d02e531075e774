"""A rule's `export_headers` authenticate its scores to a hosted collector (Honeycomb's
`x-honeycomb-team`, Grafana Cloud's `Authorization: Basic`, Datadog's `DD-API-KEY`): sent with
every OTLP/HTTP export to the rule's own endpoint (a loopback collector here), stored encrypted,
and never shown again: not in an answer, the audit trail, /metrics, a log line or a console
page, which name the headers only. Every fault is named in one 422 without its value; another
endpoint needs the headers given again; a changed LOUPE_SECRET_KEY holds the export back (the
rule says so) until they are set again."""

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app import crypto
from app.models import OnlineRule
from tests.console.helpers import csrf_of, signed_in
from tests.fixtures.api import Api, app_in_mode, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_export import exported, send_spans
from tests.online.test_receiver import G_EVAL, judged_results, make_rule, model_and_judge
from tests.otlp.capture import capture_server
from tests.test_problems import locs, problem

HONEYCOMB = "hcaik_01jexamplehoneycombingestkey0123456789"
GRAFANA = "MTIzNDU2OmdsY19leGFtcGxlZ3JhZmFuYWNsb3VkdG9rZW4="
DATADOG = "dd0123456789abcdef0123456789abcdef"
SECRETS = (HONEYCOMB, GRAFANA, DATADOG)
HEADERS = {"x-honeycomb-team": HONEYCOMB, "Authorization": f"Basic {GRAFANA}"}


@pytest.fixture(scope="module", params=["embedded", "distributed"])
def exporting(request: pytest.FixtureRequest) -> Iterator[Api]:
    """An app in each mode exporting every result at once (no settling delay)."""
    judge = request.getfixturevalue("judge_server")
    overrides = {
        "judge_base_url": judge.base_url,
        "otlp_export_delay_seconds": 0,
        "otlp_export_timeout_seconds": 0.5,
    }
    with app_in_mode(request, "export-headers", **overrides) as app:
        yield app


def assert_no_secret(text: str, where: str) -> None:
    for secret in SECRETS:
        assert secret not in text, f"a header value in {where}"


def stored(api: Api, rule_id: str) -> OnlineRule:
    with api.served.runtime.session() as session:
        rule = session.get(OnlineRule, rule_id)
        assert rule is not None
        session.expunge(rule)
        return rule


class TestHeadersGoOut:
    def test_sent_with_every_export_and_never_shown(
        self,
        exporting: Api,
        judge: ScriptedJudge,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        caplog.set_level(logging.DEBUG)
        judge.script(model_and_judge)
        key = exporting.new_key()
        client = exporting.client(key)
        with capture_server() as own:
            made = client.post(
                "/v1/online_rules",
                json={
                    "name": "to honeycomb",
                    "sampling": {"rate": 1},
                    "metrics": [G_EVAL],
                    "export_endpoint": own.endpoint,
                    "export_headers": HEADERS,
                },
            )
            assert made.status_code == 201, made.text
            rule = made.json()
            assert rule["export_header_names"] == ["x-honeycomb-team", "Authorization"]
            assert "export_headers" not in rule
            assert_no_secret(made.text, "the create's answer")

            # Two export requests, each with the headers.
            first, _ = send_spans(client, "Capital of France?")
            judged_results(exporting, client, rule["id"], 1)
            exported(exporting, own, first, 1)
            second, _ = send_spans(client, "Capital of Spain?")
            judged_results(exporting, client, rule["id"], 2)
            exported(exporting, own, second, 1)
            accepted = [e for e in own.exports if e.status == 200]
            assert len(accepted) >= 2
            for export in accepted:
                assert export.headers["x-honeycomb-team"] == HONEYCOMB
                assert export.headers["authorization"] == f"Basic {GRAFANA}"

            # Replaced whole: the next export carries the new header only.
            changed = client.patch(
                f"/v1/online_rules/{rule['id']}", json={"export_headers": {"DD-API-KEY": DATADOG}}
            )
            assert changed.status_code == 200, changed.text
            assert changed.json()["export_header_names"] == ["DD-API-KEY"]
            assert_no_secret(changed.text, "the change's answer")
            before = len(own.exports)
            third, _ = send_spans(client, "Capital of Italy?")
            judged_results(exporting, client, rule["id"], 3)
            exported(exporting, own, third, 1)
            for export in own.exports[before:]:
                assert export.headers["dd-api-key"] == DATADOG
                assert "x-honeycomb-team" not in export.headers
                assert "authorization" not in export.headers

        # Encrypted at rest.
        row = stored(exporting, rule["id"])
        assert row.export_headers_encrypted is not None
        assert DATADOG.encode() not in bytes(row.export_headers_encrypted)
        assert DATADOG in crypto.decrypt(exporting.settings, row.export_headers_encrypted)

        # Shown nowhere: the rule, the list, the audit trail, /metrics, the console, the logs.
        got = client.get(f"/v1/online_rules/{rule['id']}")
        assert got.json()["export_header_names"] == ["DD-API-KEY"]
        assert_no_secret(got.text, "GET")
        assert_no_secret(client.get("/v1/online_rules").text, "the list")
        trail = client.get("/v1/audit_events", params={"limit": 100})
        assert trail.status_code == 200, trail.text
        assert_no_secret(trail.text, "the audit trail")
        created = [e for e in trail.json()["data"] if e["action"] == "online_rule.create"]
        assert created[0]["details"]["export_header_names"] == [
            "x-honeycomb-team",
            "Authorization",
        ]
        updated = [e for e in trail.json()["data"] if e["action"] == "online_rule.update"]
        assert updated[0]["details"]["export_header_names"] == ["DD-API-KEY"]
        assert_no_secret(exporting.client().get("/metrics").text, "/metrics")
        console = signed_in(exporting, key)
        page = console.get(f"/console/online_rules/{rule['id']}")
        assert page.status_code == 200
        assert "DD-API-KEY" in page.text
        assert_no_secret(page.text, "the console's rule page")
        assert caplog.records, "the test's logs were captured"
        assert_no_secret(caplog.text, "a log line")
        for record in caplog.records:
            assert_no_secret(record.getMessage(), f"a {record.name} log line")

        # No endpoint, no headers: they go with it.
        cleared = client.patch(f"/v1/online_rules/{rule['id']}", json={"export_endpoint": None})
        assert cleared.status_code == 200, cleared.text
        assert cleared.json()["export_header_names"] == []
        row = stored(exporting, rule["id"])
        assert row.export_headers_encrypted is None and row.export_header_names is None


def rule_with(client: httpx.Client, **changes: Any) -> httpx.Response:
    body = {
        "name": "out",
        "sampling": {"rate": 1},
        "metrics": [{"type": "answer_relevancy"}],
        "export_endpoint": "http://127.0.0.1:4318",
        **changes,
    }
    return client.post("/v1/online_rules", json=body)


class TestOneAnswerNamesEveryBadHeader:
    def test_each_bad_header_is_named_without_its_value(
        self, api: Api, caplog: pytest.LogCaptureFixture
    ) -> None:
        caplog.set_level(logging.DEBUG)
        client = api.tenant_client()
        bad = {
            "Bad Name": "v",
            "Authorization: Basic": GRAFANA,
            "Host": "collector.example",
            "Content-Length": "1",
            "Content-Type": "text/plain",
            "Transfer-Encoding": "chunked",
            "Connection": "close",
            "Content-Encoding": "gzip",
            "X-Crlf": f"{HONEYCOMB}\r\nX-Injected: 1",
            "X-Lf": f"{HONEYCOMB}\nX",
            "X-Padded": f" {HONEYCOMB}",
            "X-Empty": "",
            "X-Number": 7,
            "x-team": HONEYCOMB,
            "X-Team": HONEYCOMB,
        }
        refused = problem(rule_with(client, name="", export_headers=bad), 422)
        named = set(locs(refused))
        expected = {f"export_headers.{name}" for name in bad if name != "x-team"}
        assert expected | {"name"} <= named, named
        assert "export_headers.x-team" not in named
        assert_no_secret(str(refused), "the 422")
        # A NUL is refused as the body is read (PostgreSQL stores none), named the same way.
        nul = problem(rule_with(client, export_headers={"X-Nul": f"{HONEYCOMB}\x00"}), 422)
        assert locs(nul) == ["export_headers.X-Nul"]
        assert_no_secret(str(nul), "the NUL's 422")
        # Nothing was stored, or logged.
        assert client.get("/v1/online_rules").json()["data"] == []
        assert caplog.records
        assert_no_secret(caplog.text, "a log line")

    def test_too_many_or_too_large_and_no_endpoint(self, api: Api) -> None:
        client = api.tenant_client()
        many = {f"X-H{n}": "v" for n in range(17)}
        assert "export_headers" in locs(problem(rule_with(client, export_headers=many), 422))
        large = {f"X-H{n}": "v" * 3000 for n in range(3)}
        assert "export_headers" in locs(problem(rule_with(client, export_headers=large), 422))
        longest = {"X-Long": "v" * 4097}
        assert "export_headers.X-Long" in locs(
            problem(rule_with(client, export_headers=longest), 422)
        )
        alone = problem(rule_with(client, export_endpoint=None, export_headers=HEADERS), 422)
        assert locs(alone) == ["export_headers"]
        not_object = problem(rule_with(client, export_headers=["x-team"]), 422)
        assert locs(not_object) == ["export_headers"]

    def test_a_change_to_another_endpoint_gives_the_headers_again(self, api: Api) -> None:
        client = api.tenant_client()
        made = rule_with(client, export_headers=HEADERS)
        assert made.status_code == 201, made.text
        rule_id = made.json()["id"]
        moved = problem(
            client.patch(
                f"/v1/online_rules/{rule_id}", json={"export_endpoint": "http://127.0.0.2:4318"}
            ),
            422,
        )
        assert locs(moved) == ["export_headers"]
        # Alongside another fault, in the same answer.
        both = problem(
            client.patch(
                f"/v1/online_rules/{rule_id}",
                json={"export_endpoint": "http://127.0.0.2:4318", "sampling": {"rate": 2}},
            ),
            422,
        )
        assert {"export_headers", "sampling.rate"} <= set(locs(both))
        # The same endpoint keeps them; another one with its own headers takes those.
        same = client.patch(
            f"/v1/online_rules/{rule_id}", json={"export_endpoint": "http://127.0.0.1:4318/"}
        )
        assert same.json()["export_header_names"] == list(HEADERS)
        other = client.patch(
            f"/v1/online_rules/{rule_id}",
            json={"export_endpoint": "http://127.0.0.2:4318", "export_headers": {"X-K": "v"}},
        )
        assert other.status_code == 200, other.text
        assert other.json()["export_header_names"] == ["X-K"]
        # Headers for a rule without an endpoint of its own are refused on a change too.
        plain = make_rule(client)
        alone = client.patch(f"/v1/online_rules/{plain['id']}", json={"export_headers": HEADERS})
        assert locs(problem(alone, 422)) == ["export_headers"]
        emptied = client.patch(f"/v1/online_rules/{rule_id}", json={"export_headers": {}})
        assert emptied.json()["export_header_names"] == []


class TestChangedSecretKey:
    def test_the_export_waits_until_the_headers_are_set_again(
        self,
        tmp_path: Path,
        judge_server: ScriptedJudge,
        judge: ScriptedJudge,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        caplog.set_level(logging.INFO)
        judge.script(model_and_judge)
        settings = {
            "judge_base_url": judge_server.base_url,
            "otlp_export_delay_seconds": 0,
            "otlp_export_timeout_seconds": 0.5,
        }
        with capture_server() as own:
            with side_app(tmp_path, **settings) as before:
                key = before.new_key()
                rule = make_rule(
                    before.client(key),
                    export_endpoint=own.endpoint,
                    export_headers=HEADERS,
                    enabled=False,
                )
            rotated = {**settings, "secret_key": "another-secret-key-of-at-least-32-bytes"}
            with side_app(tmp_path, **rotated) as after:
                client = after.client(key)
                warned = client.get(f"/v1/online_rules/{rule['id']}").json()
                assert any("LOUPE_SECRET_KEY" in w for w in warned["warnings"]), warned
                assert warned["export_header_names"] == list(HEADERS)
                client.post(f"/v1/online_rules/{rule['id']}/enable")
                trace_id, _ = send_spans(client, "Capital of France?")
                judged_results(after, client, rule["id"], 1)
                held = _held_back(after, rule["id"])
                assert held.export_failures >= 1 and held.export_cursor is None
                assert not own.exports, "nothing is sent without the headers"
                said = [r.getMessage() for r in caplog.records if r.name == "loupe.online.export"]
                assert any("cannot be decrypted" in line for line in said), said

                again = client.patch(
                    f"/v1/online_rules/{rule['id']}", json={"export_headers": {"X-Key": DATADOG}}
                )
                assert again.status_code == 200, again.text
                assert again.json()["warnings"] == []
                [record] = exported(after, own, trace_id, 1)
                assert {e.headers["x-key"] for e in own.exports} == {DATADOG}


def _held_back(api: Api, rule_id: str) -> OnlineRule:
    """The rule once an export job found its headers unreadable (the embedded ticker runs it)."""
    deadline = time.monotonic() + 60
    while True:
        row = stored(api, rule_id)
        if row.export_failures:
            return row
        assert time.monotonic() < deadline, "no export was tried"
        time.sleep(0.05)


class TestConsoleForm:
    def test_sets_replaces_and_removes_headers_without_showing_them(self, api: Api) -> None:
        key = api.new_key()
        client = api.client(key)
        rule = make_rule(client, enabled=False)
        console = signed_in(api, key)
        path = f"/console/online_rules/{rule['id']}"

        def save(**fields: str) -> httpx.Response:
            form = {
                "csrf_token": csrf_of(console.get(path).text),
                "name": "vision",
                "sampling_rate": "1",
                "export_endpoint": "http://127.0.0.1:4318",
                **fields,
            }
            return console.post(f"{path}/settings", data=form)

        saved = save(export_headers=f"x-honeycomb-team: {HONEYCOMB}\n\nDD-API-KEY:{DATADOG}\n")
        assert saved.status_code == 303, saved.text
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["export_header_names"] == [
            "x-honeycomb-team",
            "DD-API-KEY",
        ]
        page = console.get(path).text
        assert "x-honeycomb-team" in page and "DD-API-KEY" in page
        assert_no_secret(page, "the rule page")
        row = stored(api, rule["id"])
        assert row.export_headers_encrypted is not None
        assert crypto.decrypt(api.settings, row.export_headers_encrypted) == (
            f'{{"x-honeycomb-team": "{HONEYCOMB}", "DD-API-KEY": "{DATADOG}"}}'
        )

        # An empty box keeps them; a bad line is named by its number, its value not repeated.
        kept = save(name="renamed")
        assert kept.status_code == 303
        assert len(client.get(f"/v1/online_rules/{rule['id']}").json()["export_header_names"]) == 2
        refused = save(export_headers=f"Authorization Bearer {GRAFANA}\nHost: x")
        assert refused.status_code == 400
        assert "line 1" in refused.text and "Host" in refused.text
        assert_no_secret(refused.text, "the refused form's page")

        removed = save(export_headers_clear="on")
        assert removed.status_code == 303
        assert client.get(f"/v1/online_rules/{rule['id']}").json()["export_header_names"] == []


class TestOperatorsOwnHeaders:
    def test_a_rules_header_is_sent_when_the_process_names_the_same_one(
        self, exporting: Api, judge: ScriptedJudge, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Loupe's own telemetry headers (OTEL_EXPORTER_OTLP_HEADERS, lower-case as operators
        write them) name the same headers as a rule's, in another case: the rule's values go
        to its collector, the operator's never."""
        monkeypatch.setenv(
            "OTEL_EXPORTER_OTLP_HEADERS",
            "authorization=Basic operators-own,x-honeycomb-team=operators-team",
        )
        judge.script(model_and_judge)
        client = exporting.tenant_client()
        with capture_server() as own:
            rule = make_rule(
                client,
                export_endpoint=own.endpoint,
                export_headers={"Authorization": f"Basic {GRAFANA}", "X-Honeycomb-Team": HONEYCOMB},
            )
            trace_id, _ = send_spans(client, "Capital of Portugal?")
            judged_results(exporting, client, rule["id"], 1)
            exported(exporting, own, trace_id, 1)
            accepted = [export for export in own.exports if export.status == 200]
            assert accepted
            for export in accepted:
                assert export.headers.get("authorization") == f"Basic {GRAFANA}"
                assert export.headers.get("x-honeycomb-team") == HONEYCOMB
                assert "operators-" not in str(export.headers)
