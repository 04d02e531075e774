"""/docs and /redoc load every asset from Loupe itself (they work offline), by root-relative
addresses, with the same security headers as the console's pages."""

import re

import pytest

from tests.fixtures.api import Api

ADDRESSES = re.compile(r'(?:src|href|spec-url|data-spec-url)="([^"]+)"')


class TestDocs:
    def test_assets_are_served_by_loupe(self, api: Api) -> None:
        client = api.client()
        for page in ("/docs", "/redoc"):
            response = client.get(page)
            assert response.status_code == 200
            assert "script-src 'self'" in response.headers["content-security-policy"]
            urls = ADDRESSES.findall(response.text)
            assert urls, page
            for url in urls:
                assert url.startswith("/") and not url.startswith("//"), url
                fetched = client.get(url)
                assert fetched.status_code == 200, url
                assert len(fetched.content) > 100, url
            assert "<script>" not in response.text  # no inline script

    def test_security_headers_as_on_console_pages(self, api: Api) -> None:
        client = api.client()
        console = client.get("/console/sign-in").headers
        for page in ("/docs", "/redoc"):
            headers = client.get(page).headers
            for name in ("x-content-type-options", "x-frame-options", "referrer-policy"):
                assert headers[name] == console[name], (page, name)
            assert "frame-ancestors 'none'" in headers["content-security-policy"]


class TestBehindAProxy:
    @pytest.mark.parametrize("page", ["/docs", "/redoc", "/console/sign-in"])
    def test_addresses_do_not_depend_on_the_host_header(self, api: Api, page: str) -> None:
        # A proxy that passes neither Host nor scheme: Loupe sees its own internal name.
        response = api.client().get(page, headers={"Host": "loupe-internal:8000"})
        assert response.status_code == 200
        assert "loupe-internal" not in response.text
        for url in ADDRESSES.findall(response.text):
            assert url.startswith("/") and not url.startswith("//"), url
