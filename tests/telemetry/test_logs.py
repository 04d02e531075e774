"""Request ids and structured log lines from the API, in both modes."""

import asyncio
import io
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app.config import Settings
from app.main import create_app
from app.telemetry import logs
from tests.fixtures.api import Api, fast_settings
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.telemetry.served import JUDGE_KEY, loupe_serve


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """What the `loupe` loggers write while the test runs, as JSON lines."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("loupe")
    previous = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous)


def parsed(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def body(cases: int = 2) -> dict:
    return {
        "metrics": [{"type": "llm_accuracy"}],
        "test_cases": [
            {"input": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(cases)
        ],
    }


class TestRequestId:
    def test_a_client_id_is_echoed(self, api: Api) -> None:
        with api.client() as client:
            response = client.get("/healthz", headers={"X-Request-Id": "abc-123"})
        assert response.headers["x-request-id"] == "abc-123"

    def test_one_is_made_when_absent_or_unusable(self, api: Api) -> None:
        with api.client() as client:
            made = client.get("/healthz").headers["x-request-id"]
            again = client.get("/healthz").headers["x-request-id"]
            unusable = client.get(
                "/healthz", headers={"X-Request-Id": "has spaces\tand tabs"}
            ).headers["x-request-id"]
        assert made.startswith("req_") and again.startswith("req_") and made != again
        assert unusable.startswith("req_")

    def test_errors_carry_it_too(self, api: Api) -> None:
        with api.client() as client:
            response = client.get("/v1/evaluations", headers={"X-Request-Id": "no-key"})
        assert response.status_code == 401
        assert response.headers["x-request-id"] == "no-key"

    def test_an_unhandled_error_carries_it_too(
        self, tmp_path: Path, log_records: list[logging.LogRecord]
    ) -> None:
        """Starlette answers an unhandled error outside every middleware; the 500 still names
        the request, and so does its log line."""
        app = create_app(fast_settings(database_url=f"sqlite:///{tmp_path}/loupe.db"))

        # A route that fails as a bug would: the app's own 500 handling is what is under test.
        @app.get("/v1/broken")
        def broken() -> None:
            raise RuntimeError("a bug")

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://loupe") as client:
                return await client.get("/v1/broken", headers={"X-Request-Id": "the-broken-one"})

        response = asyncio.run(call())
        assert response.status_code == 500
        assert response.headers["content-type"] == "application/problem+json"
        assert response.headers["x-request-id"] == "the-broken-one"
        assert any(
            "the-broken-one" in record.getMessage()
            for record in log_records
            if record.name == "loupe" and record.levelno == logging.ERROR
        ), [record.getMessage() for record in log_records]


class TestLifecycleLines:
    def test_submit_and_cancel_are_logged_with_their_ids(
        self, api: Api, judge: ScriptedJudge, json_lines: io.StringIO
    ) -> None:
        # The judge never answers while held: the evaluation cannot finish before the cancel.
        judge.hold()
        with api.tenant_client() as client:
            created = client.post(
                "/v1/evaluations", json=body(), headers={"X-Request-Id": "submit-1"}
            ).json()
            evaluation_id = created["id"]
            canceled = client.post(
                f"/v1/evaluations/{evaluation_id}/cancel", headers={"X-Request-Id": "cancel-1"}
            )
            assert canceled.status_code == 200, canceled.text
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        lines = [line for line in parsed(json_lines) if line.get("evaluation_id") == evaluation_id]
        submitted = next(line for line in lines if line["event"] == "evaluation.submitted")
        assert submitted["request_id"] == "submit-1"
        assert submitted["tenant_id"].startswith("ten_")
        assert (submitted["test_cases"], submitted["metrics"], submitted["kind"]) == (
            2,
            1,
            "evaluation",
        )
        assert submitted["logger"] == "loupe.evaluations" and submitted["level"] == "info"
        ends = [
            line
            for line in lines
            if line["event"] in ("evaluation.canceled", "evaluation.finished")
        ]
        assert [line["event"] for line in ends] == ["evaluation.canceled"]
        # Lines about an evaluation name the request that submitted it.
        assert ends[0]["request_id"] == "submit-1"
        assert ends[0]["status"] == "canceled"


class TestFormatters:
    def record(self, message: str, **extra: object) -> logging.LogRecord:
        record = logging.LogRecord("loupe.test", logging.WARNING, __file__, 1, message, (), None)
        record.__dict__.update(extra)
        return record

    def test_json_is_one_object_per_line(self) -> None:
        line = logs.JsonFormatter().format(self.record("evaluation.started", evaluation_id="e1"))
        parsed_line = json.loads(line)
        assert "\n" not in line
        assert parsed_line["event"] == "evaluation.started"
        assert parsed_line["evaluation_id"] == "e1"
        assert parsed_line["level"] == "warning"

    def test_text_is_readable(self) -> None:
        line = logs.TextFormatter().format(self.record("evaluation.started", evaluation_id="e1"))
        assert line.endswith("WARNING loupe.test evaluation.started evaluation_id=e1")

    def test_secrets_are_replaced(self) -> None:
        logs.add_secrets(["sk-live-0123456789"])
        record = self.record("key sk-live-0123456789 refused", detail="sk-live-0123456789")
        for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
            line = formatter.format(record)
            assert "sk-live-0123456789" not in line
            assert "[redacted]" in line

    def test_secrets_with_quotes_and_backslashes_are_replaced(self) -> None:
        # JSON escapes both; a secret must be found in the values, not in the serialised line.
        secret = 'topsecret-Value"with\\quote'
        logs.add_secrets([secret])
        record = self.record(
            f"refused {secret}", detail=f"key={secret}", nested={"deeper": [secret]}
        )
        parsed_line = json.loads(logs.JsonFormatter().format(record))
        assert secret not in json.dumps(parsed_line, ensure_ascii=False)
        assert secret not in "".join(
            [parsed_line["event"], parsed_line["detail"], *parsed_line["nested"]["deeper"]]
        )
        assert parsed_line["event"] == "refused [redacted]"
        assert parsed_line["nested"] == {"deeper": ["[redacted]"]}
        text = logs.TextFormatter().format(record)
        assert "topsecret" not in text and "[redacted]" in text

    def test_text_lines_cannot_be_forged(self) -> None:
        forged = "2026-11-23 09:00:00,000 CRITICAL loupe.fake injected"
        record = self.record(
            f"judge said: no\n{forged}\r\x1b[31mred\u2028",
            error_message=f"refused\n{forged}",
            note="two words",
        )
        line = logs.TextFormatter().format(record)
        assert len(line.splitlines()) == 1 and "\x1b" not in line
        assert f"judge said: no\\n{forged}\\r\\x1b[31mred\\u2028" in line
        assert f'error_message="refused\\n{forged}"' in line
        assert 'note="two words"' in line

    def test_a_traceback_is_indented_under_its_line(self) -> None:
        try:
            raise ValueError("bad\n2026-11-23 09:00:00,000 CRITICAL loupe.fake injected")
        except ValueError:
            record = logging.LogRecord(
                "loupe.test", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
            )
        first, *rest = logs.TextFormatter().format(record).split("\n")
        assert first.endswith("ERROR loupe.test failed")
        assert rest and all(line.startswith("    ") for line in rest)
        assert any("ValueError: bad" in line for line in rest)
        assert json.loads(logs.JsonFormatter().format(record))["exception"].startswith("Traceback")

    def test_uvicorns_colour_copy_is_dropped(self) -> None:
        record = self.record("Started", color_message="\x1b[32mStarted\x1b[0m")
        for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
            line = formatter.format(record)
            assert "color_message" not in line and "\x1b" not in line

    def test_loupe_keys_and_bearer_tokens_are_replaced(self) -> None:
        key = "lp_" + "A1b2-C3d4_" * 4 + "xyz"
        record = self.record(
            f'GET /v1/evaluations?api_key={key} "Authorization: Bearer sk-abcdefgh1234"',
            request_id=key,
        )
        for formatter in (logs.JsonFormatter(), logs.TextFormatter()):
            line = formatter.format(record)
            assert key not in line and "sk-abcdefgh1234" not in line
        # OAuth codes and states in a URL's query, as the access log writes the redirect back.
        line = logs.TextFormatter().format(
            self.record("GET /console/oidc/callback?state=s1-x&code=c0de_1&next=/console")
        )
        assert "state=[redacted]&code=[redacted]&next=/console" in line
        assert "barcode=5" in logs.TextFormatter().format(self.record("GET /x?barcode=5"))
        # The short prefix `loupe keys list` shows is no secret, nor is "help_" in a word.
        shown = logs.TextFormatter().format(self.record("key lp_A1b2C3d… help_text_here"))
        assert "lp_A1b2C3d…" in shown and "help_text_here" in shown


class TestMetricsEndpoint:
    def test_serves_the_queue_backlog_in_both_modes(self, api: Api) -> None:
        with api.client() as client:
            first = client.get("/metrics")
            response = client.get("/metrics")
        assert first.status_code == response.status_code == 200
        assert f'loupe_queue_jobs{{queue="{api.settings.queue_name}"}}' in response.text
        assert "loupe_queue_oldest_job_age_seconds" in response.text
        # The first scrape is counted under its route template by the time of the second.
        assert 'loupe_http_requests_total{method="GET",route="/metrics",status="200"}' in (
            response.text
        )


FORGED = "2026-11-23 09:00:00,000 CRITICAL loupe.fake injected line"


class TestServedProcessLines:
    """What an operator reads on `loupe serve`'s stderr."""

    def test_text_lines_hold_provider_text_on_one_line(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        judge.script(lambda request: Reply(status=400, content=f"no\n{FORGED}\r\x1b[2J"))
        with (
            loupe_serve(tmp_path, judge.base_url, log_format="text") as served,
            served.client() as client,
        ):
            created = client.post("/v1/evaluations", json=body(cases=1))
            assert created.status_code == 202, created.text
            served.wait(client, created.json()["id"])
        lines = served.log().splitlines()
        [errored] = [line for line in lines if " result.errored " in line]
        assert f"no\\n{FORGED}\\r\\x1b[2J" in errored
        assert not [line for line in lines if line.startswith(FORGED[:23])]
        assert "\x1b" not in served.log()

    def test_json_lines_hold_no_tenant_key_and_no_colour(
        self, tmp_path: Path, judge: ScriptedJudge
    ) -> None:
        with loupe_serve(tmp_path, judge.base_url, log_format="json") as served:
            key = served.key
            with served.client() as client:
                # A key pasted where it does not belong: a query string, a request id.
                client.get("/v1/evaluations", params={"api_key": key})
                # An identity provider's redirect back carries a one-time code and the state.
                client.get(
                    "/console/oidc/callback",
                    params={"code": "one-time-code-4711", "state": "st-0815", "iss": "x"},
                )
                created = client.post(
                    "/v1/evaluations",
                    json={
                        "metrics": [{"type": "exact_match"}],
                        "test_cases": [
                            {"input": "q", "actual_output": "a", "expected_output": "a"}
                        ],
                    },
                    headers={"X-Request-Id": key},
                )
                assert created.status_code == 202, created.text
                served.wait(client, created.json()["id"])
        log = served.log()
        parsed_lines = served.json_lines()
        assert key not in log and JUDGE_KEY not in log
        access = [line for line in parsed_lines if line["logger"] == "uvicorn.access"]
        assert any("api_key=[redacted]" in line["event"] for line in access), access
        assert "one-time-code-4711" not in log and "st-0815" not in log
        assert any(
            "callback?code=[redacted]&state=[redacted]&iss=x" in line["event"] for line in access
        ), access
        [submitted] = [line for line in parsed_lines if line["event"] == "evaluation.submitted"]
        assert submitted["request_id"] == "[redacted]"
        # uvicorn's start-up lines carry an ANSI-coloured copy of themselves: not written.
        assert any(line["logger"].startswith("uvicorn") for line in parsed_lines)
        assert not [line for line in parsed_lines if "color_message" in line]
        assert "\x1b" not in log and "\\u001b" not in log


class TestLevelSetting:
    def test_any_case_names_a_level_and_a_wrong_name_is_refused(self) -> None:
        assert Settings(log_level="debug").log_level == "DEBUG"
        assert Settings(log_level="Warning").log_level == "WARNING"
        with pytest.raises(ValidationError, match="log_level"):
            Settings(log_level="verbose")
