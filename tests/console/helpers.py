"""Signing in to the console over plain HTTP (the browser tests use the same pages)."""

import re

import httpx

from tests.fixtures.api import Api


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF token on the page"
    return match.group(1)


def signed_in(api: Api, key: str) -> httpx.Client:
    """A client holding a console session for `key`."""
    client = api.client()
    form = client.get("/console/sign-in")
    response = client.post(
        "/console/sign-in",
        data={"api_key": key, "csrf_token": csrf_of(form.text), "next": "/console/evaluations"},
    )
    assert response.status_code == 303, response.text
    return client
