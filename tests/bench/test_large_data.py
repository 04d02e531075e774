"""bench/large_data.py at a tiny scale: the rows it clones read through the HTTP API as the
service's own do (pages, filters, orders, summaries, an online rule's trend and results)."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from bench import large_data
from tests.fixtures.services import PostgresServer


@pytest.fixture(scope="module")
def generated(postgres_server: PostgresServer) -> Iterator[tuple[httpx.Client, dict[str, Any]]]:
    url = postgres_server.create_database("large_data")
    manifest = large_data.generate(url, 2000, template_size=2)
    with large_data.serve(url) as (base_url, _):
        headers = {"Authorization": f"Bearer {manifest['key']}"}
        with httpx.Client(base_url=base_url, headers=headers, trust_env=False) as client:
            yield client, manifest


def every_result(client: httpx.Client, evaluation_id: str, **params: Any) -> list[dict]:
    results, after = [], None
    while True:
        page = client.get(
            f"/v1/evaluations/{evaluation_id}/results",
            params={"limit": 100, **params, **({"after": after} if after else {})},
        )
        assert page.status_code == 200, page.text
        body = page.json()
        results += body["data"]
        if not body["has_more"]:
            return results
        after = body["last_id"]


class TestGenerated:
    def test_a_big_evaluation_reads_whole_through_its_pages(self, generated: Any) -> None:
        client, manifest = generated
        big = manifest["big_evaluations"][0]
        evaluation = client.get(f"/v1/evaluations/{big}").json()
        assert evaluation["status"] == "completed"
        results = every_result(client, big)
        cases = evaluation["result_counts"]["total"] // large_data.PER_CASE
        assert len(results) == cases * large_data.PER_CASE == evaluation["result_counts"]["total"]
        counts = evaluation["result_counts"]
        assert counts["passed"] + counts["failed"] + counts["errored"] == len(results)
        assert counts["errored"] == sum(1 for r in results if r["error"] is not None)
        for summary in evaluation["per_metric"]:
            mine = [r for r in results if r["metric"] == summary["metric"]]
            assert summary["passed"] == sum(1 for r in mine if r["passed"] is True)
        errored = [r for r in results if r["error"]]
        assert all(r["score"] is None and r["passed"] is None for r in errored)
        judged = [r for r in results if r["metric"] == "faithfulness" and not r["error"]]
        assert judged and all(r["reason"] and r["logs"] for r in judged)

    def test_filters_and_orders(self, generated: Any) -> None:
        client, manifest = generated
        big = manifest["big_evaluations"][0]
        failed = every_result(client, big, metric="helpfulness", status="failed")
        assert failed and {(r["metric"], r["passed"]) for r in failed} == {("helpfulness", False)}
        ordered = every_result(client, big, order="score_desc")
        scores = [r["score"] for r in ordered if r["score"] is not None]
        assert scores == sorted(scores, reverse=True)
        assert len(ordered) == len(every_result(client, big))

    def test_lists_and_an_online_rules_trend_and_results(self, generated: Any) -> None:
        client, manifest = generated
        listed = client.get("/v1/evaluations", params={"kind": "online", "limit": 5}).json()
        assert listed["has_more"] and listed["data"][0]["status"] == "in_progress"
        rule = manifest["rules"][0]
        since = (datetime.now(UTC) - timedelta(days=90)).date().isoformat()
        trend = client.get(
            f"/v1/online_rules/{rule}/trend", params={"bucket": "day", "since": since}
        )
        assert trend.status_code == 200, trend.text
        metrics = trend.json()["metrics"]
        assert len(metrics) == large_data.PER_CASE
        assert all(len(metric["points"]) >= 89 for metric in metrics)
        results = client.get(f"/v1/online_rules/{rule}/results").json()["data"]
        assert results and all(r["test_case"] and r["trace_id"] for r in results)
        usage = client.get("/v1/usage")
        assert usage.status_code == 200 and usage.json()["data"]

    def test_usage_counts_every_cloned_result(self, generated: Any) -> None:
        # The year's usage by day is the judge calls of every evaluation the tenant holds (the
        # cloned ones and the template the service stored itself), as their reads report them.
        client, _ = generated
        calls = 0
        for kind in ("evaluation", "online"):
            after = None
            while True:
                params = {"kind": kind, "limit": 100, **({"after": after} if after else {})}
                page = client.get("/v1/evaluations", params=params).json()
                calls += sum(evaluation["usage"]["calls"] for evaluation in page["data"])
                if not page["has_more"]:
                    break
                after = page["last_id"]
        today = datetime.now(UTC).date()
        year = client.get(
            "/v1/usage", params={"start": (today - timedelta(days=365)).isoformat()}
        ).json()
        assert len(year["data"]) > 300
        assert calls > 0 and year["judge"]["calls"] == calls
