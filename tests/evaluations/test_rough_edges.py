"""Rough edges of the first hour: cancel stops work and the counts add up, clear messages for
an empty body or a wrong type, a chunked body over the limit, LOUPE_MAX_METRICS, `loupe
migrate` saying what it did."""

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge

BIN = Path(sys.executable).parent
CASE = {
    "input": "What shape is the logo?",
    "actual_output": "A red circle.",
    "expected_output": "A red circle.",
    "retrieval_context": ["The logo is a red circle."],
}


def wait_for(condition, what: str, timeout: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


class TestCancel:
    def test_work_stops_and_counts_add_up(self, api: Api, judge: ScriptedJudge) -> None:
        judge.hold()
        answers: list[dict] = []
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held calls (released here, the job could make its next call before it sees the cancel).
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [dict(CASE, id=f"c{i}") for i in range(4)],
                    "metrics": [{"type": "exact_match"}, {"type": "contextual_recall"}],
                },
            )
            assert response.status_code == 202, response.text
            evaluation_id = response.json()["id"]

            def cancel_once_asked() -> None:
                wait_for(lambda: judge.requests, "the judge was never asked")
                with api.client(client.headers["Authorization"].split()[1]) as other:
                    answer = other.post(f"/v1/evaluations/{evaluation_id}/cancel")
                answers.append({**answer.json(), "http": answer.status_code})

            canceler = threading.Thread(target=cancel_once_asked)
            canceler.start()
            # Distributed: the burst worker runs the job right here, and must return
            # although the judge never answers. Embedded: the job runs on its own thread.
            api.run_queue()
            canceler.join()
            body = client.get(f"/v1/evaluations/{evaluation_id}").json()
            results = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"]
        [canceled] = answers
        assert canceled["http"] == 200 and canceled["status"] == "canceled"
        counts = canceled["result_counts"]
        assert body["status"] == "canceled"
        # Nothing arrived after the cancel answered.
        assert body["result_counts"] == counts
        assert len(results) == counts["passed"] + counts["failed"] + counts["errored"]
        assert counts["pending"] == 0 and counts["canceled"] > 0
        parts = ("passed", "failed", "errored", "pending", "canceled", "skipped")
        assert sum(counts[name] for name in parts) == counts["total"] == 8


class TestMessages:
    def test_empty_body(self, api: Api) -> None:
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", content=b"", headers={"Content-Type": "application/json"}
            )
        assert response.status_code == 422
        problem = response.json()
        assert problem["errors"][0]["loc"] == "body"
        assert problem["detail"] == "body: the request body is empty; send a JSON object"

    def test_no_union_member_names(self, api: Api) -> None:
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [dict(CASE, id=["not", "an", "id"])],
                    "metrics": [{"type": "exact_match", "threshold": "high"}],
                },
            )
        assert response.status_code == 422
        locs = {error["loc"] for error in response.json()["errors"]}
        assert locs == {"test_cases[0].id", "metrics[0].threshold"}
        assert "constrained" not in response.text

    def test_chunked_body_over_the_limit(self, api: Api) -> None:
        chunk = b" " * 65536

        def body() -> Iterator[bytes]:
            yield b'{"test_cases": ['
            for _ in range(api.settings.max_body_bytes // len(chunk) + 2):
                yield chunk

        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", content=body(), headers={"Content-Type": "application/json"}
            )
        assert response.status_code == 413
        assert response.json()["type"] == "https://loupe.dev/problems/body-too-large"
        assert "LOUPE_MAX_BODY_BYTES" in response.json()["detail"]


class TestMaxMetrics:
    def test_the_setting_is_read(self, tmp_path: Path) -> None:
        metrics = [{"type": "exact_match", "name": f"m{i}"} for i in range(25)]
        with side_app(tmp_path, max_metrics=24) as app, app.tenant_client() as client:
            refused = client.post(
                "/v1/evaluations", json={"test_cases": [CASE], "metrics": metrics}
            )
            accepted = client.post(
                "/v1/evaluations", json={"test_cases": [CASE], "metrics": metrics[:24]}
            )
        assert refused.status_code == 422 and "LOUPE_MAX_METRICS" in refused.json()["detail"]
        # More than the old fixed 20.
        assert accepted.status_code == 202, accepted.text


class TestCapsAreTheSettings:
    """LOUPE_MAX_TEST_CASES and LOUPE_MAX_METRICS decide, above the defaults too; past them the
    422 names the setting and the field."""

    def submit(self, client: httpx.Client, cases: int, metrics: int) -> httpx.Response:
        response = client.post(
            "/v1/evaluations",
            json={
                "test_cases": [dict(CASE, id=f"c{i}") for i in range(cases)],
                "metrics": [{"type": "exact_match", "name": f"m{i}"} for i in range(metrics)],
            },
        )
        if response.status_code == 202:
            # Accepted is all this test needs: no need to score thousands of results.
            client.post(f"/v1/evaluations/{response.json()['id']}/cancel")
        return response

    def refusal(self, response: httpx.Response, field: str, setting: str) -> None:
        assert response.status_code == 422, response.text
        problem = response.json()
        assert setting in problem["detail"] and problem["detail"].startswith(f"{field}: ")
        [error] = problem["errors"]
        assert (error["loc"], error["pointer"], error["type"]) == (field, f"/{field}", "too_long")
        assert setting in error["msg"]

    def test_raised_above_the_old_fixed_caps(self, tmp_path: Path) -> None:
        with (
            side_app(tmp_path, max_test_cases=10_001, max_metrics=201) as app,
            app.tenant_client() as client,
        ):
            assert self.submit(client, 10_001, 1).status_code == 202
            assert self.submit(client, 1, 201).status_code == 202
            self.refusal(self.submit(client, 10_002, 1), "test_cases", "LOUPE_MAX_TEST_CASES")
            self.refusal(self.submit(client, 1, 202), "metrics", "LOUPE_MAX_METRICS")

    def test_lowered(self, tmp_path: Path) -> None:
        with (
            side_app(tmp_path, max_test_cases=3, max_metrics=2) as app,
            app.tenant_client() as client,
        ):
            assert self.submit(client, 3, 2).status_code == 202
            self.refusal(self.submit(client, 4, 1), "test_cases", "LOUPE_MAX_TEST_CASES")
            self.refusal(self.submit(client, 1, 3), "metrics", "LOUPE_MAX_METRICS")


class TestMigrate:
    def test_says_what_it_did(self, tmp_path: Path) -> None:
        env = {**os.environ, "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/m.db"}

        def migrate() -> str:
            done = subprocess.run(
                [str(BIN / "loupe"), "migrate"],
                env=env,
                cwd=tmp_path,
                capture_output=True,
                text=True,
                check=True,
            )
            return done.stdout.strip()

        assert migrate().startswith("database ready: created every table (schema revision ")
        assert migrate().startswith(
            "database ready: already at the latest schema (schema revision "
        )
