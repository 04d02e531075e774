"""The evaluations API end to end, in embedded and distributed mode."""

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.console.helpers import signed_in
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer


def evaluation_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "smoke",
        "metadata": {"team": "search"},
        "test_cases": [
            {"id": "tc-a", "input": "2+2?", "actual_output": "4", "expected_output": "4"},
            {
                "input": "capital?",
                "actual_output": [{"type": "text", "text": "Paris"}],
                "expected_output": "paris",
            },
            {"input": "colour?", "actual_output": "blue", "expected_output": "red"},
        ],
        "metrics": [
            {"type": "exact_match"},
            {"type": "exact_match", "name": "loose", "case_sensitive": False},
        ],
    }
    body.update(overrides)
    return body


class TestCreate:
    def test_submit_and_poll_to_completion(self, api: Api) -> None:
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=evaluation_body())
        assert response.status_code == 202, response.text
        created = response.json()
        assert response.headers["location"] == f"/v1/evaluations/{created['id']}"
        assert created["status"] == "queued"
        assert created["result_counts"] == {
            "total": 6,
            "passed": 0,
            "failed": 0,
            "errored": 0,
            "pending": 6,
            "canceled": 0,
            "skipped": 0,
        }

        final = api.wait(client, created["id"])
        assert final["status"] == "completed"
        assert final["result_counts"] == {
            "total": 6,
            "passed": 3,
            "failed": 3,
            "errored": 0,
            "pending": 0,
            "canceled": 0,
            "skipped": 0,
        }
        summary = {m["metric"]: m for m in final["per_metric"]}
        assert summary["exact_match"]["mean_score"] == 1 / 3
        assert summary["loose"]["pass_rate"] == 2 / 3
        assert final["started_at"] and final["completed_at"]
        assert "retry-after" not in client.get(f"/v1/evaluations/{created['id']}").headers

        results = client.get(f"/v1/evaluations/{created['id']}/results").json()
        assert results["object"] == "list" and results["has_more"] is False
        rows = results["data"]
        assert [(r["test_case_id"], r["metric"]) for r in rows] == [
            ("tc-a", "exact_match"),
            ("tc-a", "loose"),
            ("1", "exact_match"),
            ("1", "loose"),
            ("2", "exact_match"),
            ("2", "loose"),
        ]
        assert rows[2]["passed"] is False and rows[3]["passed"] is True
        assert rows[2]["reason"].startswith("actual_output differs")
        assert rows[3]["logs"] == {
            "actual": "paris",
            "expected": "paris",
            "case_sensitive": False,
            "strip": True,
        }


def judged_body(cases: int) -> dict[str, Any]:
    """exact_match plus a g_eval with given steps: one judge call per test case, none shared,
    so an evaluation cannot finish while the scripted judge holds its answers."""
    return evaluation_body(
        test_cases=[
            {"input": f"q{i}", "actual_output": f"a{i}", "expected_output": f"a{i}"}
            for i in range(cases)
        ],
        metrics=[
            {"type": "exact_match"},
            {
                "type": "g_eval",
                "name": "judged",
                "evaluation_steps": ["Check that the output answers the input."],
                "evaluation_params": ["input", "actual_output"],
            },
        ],
    )


def wait_for_stored(client: httpx.Client, evaluation_id: str, timeout: float = 30) -> int:
    """Poll until some of the evaluation's results are stored; returns how many."""
    deadline = time.monotonic() + timeout
    while True:
        counts = client.get(f"/v1/evaluations/{evaluation_id}").json()["result_counts"]
        if counts["total"] > counts["pending"]:
            return counts["total"] - counts["pending"]
        assert time.monotonic() < deadline, f"no result was stored: {counts}"
        time.sleep(0.05)


