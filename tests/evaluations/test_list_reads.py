"""A list page of evaluations reads its rows' metric summaries in one query, however many rows
it shows (the API's list and the console's alike): a page costs the same at 20 rows as at 2."""

from typing import Any

from sqlalchemy import event

from tests.fixtures.api import Api

BODY = {
    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
    "metrics": [{"type": "exact_match"}, {"type": "bleu"}],
}


def summary_reads(api: Api, read: Any) -> int:
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if "FROM metric_summary" in statement:
            seen.append(statement)

    engine = api.served.runtime.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        read()
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return len(seen)


class TestListReads:
    def test_one_summary_query_for_a_page_of_evaluations(self, api: Api) -> None:
        with api.tenant_client() as client:
            for _ in range(3):
                created = client.post("/v1/evaluations", json=BODY)
                assert created.status_code == 202, created.text
                api.wait(client, created.json()["id"])

            def listed() -> None:
                page = client.get("/v1/evaluations", params={"limit": 3})
                assert page.status_code == 200 and len(page.json()["data"]) == 3
                assert all(row["result_counts"]["passed"] == 2 for row in page.json()["data"])

            assert summary_reads(api, listed) == 1
