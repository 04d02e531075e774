"""GET /v1/media/{sha256}: only for media the caller's own rows reference."""

import hashlib
import io
import json

from PIL import Image

from tests.evaluations.test_reading import image, png
from tests.fixtures.api import Api


def digest_in(case: dict) -> str:
    return case["input"][1]["image_url"]["url"].rsplit("/", 1)[1]


def submit_image(api: Api, client, color: str) -> str:
    response = client.post(
        "/v1/evaluations",
        json={
            "test_cases": [
                {
                    "input": ["Which colour?", image(png(color, (6, 6)))],
                    "actual_output": color,
                    "expected_output": color,
                }
            ],
            "metrics": [{"type": "exact_match"}],
        },
    )
    assert response.status_code == 202, response.text
    evaluation_id = response.json()["id"]
    api.wait(client, evaluation_id)
    (case,) = client.get(f"/v1/evaluations/{evaluation_id}/test_cases").json()["data"]
    return digest_in(case)


class TestMedia:
    def test_cacheable_with_etag(self, api: Api) -> None:
        client = api.tenant_client()
        digest = submit_image(api, client, "orange")
        response = client.get(f"/v1/media/{digest}")
        assert response.status_code == 200
        assert hashlib.sha256(response.content).hexdigest() == digest
        assert Image.open(io.BytesIO(response.content)).size == (6, 6)
        assert response.headers["etag"] == f'"{digest}"'
        assert "max-age=" in response.headers["cache-control"]
        assert "private" in response.headers["cache-control"]
        again = client.get(f"/v1/media/{digest}", headers={"If-None-Match": f'"{digest}"'})
        assert again.status_code == 304 and again.content == b""

    def test_if_none_match_compares_weakly_and_takes_a_star(self, api: Api) -> None:
        client = api.tenant_client()
        digest = submit_image(api, client, "teal")
        other = "0" * 64
        for sent, status in (
            (f'W/"{digest}"', 304),  # weak comparison: W/ is ignored
            (f'"{other}", W/"{digest}"', 304),
            ("*", 304),  # any current representation
            (f'W/"{other}"', 200),
            (f'"{digest[:-1]}"', 200),
        ):
            response = client.get(f"/v1/media/{digest}", headers={"If-None-Match": sent})
            assert response.status_code == status, sent
            assert response.headers["etag"] == f'"{digest}"'
        # Still no answer about a blob the tenant does not reference, whatever the header says.
        stranger = api.tenant_client()
        refused = stranger.get(f"/v1/media/{digest}", headers={"If-None-Match": "*"})
        assert refused.status_code == 404

    def test_another_tenants_blob_is_404_even_when_shared(self, api: Api) -> None:
        owner, stranger = api.tenant_client(), api.tenant_client()
        digest = submit_image(api, owner, "purple")
        # Knowing the hash is not enough, and a 404 says no more than for a made-up hash.
        missing = stranger.get(f"/v1/media/{digest}")
        made_up = stranger.get(f"/v1/media/{'0' * 64}")
        assert missing.status_code == made_up.status_code == 404
        assert missing.headers["content-type"] == "application/problem+json"
        assert json.loads(missing.text)["title"] == json.loads(made_up.text)["title"]
        # Once the stranger submits the same image, its own row references the blob.
        assert submit_image(api, stranger, "purple") == digest
        assert stranger.get(f"/v1/media/{digest}").status_code == 200

    def test_needs_a_key(self, api: Api) -> None:
        assert api.client().get(f"/v1/media/{'0' * 64}").status_code == 401

    def test_dataset_media_are_the_uploaders(self, api: Api) -> None:
        owner, stranger = api.tenant_client(), api.tenant_client()
        row = {
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "q"}, image(png("teal"))]}
            ],
            "answer": "teal",
        }
        response = owner.post(
            "/v1/datasets",
            files={"file": ("rows.jsonl", json.dumps(row).encode(), "application/jsonl")},
            data={"format": "general_vqa"},
        )
        assert response.status_code == 201, response.text
        (stored,) = owner.get(f"/v1/datasets/{response.json()['id']}/rows").json()["data"]
        url = stored["messages"][0]["content"][1]["image_url"]["url"]
        digest = url.rsplit("/", 1)[1]
        assert owner.get(f"/v1/media/{digest}").status_code == 200
        assert stranger.get(f"/v1/media/{digest}").status_code == 404
