"""A real OpenID provider on loopback: `oidc-provider-mock` (PyPI), serving discovery, JWKS and
the authorization-code flow with PKCE, in a thread on 127.0.0.1. Tests choose each user's claims
(`set_user`), then authorize them on its page (a browser) or by posting its form (`authorize`)."""

import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
import oidc_provider_mock
import werkzeug.serving

from tests.fixtures.api import Api


@dataclass
class Provider:
    issuer: str

    def set_user(self, sub: str, **claims: Any) -> None:
        response = httpx.put(f"{self.issuer}/users/{sub}", json=claims, trust_env=False)
        assert response.status_code == 204, response.text


@contextmanager
def provider(token_max_age: timedelta = timedelta(hours=1)) -> Iterator[Provider]:
    app = oidc_provider_mock.app(require_nonce=True, access_token_max_age=token_max_age)
    server = werkzeug.serving.make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield Provider(f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def settings_for(issuer: str, **overrides: Any) -> dict[str, Any]:
    """Loupe's OIDC settings for this provider: teams `ml` and `search`."""
    return {
        "oidc_issuer": issuer,
        "oidc_client_id": "loupe-console",
        "oidc_client_secret": "client-secret-never-shown",
        "oidc_role_map": {
            "ml-admins": ["ml", "admin"],
            "ml": ["ml", "member"],
            "ml-review": ["ml", "reviewer"],
            "ml-read": ["ml", "viewer"],
            "search": ["search", "viewer"],
        },
        **overrides,
    }


def sign_in(
    client: httpx.Client, sub: str, next_page: str = "/console/evaluations"
) -> httpx.Response:
    """The whole flow without a browser: Loupe's redirect to the provider, the provider's form
    posted for `sub`, and the callback; returns the callback's answer."""
    start = client.get("/console/oidc/start", params={"next": next_page})
    assert start.status_code == 303, start.text
    authorize = start.headers["location"]
    assert authorize.startswith("http://127.0.0.1:")
    with httpx.Client(trust_env=False) as browser:
        answer = browser.post(authorize, data={"sub": sub})
    assert answer.status_code == 302, answer.text
    return client.get(answer.headers["location"])


def browser(api: Api) -> httpx.Client:
    return httpx.Client(base_url=api.base_url, trust_env=False, timeout=30)


def person(idp: Provider, *groups: str) -> str:
    sub = f"p-{uuid.uuid4().hex[:8]}"
    idp.set_user(sub, email=f"{sub}@example.com", name=sub.upper(), groups=list(groups))
    return sub


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, html
    return found.group(1)


def signed_in(api: Api, idp: Provider, *groups: str) -> tuple[httpx.Client, str]:
    client = browser(api)
    sub = person(idp, *groups)
    done = sign_in(client, sub)
    assert done.status_code == 200, done.text
    assert 'http-equiv="refresh"' in done.text
    cookie = done.headers["set-cookie"]
    assert "loupe_session=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
    return client, sub
