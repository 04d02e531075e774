"""/docs and /redoc load every asset from Loupe itself (they work offline)."""

import re

from tests.fixtures.api import Api


class TestDocs:
    def test_assets_are_served_by_loupe(self, api: Api) -> None:
        client = api.client()
        for page in ("/docs", "/redoc"):
            response = client.get(page)
            assert response.status_code == 200
            assert "script-src 'self'" in response.headers["content-security-policy"]
            urls = re.findall(r'(?:src|href|spec-url|data-spec-url)="([^"]+)"', response.text)
            assert urls, page
            for url in urls:
                if url.startswith("/") and not url.startswith("//"):
                    url = api.base_url + url
                assert url.startswith(api.base_url + "/"), url
                fetched = client.get(url)
                assert fetched.status_code == 200, url
                assert len(fetched.content) > 100, url
            assert "<script>" not in response.text  # no inline script
