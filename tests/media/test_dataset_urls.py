"""http(s) image URLs in an uploaded dataset go through the same SSRF-safe fetcher as
evaluation images: refused naming file, line and field under the default (strict) settings,
fetched and stored once with LOUPE_ALLOW_PRIVATE_URLS on. Servers are on 127.0.0.1 only."""

import hashlib
import json
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from app.models import Blob
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.fixtures.api import side_app as served_app
from tests.media.loopback import LoopbackServer, Route, png
from tests.runs.helpers import upload

IMAGE = png((44, 33), color="teal")


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    # The defaults: private addresses refused, no allow-list.
    with served_app(tmp_path_factory.mktemp("dataset-urls"), allow_private_urls=False) as app:
        yield app


@pytest.fixture
def server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as running:
        running.routes["/x.png"] = Route(body=IMAGE)
        yield running


def vqa_jsonl(image_url: str) -> bytes:
    rows = [
        {"messages": [{"role": "user", "content": "What colour is the sky?"}], "answer": "Blue"},
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What colour is this?"},
                        {"type": "image_url", "image_url": {"url": image_url}},
                    ],
                }
            ],
            "answer": "Teal",
        },
    ]
    return "\n".join(json.dumps(row) for row in rows).encode()


class TestDatasetImageUrls:
    def test_refused_by_default(self, strict: Api, server: LoopbackServer) -> None:
        client = strict.tenant_client()
        response = upload(client, "colours.jsonl", vqa_jsonl(server.url("/x.png")), "general_vqa")
        found = problem(response, 422)
        [error] = found["errors"]
        # File and line, then the field (the separator after the line is not pinned here).
        assert error["loc"].startswith("colours.jsonl:2")
        assert error["loc"].endswith("messages[0].content[1].image_url.url")
        assert error["type"] == "url_blocked"
        assert "LOUPE_IMAGE_ALLOW" in error["msg"]
        assert server.hits == []
        assert client.get("/v1/datasets").json()["data"] == []

    def test_fetched_and_stored_with_private_urls_allowed(
        self, api: Api, server: LoopbackServer
    ) -> None:
        client = api.tenant_client()
        response = upload(client, "colours.jsonl", vqa_jsonl(server.url("/x.png")), "general_vqa")
        assert response.status_code == 201, response.text
        assert [path for path, _ in server.hits] == ["/x.png"]
        dataset = response.json()
        rows = client.get(f"/v1/datasets/{dataset['id']}/rows").json()["data"]
        part = rows[1]["messages"][0]["content"][1]
        # A PNG within the judge's limits is kept byte for byte, so its hash is the file's.
        digest = hashlib.sha256(IMAGE).hexdigest()
        assert part["image_url"]["url"] == f"{api.base_url}/v1/media/{digest}"
        with api.served.runtime.session() as session:
            blob = session.scalars(select(Blob).where(Blob.sha256 == digest)).one()
            assert blob.size == len(IMAGE)
