"""Requests without a valid API key are throttled per client address: after
LOUPE_AUTH_FAILURE_LIMIT of them in a window the address gets 429 with Retry-After, while a
valid key is still accepted; in distributed mode every API process shares the count (Redis).

Windows of a day: the count cannot roll over between a test's requests (short of midnight UTC).
"""

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest

from tests.console.helpers import csrf_of
from tests.fixtures.api import Api, postgres_settings, served_api, side_app
from tests.fixtures.services import PostgresServer, RedisServer, free_port

LOUPE = Path(sys.executable).with_name("loupe")

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

    def test_every_operation_documents_the_throttle_and_an_outage(
        self, apps: tuple[Api, Api]
    ) -> None:
        """Any /v1 route answers 429 to a throttled address (and 503 while the database or
        Redis is away): its OpenAPI responses say so, for typed SDK errors and fuzzers."""
        api, _ = apps
        bad = api.client("lp_" + "w" * 43)
        for _ in range(LIMIT):
            bad.delete("/v1/datasets/ds_x")
        assert_throttled(bad.delete("/v1/datasets/ds_x"))
        spec = api.client().get("/openapi.json").json()
        undocumented = [
            f"{method.upper()} {path} {status}"
            for path, item in spec["paths"].items()
            if path.startswith("/v1/")
            for method, operation in item.items()
            for status in ("401", "429", "503")
            if status not in operation["responses"]
        ]
        assert undocumented == []


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


class TestForwardedAddresses:
    """`loupe serve` believes X-Forwarded-For only from LOUPE_FORWARDED_ALLOW_IPS."""

    @contextmanager
    def serve(self, tmp_path: Path, **variables: str) -> Iterator[str]:
        env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
        port = free_port()
        env.update(
            LOUPE_DATABASE_URL=f"sqlite:///{tmp_path}/loupe.db",
            LOUPE_PORT=str(port),
            LOUPE_AUTH_FAILURE_LIMIT=str(LIMIT),
            LOUPE_AUTH_FAILURE_WINDOW_SECONDS=str(DAY),
            **variables,
        )
        process = subprocess.Popen(
            [str(LOUPE), "serve"],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                try:
                    httpx.get(f"{base}/healthz", trust_env=False)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            process.wait(timeout=30)

    def bad_keys_from(self, base: str, addresses: list[str]) -> list[int]:
        return [
            httpx.get(
                f"{base}/v1/evaluations",
                headers={"Authorization": "Bearer nope", "X-Forwarded-For": address},
                trust_env=False,
            ).status_code
            for address in addresses
        ]

    def test_a_client_cannot_choose_its_address_by_default(self, tmp_path: Path) -> None:
        # Every request names another address; none of them is believed, so the peer's own
        # address (127.0.0.1) is counted and throttled.
        with self.serve(tmp_path) as base:
            statuses = self.bad_keys_from(base, [f"203.0.113.{i}" for i in range(5)])
        assert statuses == [401, 401, 401, 429, 429]

    def test_a_named_proxy_is_believed(self, tmp_path: Path) -> None:
        with self.serve(tmp_path, LOUPE_FORWARDED_ALLOW_IPS="127.0.0.1") as base:
            statuses = self.bad_keys_from(base, [f"203.0.113.{i}" for i in range(5)])
            # The same forwarded address is counted as one client.
            again = self.bad_keys_from(base, ["198.51.100.7"] * 4)
        assert statuses == [401] * 5
        assert again == [401, 401, 401, 429]
