"""Requests without a valid API key are throttled per client address: after
LOUPE_AUTH_FAILURE_LIMIT of them in a window the address gets 429 with Retry-After, while a
valid key is still accepted; in distributed mode every API process shares the count (Redis).

Windows of a day: the count cannot roll over between a test's requests (short of midnight UTC).
"""

import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from tests.console.helpers import csrf_of
from tests.fixtures.api import Api, postgres_settings, served_api, side_app
from tests.fixtures.services import PostgresServer, RedisServer

LIMIT = 3
DAY = 24 * 3600
THROTTLED = {"auth_failure_limit": LIMIT, "auth_failure_window_seconds": DAY}


def assert_throttled(response: httpx.Response) -> None:
    assert response.status_code == 429, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert 1 <= int(response.headers["retry-after"]) <= DAY
    problem = response.json()
    assert problem["type"].endswith("/auth-throttled")
    assert "127.0.0.1" in problem["detail"] and "valid key is still accepted" in problem["detail"]
    assert [error["loc"] for error in problem["errors"]] == ["header.Authorization"]


@pytest.fixture(params=["embedded", "distributed"])
def apps(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Api, Api]]:
    """Two API processes on one database (and, distributed, one Redis) with the throttle on."""
    with ExitStack() as stack:
        if request.param == "embedded":
            first = stack.enter_context(side_app(tmp_path, **THROTTLED))
            second = stack.enter_context(side_app(tmp_path, **THROTTLED))
        else:
            postgres: PostgresServer = request.getfixturevalue("postgres_server")
            redis: RedisServer = request.getfixturevalue("redis_server")
            settings = postgres_settings(postgres, redis, **THROTTLED)
            first = stack.enter_context(served_api(settings))
            second = stack.enter_context(served_api(settings))
        yield first, second


class TestBadKeys:
    def test_failures_past_the_limit_are_429_and_a_valid_key_still_works(
        self, apps: tuple[Api, Api]
    ) -> None:
        api, other = apps
        good = api.new_key()
        bad = api.client("lp_" + "x" * 43)
        for _ in range(LIMIT):
            assert bad.get("/v1/evaluations").status_code == 401
        assert_throttled(bad.get("/v1/evaluations"))
        # No key, another scheme, a key not of Loupe's form: refused the same way.
        assert_throttled(api.client().get("/v1/evaluations"))
        assert_throttled(
            api.client().get("/v1/evaluations", headers={"Authorization": "Basic eDp5"})
        )
        assert_throttled(api.client("not-a-loupe-key").get("/v1/evaluations"))
        # Only failures count: the tenant sharing the address is not locked out.
        assert api.client(good).get("/v1/evaluations").status_code == 200
        assert other.client(good).get("/v1/evaluations").status_code == 200
        if api.mode == "distributed":
            # The count is shared through Redis: the other process throttles too.
            assert_throttled(other.client("lp_" + "y" * 43).get("/v1/evaluations"))
        else:
            # Embedded mode is one process; another app counts its own failures.
            assert other.client("lp_" + "y" * 43).get("/v1/evaluations").status_code == 401

    def test_the_openai_routes_are_throttled_too(self, apps: tuple[Api, Api]) -> None:
        api, _ = apps
        bad = api.client("lp_" + "z" * 43)
        for _ in range(LIMIT):
            assert bad.get("/v1/evals").status_code == 401
        response = bad.get("/v1/evals")
        assert response.status_code == 429, response.text
        assert int(response.headers["retry-after"]) >= 1


class TestConsoleSignIn:
    def test_failed_sign_ins_are_throttled_and_a_valid_key_still_signs_in(
        self, tmp_path: Path
    ) -> None:
        with side_app(tmp_path, **THROTTLED) as api:
            client = api.client()

            def attempt(key: str) -> httpx.Response:
                form = client.get("/console/sign-in")
                return client.post(
                    "/console/sign-in", data={"api_key": key, "csrf_token": csrf_of(form.text)}
                )

            for _ in range(LIMIT):
                assert attempt("lp_nope").status_code == 401
            refused = attempt("lp_nope")
            assert refused.status_code == 429
            assert 1 <= int(refused.headers["retry-after"]) <= DAY
            assert re.search(r"Too many failed sign-ins from your address", refused.text)
            # The API counts the same failures: its bad keys are throttled as well.
            assert_throttled(api.client().get("/v1/evaluations"))
            assert attempt(api.new_key()).status_code == 303
