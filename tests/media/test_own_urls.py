"""This server's own `/v1/media/<sha256>` URLs in a submission: read from the blob store, never
fetched, and only for the tenant whose rows reference the blob."""

import base64
import hashlib
import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.media.loopback import data_url, png
from tests.media.test_dataset_urls import vqa_jsonl
from tests.media.test_ingest import G_EVAL, case, image
from tests.runs.helpers import upload

MEDIA_FIELD = "test_cases[0].actual_output[1].image_url.url"


def unique_png() -> bytes:
    """A PNG no other test stored (blobs are shared by every test on a server)."""
    seed = uuid.uuid4().int
    return png((7, 5), color=f"#{seed % 0xFFFFFF:06x}")


def read_back(api: Api, client: httpx.Client, picture: bytes) -> dict[str, Any]:
    """A test case with `picture` in its actual output, submitted and read back."""
    body = {
        "test_cases": [case(id="seen", actual_output=["here:", image(data_url(picture))])],
        "metrics": [{"type": "exact_match"}],
    }
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    evaluation_id = response.json()["id"]
    api.wait(client, evaluation_id)
    (read,) = client.get(f"/v1/evaluations/{evaluation_id}/test_cases").json()["data"]
    return read


def media_url(read: dict[str, Any]) -> str:
    return read["actual_output"][1]["image_url"]["url"]


def g_eval_scores(request: dict) -> dict:
    return {"reason": "fine", "score": 8} if task_of(request) == "g_eval_score" else {}


class TestReadBackCaseSubmittedAgain:
    def test_the_judge_receives_the_same_image(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(g_eval_scores)
        client = api.tenant_client()
        picture = unique_png()
        read = read_back(api, client, picture)
        digest = hashlib.sha256(picture).hexdigest()
        assert media_url(read) == f"{api.base_url}/v1/media/{digest}"

        # Exactly as it reads: `object`, `index`, its nulls and the image part's `blob`.
        assert read["object"] == "evaluation.test_case" and read["index"] == 0
        response = client.post("/v1/evaluations", json={"test_cases": [read], "metrics": [G_EVAL]})
        assert response.status_code == 202, response.text
        final = api.wait(client, response.json()["id"])
        assert final["result_counts"]["errored"] == 0
        sent = [
            base64.b64decode(url.split(",", 1)[1])
            for call in judge.calls_for("g_eval_score")
            for url in image_parts(call)
        ]
        assert sent == [picture]
        (again,) = client.get(f"/v1/evaluations/{final['id']}/test_cases").json()["data"]
        assert media_url(again) == media_url(read)

    def test_a_body_failing_its_schema_has_its_own_urls_read_too(self, api: Api) -> None:
        client = api.tenant_client()
        read = read_back(api, client, unique_png())
        body = {
            "test_cases": [read, {**read, "id": ["not", "an id"]}],
            "metrics": [{"type": "exact_match"}],
        }
        found = problem(client.post("/v1/evaluations", json=body), 422)
        # Only the schema's error: the second case's image, checked all the same, is fine.
        assert [e["loc"] for e in found["errors"]] == ["test_cases[1].id"]

    def test_another_tenants_media_reads_as_an_unknown_one(self, api: Api) -> None:
        owner = api.tenant_client()
        read = read_back(api, owner, unique_png())
        unknown = f"{api.base_url}/v1/media/{hashlib.sha256(uuid.uuid4().bytes).hexdigest()}"
        other = api.tenant_client()

        answers = []
        for url in (media_url(read), unknown):
            submitted = case(actual_output=["here:", image(url)])
            body = {"test_cases": [submitted], "metrics": [{"type": "exact_match"}]}
            found = problem(other.post("/v1/evaluations", json=body), 422)
            (error,) = found["errors"]
            assert error["loc"] == MEDIA_FIELD
            assert error["type"] == "media_not_found"
            digest = url.rsplit("/", 1)[1]
            assert digest in error["msg"]
            # The same answer but for the digest it names.
            answers.append(re.sub(r"[0-9a-f]{16,}", "<sha256>", json.dumps(found)))
        assert answers[0] == answers[1]
        assert other.get("/v1/evaluations").json()["data"] == []

    def test_an_unknown_digest_names_the_field(self, api: Api) -> None:
        digest = "0" * 64
        body = {
            "test_cases": [
                case(actual_output=["here:", image(f"{api.base_url}/v1/media/{digest}")])
            ],
            "metrics": [{"type": "exact_match"}],
        }
        found = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        assert [(e["loc"], e["type"]) for e in found["errors"]] == [
            (MEDIA_FIELD, "media_not_found")
        ]


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An app whose address policy refuses loopback, as a deployment's does."""
    with side_app(Path(tmp_path_factory.mktemp("own-media")), allow_private_urls=False) as app:
        yield app


class TestOtherHosts:
    @pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{other}"])
    def test_the_same_path_elsewhere_is_fetched_under_the_policy(
        self, strict: Api, host: str
    ) -> None:
        client = strict.tenant_client()
        read = read_back(strict, client, unique_png())
        own = media_url(read)
        port = httpx.URL(strict.base_url).port
        elsewhere = httpx.URL(own).copy_with(netloc=host.format(port=port, other=port + 1).encode())
        twice = {**read, "input": ["look:", image(str(elsewhere))]}
        found = problem(
            client.post("/v1/evaluations", json={"test_cases": [twice], "metrics": [G_EVAL]}), 422
        )
        # This server's own URL is read from the store; the other host's is refused by the
        # address policy before any connection.
        assert [(e["loc"], e["type"]) for e in found["errors"]] == [
            ("test_cases[0].input[1].image_url.url", "url_blocked")
        ]


class TestDatasetRows:
    def test_a_dataset_row_may_name_this_servers_media(self, strict: Api) -> None:
        client = strict.tenant_client()
        picture = unique_png()
        read = read_back(strict, client, picture)
        response = upload(client, "seen.jsonl", vqa_jsonl(media_url(read)), "general_vqa")
        assert response.status_code == 201, response.text
        rows = client.get(f"/v1/datasets/{response.json()['id']}/rows").json()["data"]
        part = rows[1]["messages"][0]["content"][1]
        assert part["image_url"]["url"] == media_url(read)

    def test_another_tenants_media_is_refused_naming_the_line(self, strict: Api) -> None:
        read = read_back(strict, strict.tenant_client(), unique_png())
        response = upload(
            strict.tenant_client(), "seen.jsonl", vqa_jsonl(media_url(read)), "general_vqa"
        )
        [error] = problem(response, 422)["errors"]
        assert error["loc"].startswith("seen.jsonl:2")
        assert error["loc"].endswith("messages[0].content[1].image_url.url")
        assert error["type"] == "media_not_found"
