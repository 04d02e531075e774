"""Request ids and structured log lines from the API, in both modes."""

import io
import json
import logging
from collections.abc import Iterator

import pytest

from app.telemetry import logs
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge


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
            judge.release()
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
