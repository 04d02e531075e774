"""The statistics-and-validation audit's request findings: a threshold outside its metric's
score range, union members' names in errors, and a bad cursor named with the other query
errors."""

from typing import Any

import pytest

from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api
from tests.metrics.test_pixels import png

IMAGE_CASE = {
    "id": "a",
    "input": "q",
    "actual_output": [png("red")],
    "expected_output": [png("red")],
}


def estimate(api: Api, metrics: list[dict[str, Any]], case: dict[str, Any] = IMAGE_CASE) -> Any:
    with api.tenant_client() as client:
        return client.post(
            "/v1/evaluations/estimate", json={"test_cases": [case], "metrics": metrics}
        )


class TestThresholdInScoreRange:
    def test_psnr_threshold_over_max_db_is_refused(self, api: Api) -> None:
        # Identical images score max_db (100): a threshold of 1000 dB failed every result.
        body = problem(
            estimate(
                api,
                [
                    {"type": "psnr", "threshold": 1000},
                    {"type": "psnr", "name": "p40", "max_db": 40, "threshold": 50},
                    {"type": "ssim", "threshold": 1.5},
                ],
            ),
            422,
        )
        assert error_locs(body) == [
            "metrics[0].threshold",
            "metrics[1].threshold",
            "metrics[2].threshold",
        ]
        assert "0 to 100" in body["errors"][0]["msg"] and "0 to 40" in body["errors"][1]["msg"]
        assert estimate(api, [{"type": "psnr", "threshold": 100}]).status_code == 200

    def test_psnr_max_db_under_the_default_threshold_is_refused(self, api: Api) -> None:
        # max_db 20 with the default threshold of 30 dB was taken, and identical images
        # scored 20 and failed: no result could pass.
        body = problem(estimate(api, [{"type": "psnr", "max_db": 20}]), 422)
        assert error_locs(body) == ["metrics[0].max_db"]
        assert "30 dB" in body["errors"][0]["msg"]
        for spec in (
            {"type": "psnr", "max_db": 20, "threshold": 15},
            {"type": "psnr", "max_db": 30},
        ):
            assert estimate(api, [spec]).status_code == 200, spec

    def test_ssim_threshold_may_be_negative(self, api: Api) -> None:
        # SSIM ranges over −1..1: a threshold of −0.5 was refused ("greater than or equal
        # to 0"), and −1.5 is outside the range.
        for threshold in (-0.5, -1.0, -0.01):
            response = estimate(api, [{"type": "ssim", "threshold": threshold}])
            assert response.status_code == 200, response.text
        body = problem(estimate(api, [{"type": "ssim", "threshold": -1.5}]), 422)
        assert error_locs(body) == ["metrics[0].threshold"]


class TestUnionMembersAreNotFields:
    def test_a_test_case_id_no_member_takes_is_one_error_at_id(self, api: Api) -> None:
        # `"id": {}` was two errors, at test_cases[0].id.constrained-str and .int: pointers
        # into nothing, named after pydantic's union members.
        case = {"input": "q", "actual_output": "a", "expected_output": "a"}
        for bad in ({}, [1], 1.5):
            with api.tenant_client() as client:
                response = client.post(
                    "/v1/evaluations",
                    json={
                        "test_cases": [{**case, "id": bad}],
                        "metrics": [{"type": "exact_match"}],
                    },
                )
            body = problem(response, 422)
            [error] = body["errors"]
            assert (error["loc"], error["pointer"]) == ("test_cases[0].id", "/test_cases/0/id")
            assert error["msg"] == "must be a string or an integer"

    def test_a_member_that_takes_the_type_answers_alone(self, api: Api) -> None:
        # A string too long fails the string member; the integer member's "unable to parse
        # string as an integer" is no news to the client.
        case = {"id": "x" * 300, "input": "q", "actual_output": "a", "expected_output": "a"}
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations", json={"test_cases": [case], "metrics": [{"type": "exact_match"}]}
            )
        [error] = problem(response, 422)["errors"]
        assert error["loc"] == "test_cases[0].id" and error["type"] == "string_too_long"


class TestCursorWithTheOtherQueryFaults:
    def test_results_name_a_bad_cursor_with_the_rest(self, api: Api) -> None:
        with api.tenant_client() as client:
            created = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a"}],
                    "metrics": [{"type": "exact_match"}],
                },
            )
            path = f"/v1/evaluations/{created.json()['id']}/results"
            query = "after=zzz&limit=-1&order=bad&status=x&fragile=maybe"
            body = problem(client.get(f"{path}?{query}&metirc=a"), 400)
            assert sorted(error_locs(body)) == [
                "query.after",
                "query.fragile",
                "query.limit",
                "query.metirc",
                "query.order",
                "query.status",
            ]
            body = problem(client.get(f"{path}?{query}"), 422)
            assert "query.after" in error_locs(body) and "query.limit" in error_locs(body)
            # Alone, a cursor of the wrong shape is the 400 bad-cursor it was.
            body = problem(client.get(f"{path}?after=zzz"), 400)
            assert body["type"].endswith("/bad-cursor") and body["detail"].startswith("after: ")
            assert error_locs(body) == ["query.after"]

    @pytest.mark.parametrize(
        "path",
        [
            "/v1/evaluations",
            "/v1/alignments",
            "/v1/labels",
            "/v1/audit_events",
            "/v1/datasets",
            "/v1/webhook_endpoints",
            "/v1/runs",
            "/v1/online_rules",
            "/v1/review_queues",
            "/v1/models",
            "/v1/comparisons",
        ],
    )
    def test_every_id_cursor_joins_the_query_answer(self, api: Api, path: str) -> None:
        with api.tenant_client() as client:
            body = problem(client.get(f"{path}?after=zzz&limit=-1"), 422)
            assert sorted(error_locs(body)) == ["query.after", "query.limit"], body


class TestNoLaxCoercion:
    def test_numbers_and_booleans_must_be_json_numbers_and_booleans(self, api: Api) -> None:
        # "0.5" and true were taken as thresholds 0.5 and 1.0, "y" as an open evaluation.
        case = {"id": "a", "input": "q", "actual_output": "a", "expected_output": "a"}
        with api.tenant_client() as client:
            response = client.post(
                "/v1/evaluations",
                json={
                    "test_cases": [case],
                    "metrics": [
                        {"type": "bleu", "threshold": "0.5"},
                        {"type": "rouge", "threshold": True},
                        {"type": "exact_match", "name": "e", "strip": "yes"},
                    ],
                    "open": "y",
                    "cache": 1,
                },
            )
            body = problem(response, 422)
            assert sorted(error_locs(body)) == [
                "cache",
                "metrics[0].threshold",
                "metrics[1].threshold",
                "metrics[2].strip",
                "open",
            ]
            body = problem(
                client.post(
                    "/v1/comparisons",
                    json={"baseline_id": "evn_a", "candidate_id": "evn_b", "alpha": "0.05"},
                ),
                422,
            )
            assert error_locs(body) == ["alpha"]
            # A whole number is still a number.
            ok = estimate(api, [{"type": "bleu", "threshold": 1}], case)
            assert ok.status_code == 200, ok.text