def problem(response: Any, status: int) -> dict[str, Any]:
    """Assert an RFC 9457 problem with this status; returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == status and body["title"]
    return body


def error_locs(body: dict[str, Any]) -> list[str]:
    return [error["loc"] for error in body["errors"]]


class TestAuth:
    def test_no_key_is_401(self, api: Api) -> None:
        body = problem(api.client().post("/v1/evaluations", json=evaluation_body()), 401)
        assert "Bearer" in body["detail"]

    def test_bad_key_is_401(self, api: Api) -> None:
        for key in ("lp_not-a-real-key", "nonsense", "lp_" + "x" * 43):
            response = api.client(key).get("/v1/evaluations")
            body = problem(response, 401)
            assert (
                body["detail"] == "The API key in Authorization is not valid (unknown or revoked)."
            )
            assert error_locs(body) == ["header.Authorization"]
            assert response.headers["www-authenticate"].startswith("Bearer")

    def test_other_tenants_rows_answer_404(self, api: Api) -> None:
        owner, stranger = api.tenant_client(), api.tenant_client()
        evaluation_id = owner.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        api.wait(owner, evaluation_id)
        for path in ("", "/results"):
            problem(stranger.get(f"/v1/evaluations/{evaluation_id}{path}"), 404)
        problem(stranger.post(f"/v1/evaluations/{evaluation_id}/cancel"), 404)
        assert stranger.get("/v1/evaluations").json()["data"] == []
        assert [e["id"] for e in owner.get("/v1/evaluations").json()["data"]] == [evaluation_id]

    def test_keys_are_stored_hashed(self, api: Api) -> None:
        from sqlalchemy import select

        from app.models import ApiKey

        key = api.new_key()
        with api.served.runtime.session() as session:
            stored = session.scalars(select(ApiKey.key_hash)).all()
        assert key not in stored
        assert all(len(value) == 64 for value in stored)


class TestValidation:
    def test_malformed_json_is_400(self, api: Api) -> None:
        response = api.tenant_client().post(
            "/v1/evaluations",
            content=b'{"test_cases": [',
            headers={"content-type": "application/json"},
        )
        assert problem(response, 400)["title"] == "Malformed JSON"

    def test_non_json_body_is_415(self, api: Api) -> None:
        response = api.tenant_client().post(
            "/v1/evaluations", content=b"a=b", headers={"content-type": "text/plain"}
        )
        problem(response, 415)

    def test_unknown_metric_type_is_422_naming_it(self, api: Api) -> None:
        body = evaluation_body(metrics=[{"type": "exact_match"}, {"type": "telepathy"}])
        response = api.tenant_client().post("/v1/evaluations", json=body)
        assert error_locs(problem(response, 422)) == ["metrics[1].type"]

    def test_nested_part_error_names_the_field(self, api: Api) -> None:
        cases = evaluation_body()["test_cases"]
        cases[2]["actual_output"] = [
            "text first",
            {"type": "image_url", "image_url": {"url": "file:///etc/passwd"}},
        ]
        response = api.tenant_client().post(
            "/v1/evaluations", json=evaluation_body(test_cases=cases)
        )
        body = problem(response, 422)
        assert error_locs(body) == ["test_cases[2].actual_output[1].image_url.url"]
        assert body["errors"][0]["pointer"] == "/test_cases/2/actual_output/1/image_url/url"

    def test_bad_part_shapes(self, api: Api) -> None:
        cases = evaluation_body()["test_cases"]
        cases[0]["input"] = [{"type": "video", "url": "x"}]
        cases[1]["actual_output"] = 42
        cases[2]["retrieval_context"] = ["ok", [{"type": "text"}]]
        response = api.tenant_client().post(
            "/v1/evaluations", json=evaluation_body(test_cases=cases)
        )
        assert sorted(error_locs(problem(response, 422))) == [
            "test_cases[0].input[0]",
            "test_cases[1].actual_output",
            "test_cases[2].retrieval_context[1][0].text",
        ]

    def test_missing_field_for_metric_is_422_at_submit(self, api: Api) -> None:
        cases = evaluation_body()["test_cases"]
        del cases[1]["expected_output"]
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=evaluation_body(test_cases=cases))
        body = problem(response, 422)
        assert error_locs(body) == [
            "test_cases[1].expected_output",
            "test_cases[1].expected_output",
        ]
        assert "metrics[1]" in body["errors"][1]["msg"] and "loose" in body["errors"][1]["msg"]
        # Nothing was stored for the refused submission.
        assert client.get("/v1/evaluations").json()["data"] == []

    def test_missing_required_case_field(self, api: Api) -> None:
        # Only `input` is every case's; each metric names the other fields it reads.
        cases = [{"actual_output": "a", "expected_output": "a"}]
        response = api.tenant_client().post(
            "/v1/evaluations", json=evaluation_body(test_cases=cases)
        )
        assert error_locs(problem(response, 422)) == ["test_cases[0].input"]

    def test_missing_actual_output_is_named_per_metric_reading_it(self, api: Api) -> None:
        cases = [{"input": "q", "expected_output": "a"}]
        response = api.tenant_client().post(
            "/v1/evaluations", json=evaluation_body(test_cases=cases)
        )
        body = problem(response, 422)
        assert set(error_locs(body)) == {"test_cases[0].actual_output"}
        assert {error["type"] for error in body["errors"]} == {"missing_for_metric"}

    def test_counts_and_names(self, api: Api) -> None:
        client = api.tenant_client()
        locs = error_locs(
            problem(client.post("/v1/evaluations", json=evaluation_body(test_cases=[])), 422)
        )
        assert locs == ["test_cases"]
        metrics = [{"type": "exact_match", "name": f"m{i}"} for i in range(21)]
        locs = error_locs(
            problem(client.post("/v1/evaluations", json=evaluation_body(metrics=metrics)), 422)
        )
        assert locs == ["metrics"]
        twins = [{"type": "exact_match"}, {"type": "exact_match"}]
        locs = error_locs(
            problem(client.post("/v1/evaluations", json=evaluation_body(metrics=twins)), 422)
        )
        assert locs == ["metrics[1].name"]
        cases = evaluation_body()["test_cases"]
        cases[1]["id"] = "tc-a"
        locs = error_locs(
            problem(client.post("/v1/evaluations", json=evaluation_body(test_cases=cases)), 422)
        )
        assert locs == ["test_cases[1].id"]
        metadata = {f"k{i}": "v" for i in range(17)}
        locs = error_locs(
            problem(client.post("/v1/evaluations", json=evaluation_body(metadata=metadata)), 422)
        )
        assert locs == ["metadata"]

    def test_an_explicit_id_equal_to_an_unnamed_cases_index_is_422(self, api: Api) -> None:
        # [{"id": "1"}, {}, {}] gave test_case_id "1", "1", "2": the case at index 1 gets "1".
        client = api.tenant_client()
        case = {"input": "q", "actual_output": "a", "expected_output": "a"}
        cases = [{"id": "1", **case}, dict(case), dict(case)]
        body = problem(client.post("/v1/evaluations", json=evaluation_body(test_cases=cases)), 422)
        assert error_locs(body) == ["test_cases[1].id"]
        assert "test_cases[0]" in body["errors"][0]["msg"] and "'1'" in body["errors"][0]["msg"]
        # The explicit id may come later, and be an integer.
        cases = [dict(case), {"id": 0, **case}]
        body = problem(client.post("/v1/evaluations", json=evaluation_body(test_cases=cases)), 422)
        assert error_locs(body) == ["test_cases[0].id"]
        # Ids that cannot collide are fine, and unnamed cases keep their index as id.
        cases = [{"id": "5", **case}, dict(case), {"id": "tc", **case}]
        response = client.post("/v1/evaluations", json=evaluation_body(test_cases=cases))
        assert response.status_code == 202, response.text
        final = api.wait(client, response.json()["id"])
        ids = {
            row["test_case_id"]
            for row in client.get(f"/v1/evaluations/{final['id']}/results").json()["data"]
        }
        assert ids == {"5", "1", "tc"}

    def test_body_over_limit_is_413(self, api: Api) -> None:
        limit = api.settings.max_body_bytes
        big = "x" * (limit + 1)
        body = evaluation_body(name=None)
        body["test_cases"][0]["actual_output"] = big
        response = api.tenant_client().post("/v1/evaluations", json=body)
        assert problem(response, 413)["title"] == "Content Too Large"

    def test_chunked_body_over_limit_is_413(self, api: Api) -> None:
        limit = api.settings.max_body_bytes

        def chunks():  # no Content-Length: the limit must hold while streaming
            yield b'{"name": "'
            for _ in range(limit // 65536 + 2):
                yield b"x" * 65536
            yield b'"}'

        response = api.tenant_client().post(
            "/v1/evaluations", content=chunks(), headers={"content-type": "application/json"}
        )
        problem(response, 413)

    def test_unknown_route_and_method_are_problems(self, api: Api) -> None:
        client = api.tenant_client()
        problem(client.get("/v1/nothing-here"), 404)
        problem(client.delete("/v1/evaluations"), 405)
        problem(client.get("/v1/evaluations/eval_missing"), 404)


class TestIdempotency:
    def test_same_key_same_body_replays(self, api: Api) -> None:
        client = api.tenant_client()
        headers = {"Idempotency-Key": "order-1"}
        first = client.post("/v1/evaluations", json=evaluation_body(), headers=headers)
        # Same content, different key order: still the same request.
        reordered = dict(reversed(list(evaluation_body().items())))
        second = client.post("/v1/evaluations", json=reordered, headers=headers)
        assert first.status_code == second.status_code == 202
        assert second.json() == first.json()
        assert second.headers["location"] == first.headers["location"]
        assert second.headers["idempotent-replayed"] == "true"
        assert len(client.get("/v1/evaluations").json()["data"]) == 1

    def test_same_key_other_body_is_422(self, api: Api) -> None:
        client = api.tenant_client()
        headers = {"Idempotency-Key": "order-2"}
        assert (
            client.post("/v1/evaluations", json=evaluation_body(), headers=headers).status_code
            == 202
        )
        body = problem(
            client.post("/v1/evaluations", json=evaluation_body(name="other"), headers=headers), 422
        )
        assert "different request body" in body["detail"]

    def test_keys_are_per_tenant_and_expire(self, api: Api) -> None:
        from datetime import timedelta

        from sqlalchemy import update

        from app.db import utcnow
        from app.models import IdempotencyKey

        one, two = api.tenant_client(), api.tenant_client()
        headers = {"Idempotency-Key": "shared"}
        a = one.post("/v1/evaluations", json=evaluation_body(), headers=headers).json()
        b = two.post("/v1/evaluations", json=evaluation_body(), headers=headers).json()
        assert a["id"] != b["id"]
        # Past the 24 h retention the key is free again, even for another body.
        with api.served.runtime.session() as session:
            session.execute(
                update(IdempotencyKey)
                .where(IdempotencyKey.key == "shared")
                .values(created_at=utcnow() - timedelta(hours=25))
            )
            session.commit()
        c = one.post("/v1/evaluations", json=evaluation_body(name="new"), headers=headers)
        assert c.status_code == 202 and c.json()["id"] != a["id"]

    def test_failed_validation_does_not_burn_the_key(self, api: Api) -> None:
        client = api.tenant_client()
        headers = {"Idempotency-Key": "retry-me"}
        problem(
            client.post("/v1/evaluations", json=evaluation_body(metrics=[]), headers=headers), 422
        )
        # Refused by the service after the key was reserved: the reservation is released.
        cases = evaluation_body()["test_cases"]
        del cases[1]["expected_output"]
        unfit = evaluation_body(test_cases=cases)
        problem(client.post("/v1/evaluations", json=unfit, headers=headers), 422)
        assert (
            client.post("/v1/evaluations", json=evaluation_body(), headers=headers).status_code
            == 202
        )
        assert len(client.get("/v1/evaluations").json()["data"]) == 1

    def test_key_in_progress_is_409_until_abandoned(self, api: Api) -> None:
        from datetime import timedelta

        from sqlalchemy import select, update

        from app import idempotency
        from app.db import utcnow
        from app.models import IdempotencyKey
        from app.tenants.service import create_key

        body = evaluation_body()
        with api.served.runtime.session() as session:
            tenant, key = create_key(session, f"tenant-{uuid.uuid4().hex[:8]}")
            session.commit()
        client = api.client(key)
        headers = {"Idempotency-Key": "held"}
        # A first request holds the key: reserved, no response yet (put back so after a real
        # request, so the fingerprint is the app's own).
        api.wait(client, client.post("/v1/evaluations", json=body, headers=headers).json()["id"])
        with api.served.runtime.session() as session:
            held = session.scalars(
                select(IdempotencyKey).where(
                    IdempotencyKey.tenant_id == tenant.id, IdempotencyKey.key == "held"
                )
            ).one()
            held.status_code, held.response_body = None, None
            session.commit()
        response = client.post("/v1/evaluations", json=body, headers=headers)
        assert "in progress" in problem(response, 409)["detail"]
        assert response.headers["retry-after"] == "1"
        assert len(client.get("/v1/evaluations").json()["data"]) == 1
        # Another body is still refused as a reuse.
        problem(
            client.post("/v1/evaluations", json=evaluation_body(name="x"), headers=headers), 422
        )

        # Its request died without releasing the key: after a while a retry takes it over.
        with api.served.runtime.session() as session:
            session.execute(
                update(IdempotencyKey)
                .where(IdempotencyKey.key == "held")
                .values(created_at=utcnow() - idempotency.ABANDONED_AFTER - timedelta(seconds=1))
            )
            session.commit()
        taken = client.post("/v1/evaluations", json=body, headers=headers)
        assert taken.status_code == 202, taken.text
        replay = client.post("/v1/evaluations", json=body, headers=headers)
        assert replay.headers["idempotent-replayed"] == "true"
        assert replay.json()["id"] == taken.json()["id"]

    def test_concurrent_twins_create_one_evaluation(self, api: Api) -> None:
        key = api.new_key()
        headers = {"Idempotency-Key": "race"}
        # Big enough that each request is still being stored when its twins arrive.
        cases = [
            {"input": f"q{i}", "actual_output": "a", "expected_output": "a"} for i in range(2000)
        ]
        body = evaluation_body(test_cases=cases)
        twins = 6
        start = threading.Barrier(twins)

        def post(_: int) -> httpx.Response:
            with api.client(key) as client:
                start.wait()
                return client.post("/v1/evaluations", json=body, headers=headers)

        with ThreadPoolExecutor(twins) as pool:
            responses = list(pool.map(post, range(twins)))

        accepted = [r for r in responses if r.status_code == 202]
        for response in responses:
            if response.status_code != 202:
                detail = problem(response, 409)["detail"]
                assert "in progress" in detail
        assert len(accepted) >= 1
        assert len({r.json()["id"] for r in accepted}) == 1
        assert all(r.json() == accepted[0].json() for r in accepted)
        assert sum("idempotent-replayed" not in r.headers for r in accepted) == 1
        client = api.client(key)
        assert len(client.get("/v1/evaluations").json()["data"]) == 1
        # Once the first is done, every retry replays it.
        again = client.post("/v1/evaluations", json=body, headers=headers)
        assert again.status_code == 202 and again.json()["id"] == accepted[0].json()["id"]
        api.wait(client, accepted[0].json()["id"])


class TestPagination:
    def test_evaluations_newest_first_with_cursor(self, api: Api) -> None:
        client = api.tenant_client()
        ids = [
            client.post("/v1/evaluations", json=evaluation_body(name=f"e{i}")).json()["id"]
            for i in range(5)
        ]
        seen: list[str] = []
        after = None
        while True:
            params = {"limit": 2, **({"after": after} if after else {})}
            page = client.get("/v1/evaluations", params=params).json()
            seen += [e["id"] for e in page["data"]]
            assert page["first_id"] == page["data"][0]["id"]
            assert page["last_id"] == page["data"][-1]["id"]
            if not page["has_more"]:
                break
            after = page["last_id"]
        assert seen == list(reversed(ids))

    def test_results_pages_cover_every_result_once(self, api: Api) -> None:
        client = api.tenant_client()
        cases = [
            {"input": f"q{i}", "actual_output": str(i), "expected_output": str(i % 3)}
            for i in range(30)
        ]
        evaluation_id = client.post(
            "/v1/evaluations", json=evaluation_body(test_cases=cases)
        ).json()["id"]
        api.wait(client, evaluation_id)
        pairs = []
        after = None
        pages = 0
        while True:
            params = {"limit": 7, **({"after": after} if after else {})}
            page = client.get(f"/v1/evaluations/{evaluation_id}/results", params=params).json()
            pages += 1
            pairs += [(r["test_case_index"], r["metric"]) for r in page["data"]]
            if not page["has_more"]:
                break
            after = page["last_id"]
        assert pages == 9
        assert pairs == [(i, m) for i in range(30) for m in ("exact_match", "loose")]

    def test_bad_cursor_and_limit(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        body = problem(client.get(f"/v1/evaluations/{evaluation_id}/results?after=res_nope"), 400)
        assert "after" in body["detail"]
        body = problem(client.get("/v1/evaluations?limit=0"), 422)
        assert error_locs(body) == ["query.limit"]


class TestCancel:
    def test_cancel_keeps_stored_results_and_stops(self, api: Api, judge: ScriptedJudge) -> None:
        key = api.new_key()
        client = api.client(key)
        judge.script(plausible_answer)
        judge.hold()
        # The hold stays: it is released after the test, once the canceled job has stopped at its
        # held call (released here, the job could make its next call before it sees the cancel).
        evaluation_id = client.post("/v1/evaluations", json=judged_body(200)).json()["id"]
        kept = 0
        if api.mode == "embedded":
            # The worker is running: exact_match results are stored while g_eval waits.
            kept = wait_for_stored(client, evaluation_id)
        response = client.post(f"/v1/evaluations/{evaluation_id}/cancel")
        assert response.status_code == 200, response.text
        assert response.json()["status"] == "canceled"
        api.run_queue()  # queued jobs see the cancel and stop
        final = client.get(f"/v1/evaluations/{evaluation_id}").json()
        assert final["status"] == "canceled"
        counts = final["result_counts"]
        # What was never scored is counted as canceled, not pending: the counts add up.
        assert (
            counts["canceled"]
            == counts["total"] - counts["passed"] - counts["failed"] - counts["errored"]
        )
        assert counts["total"] - counts["canceled"] >= kept
        assert counts["canceled"] > 0 and counts["pending"] == 0
        # Per metric too: the judged metric's unscored results were pending on a canceled
        # evaluation, and the console counted them as done ("400 / 400 results").
        for metric in final["per_metric"]:
            stored = metric["passed"] + metric["failed"] + metric["errored"]
            assert (metric["pending"], metric["skipped"]) == (0, 0), metric
            assert metric["canceled"] == 200 - stored, metric
        assert sum(m["canceled"] for m in final["per_metric"]) == counts["canceled"]
        page = signed_in(api, key).get(f"/console/evaluations/{evaluation_id}")
        stored = counts["total"] - counts["canceled"]
        assert f"{stored} / {counts['total']} results" in page.text
        assert f'<span class="n-canceled">{counts["canceled"]} canceled</span>' in page.text
        problem(client.post(f"/v1/evaluations/{evaluation_id}/cancel"), 409)

    def test_cancel_completed_is_409(self, api: Api) -> None:
        client = api.tenant_client()
        evaluation_id = client.post("/v1/evaluations", json=evaluation_body()).json()["id"]
        api.wait(client, evaluation_id)
        assert (
            "already completed"
            in problem(client.post(f"/v1/evaluations/{evaluation_id}/cancel"), 409)["detail"]
        )


class TestHealth:
    def test_healthz_and_readyz(self, api: Api) -> None:
        client = api.client()
        assert client.get("/healthz").json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json()["checks"] == {"database": "ok", "queue": "ok"}

    def test_running_evaluation_sends_retry_after(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        judge.script(plausible_answer)
        judge.hold()
        try:
            created = client.post("/v1/evaluations", json=judged_body(20))
            assert created.headers["retry-after"] == "2"
            response = client.get(f"/v1/evaluations/{created.json()['id']}")
            assert response.json()["status"] in ("queued", "in_progress")
            assert response.headers["retry-after"] == "2"
        finally:
            judge.release()
        assert api.wait(client, created.json()["id"])["status"] == "completed"


@pytest.mark.parametrize("api", ["distributed"], indirect=True)
def test_readyz_reuses_its_queue_connection(api: Api) -> None:
    """A probe every few seconds from each orchestrator opens no Redis connection each."""
    assert api.redis is not None
    client = api.client()
    client.get("/readyz")
    before = int(api.redis.info("stats")["total_connections_received"])
    for _ in range(20):
        assert client.get("/readyz").json()["checks"]["queue"] == "ok"
    # At most one: a connection the served app's own pool opened meanwhile.
    assert int(api.redis.info("stats")["total_connections_received"]) - before <= 1
