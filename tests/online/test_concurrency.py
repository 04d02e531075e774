"""Exports sent at once to one tenant's rule each take their own test-case indices in the
rule's day: none is answered with an error and every span is counted and stored exactly once,
on SQLite (embedded) and PostgreSQL (issue 26)."""

import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.online.test_receiver import make_rule, model_and_judge, semconv_span

PARALLEL = 4
ROUNDS = 10
SPANS = 10


def export(api: Api, key: str, body: dict) -> int:
    with api.client(key) as client:
        return client.post("/v1/traces", json=body).status_code


class TestConcurrentExports:
    def test_parallel_exports_store_every_span_once(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(model_and_judge)
        key = api.new_key()
        client = api.client(key)
        # A new rule: the first round also races to make the rule's day.
        rule = make_rule(client, name="parallel")
        sent: list[str] = []
        with ThreadPoolExecutor(PARALLEL) as pool:
            for _ in range(ROUNDS):
                bodies = []
                for _ in range(PARALLEL):
                    trace_id = uuid.uuid4().hex
                    span_ids = [uuid.uuid4().hex[:16] for _ in range(SPANS)]
                    sent.extend(span_ids)
                    spans = [
                        semconv_span(span_id, "app", f"Question {span_id}?", trace_id=trace_id)
                        for span_id in span_ids
                    ]
                    bodies.append({"resourceSpans": spans})
                statuses = list(pool.map(lambda body: export(api, key, body), bodies))
                assert statuses == [200] * PARALLEL

        counts = client.get(f"/v1/online_rules/{rule['id']}").json()["counts"]
        total = PARALLEL * ROUNDS * SPANS
        assert (counts["received"], counts["sampled"], counts["sent"]) == (total, total, total)
        assert counts["skipped"] == {}
        days = client.get("/v1/evaluations", params={"kind": "online", "limit": 100}).json()
        evaluations = [
            evaluation
            for evaluation in days["data"]
            if evaluation["metadata"].get("online_rule_id") == rule["id"]
        ]
        assert len(evaluations) == 1
        evaluation_id = evaluations[0]["id"]
        stored: list[str] = []
        after = None
        while True:
            params = {"limit": 100, **({"after": after} if after else {})}
            page = client.get(f"/v1/evaluations/{evaluation_id}/test_cases", params=params)
            assert page.status_code == 200, page.text
            body = page.json()
            stored.extend(case["metadata"]["span_id"] for case in body["data"])
            after = body["last_id"]
            if not body["has_more"]:
                break
        assert sorted(stored) == sorted(sent)
        assert evaluations[0]["test_case_count"] == total
        # And each is judged once: the day's scoring ends with the test, not in the next ones.
        deadline = time.monotonic() + 120
        while (counts := client.get(f"/v1/online_rules/{rule['id']}").json()["counts"])[
            "judged"
        ] + counts["errored"] < total:
            assert time.monotonic() < deadline, counts
            api.run_queue()
            time.sleep(0.05)
        assert (counts["judged"], counts["errored"]) == (total, 0)
