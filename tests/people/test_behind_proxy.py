"""`loupe serve` behind a proxy that ends TLS (docs/teams.md, docs/kubernetes.md): the OIDC
redirect URI is `https://`, and the sign-in's cookie Secure, only when LOUPE_FORWARDED_ALLOW_IPS
names the proxy."""

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.fixtures.services import free_port
from tests.people.provider import Provider, provider, settings_for

LOUPE = Path(sys.executable).with_name("loupe")
# What a TLS-ending proxy in front of Loupe adds to every request it passes on.
PROXIED = {"Host": "loupe.example", "X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.8"}


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@contextmanager
def serving(tmp_path: Path, idp: Provider, **variables: str) -> Iterator[str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("LOUPE_")}
    for name, value in settings_for(idp.issuer).items():
        env[f"LOUPE_{name.upper()}"] = value if isinstance(value, str) else json.dumps(value)
    port = free_port()
    env |= {
        "LOUPE_DATABASE_URL": f"sqlite:///{tmp_path}/loupe.db",
        "LOUPE_PORT": str(port),
        "LOUPE_OIDC_ALLOW": "127.0.0.1",
        **variables,
    }
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


def sign_in_start(base: str) -> tuple[str, bool]:
    """When a sign-in starts through the proxy: the redirect URI Loupe sends the provider, and
    whether the sign-in's cookie is marked Secure."""
    start = httpx.get(f"{base}/console/oidc/start", headers=PROXIED, trust_env=False)
    assert start.status_code == 303, start.text
    uri = parse_qs(urlsplit(start.headers["location"]).query)["redirect_uri"][0]
    return uri, "secure" in start.headers["set-cookie"].lower().split("; ")


class TestBehindAProxy:
    def test_a_named_proxy_gives_the_https_redirect_uri(
        self, tmp_path: Path, idp: Provider
    ) -> None:
        with serving(tmp_path, idp, LOUPE_FORWARDED_ALLOW_IPS="127.0.0.1") as base:
            assert sign_in_start(base) == ("https://loupe.example/console/oidc/callback", True)

    def test_an_unnamed_proxy_gives_http(self, tmp_path: Path, idp: Provider) -> None:
        with serving(tmp_path, idp) as base:
            assert sign_in_start(base) == ("http://loupe.example/console/oidc/callback", False)
