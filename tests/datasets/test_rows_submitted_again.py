"""Dataset rows read back are submittable as they read: their media come back as this server's
`/v1/media/<sha256>` URLs (as test cases' do), which an upload and a submission read from the
store, the tenant's own blobs only; a `blob:sha256:` reference, as rows read before, is taken
the same way. Another tenant's digest is refused in the words an unknown one is."""

import hashlib
import io
import json
import random
import re
import uuid
import wave
from typing import Any

import httpx
import pytest

from tests.datasets.test_endpoints import ask, audio, data_url, image, jsonl, rows_of
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.media.test_own_urls import unique_png
from tests.runs.helpers import upload

IMAGE_FIELD = "messages[0].content[1].image_url.url"


def unique_wav() -> bytes:
    """A short WAV no other test stored."""
    noise = random.Random(uuid.uuid4().int)
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as clip:
        clip.setnchannels(1)
        clip.setsampwidth(2)
        clip.setframerate(8000)
        clip.writeframes(bytes(noise.randrange(256) for _ in range(1600)))
    return buffer.getvalue()


def uploaded(client: httpx.Client, *rows: dict[str, Any]) -> str:
    """A general_vqa dataset of these rows; its id."""
    response = upload(client, "rows.jsonl", jsonl(*rows), "general_vqa")
    assert response.status_code == 201, response.text
    return response.json()["id"]


def media_url(api: Api, digest: str) -> str:
    return f"{api.base_url}/v1/media/{digest}"


def as_uploaded(row: dict[str, Any]) -> dict[str, Any]:
    """A row read back, as a general_vqa line: its messages and answer as they read."""
    return {"messages": row["messages"], "answer": row["answer"]}


def evaluated_input(api: Api, client: httpx.Client, content: Any) -> list[Any]:
    """`content` submitted as a test case's input and read back once judged."""
    body = {
        "test_cases": [{"input": content, "actual_output": "Teal", "expected_output": "Teal"}],
        "metrics": [{"type": "exact_match"}],
    }
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    assert final["result_counts"]["errored"] == 0
    (case,) = client.get(f"/v1/evaluations/{final['id']}/test_cases").json()["data"]
    return case["input"]


def comparable(found: dict[str, Any]) -> str:
    """A problem with its digests and ids blanked: what else it says."""
    return re.sub(r"[0-9a-f]{16,}", "<sha256>", json.dumps(found, sort_keys=True))


class TestRowsReadBack:
    def test_an_image_row_is_uploaded_again_as_it_reads(self, api: Api) -> None:
        client = api.tenant_client()
        picture = unique_png()
        digest = hashlib.sha256(picture).hexdigest()
        first = uploaded(client, ask(image(data_url(picture, "image/png"))))
        [row] = rows_of(client, first)
        part = row["messages"][0]["content"][1]
        # A media URL like a test case's, readable with the tenant's key.
        assert part["image_url"]["url"] == media_url(api, digest)
        assert client.get(part["image_url"]["url"]).content == picture

        [read_again] = rows_of(client, uploaded(client, as_uploaded(row)))
        again = read_again["messages"][0]["content"][1]
        assert again["image_url"] == part["image_url"]
        # Where it came from this time: this server's media URL, read from the store.
        assert again["blob"]["source"] == media_url(api, digest)

    def test_an_image_row_is_a_test_cases_input_as_it_reads(self, api: Api) -> None:
        client = api.tenant_client()
        picture = unique_png()
        [row] = rows_of(client, uploaded(client, ask(image(data_url(picture, "image/png")))))
        content = row["messages"][0]["content"]
        stored = evaluated_input(api, client, content)
        assert stored[1]["image_url"]["url"] == media_url(api, hashlib.sha256(picture).hexdigest())

    def test_an_audio_row_is_uploaded_again_as_it_reads(self, api: Api) -> None:
        client = api.tenant_client()
        clip = unique_wav()
        [row] = rows_of(client, uploaded(client, ask(audio(data_url(clip, "audio/wav")))))
        sound = row["messages"][0]["content"][1]["input_audio"]
        assert sound == {"format": "wav", "url": media_url(api, hashlib.sha256(clip).hexdigest())}

        [read_again] = rows_of(client, uploaded(client, as_uploaded(row)))
        assert read_again["messages"] == row["messages"]


class TestStoredReferences:
    def test_the_tenants_own_reference_is_read_from_the_store(self, api: Api) -> None:
        client = api.tenant_client()
        picture = unique_png()
        digest = hashlib.sha256(picture).hexdigest()
        uploaded(client, ask(image(data_url(picture, "image/png"))))
        reference = f"blob:sha256:{digest}"

        stored = evaluated_input(api, client, ["Which colour?", image(reference)])
        assert stored[1]["image_url"]["url"] == media_url(api, digest)
        [row] = rows_of(client, uploaded(client, ask(image(reference))))
        assert row["messages"][0]["content"][1]["image_url"]["url"] == media_url(api, digest)


class TestAnotherTenantsMedia:
    @pytest.mark.parametrize("form", ["url", "reference"])
    def test_a_submission_naming_it_reads_as_an_unknown_digest(self, api: Api, form: str) -> None:
        owner = api.tenant_client()
        [row] = rows_of(owner, uploaded(owner, ask(image(data_url(unique_png(), "image/png")))))
        held = row["messages"][0]["content"][1]["image_url"]["url"].rsplit("/", 1)[1]
        nobodys = hashlib.sha256(uuid.uuid4().bytes).hexdigest()
        other = api.tenant_client()

        def named(digest: str) -> str:
            return media_url(api, digest) if form == "url" else f"blob:sha256:{digest}"

        answers = []
        for digest in (held, nobodys):
            body = {
                "test_cases": [
                    {
                        "input": ["Which colour?", image(named(digest))],
                        "actual_output": "Teal",
                        "expected_output": "Teal",
                    }
                ],
                "metrics": [{"type": "exact_match"}],
            }
            found = problem(other.post("/v1/evaluations", json=body), 422)
            [error] = found["errors"]
            assert error["loc"] == "test_cases[0].input[1].image_url.url"
            assert error["type"] == "media_not_found" and digest in error["msg"]
            answers.append(comparable(found))
        assert answers[0] == answers[1]
        assert other.get("/v1/evaluations").json()["data"] == []
        assert other.get(f"/v1/media/{held}").status_code == 404

    @pytest.mark.parametrize("form", ["url", "reference"])
    def test_an_upload_naming_it_reads_as_an_unknown_digest(self, api: Api, form: str) -> None:
        owner = api.tenant_client()
        [row] = rows_of(owner, uploaded(owner, ask(image(data_url(unique_png(), "image/png")))))
        held = row["messages"][0]["content"][1]["image_url"]["url"].rsplit("/", 1)[1]
        nobodys = hashlib.sha256(uuid.uuid4().bytes).hexdigest()
        other = api.tenant_client()

        answers = []
        for digest in (held, nobodys):
            url = media_url(api, digest) if form == "url" else f"blob:sha256:{digest}"
            response = upload(other, "rows.jsonl", jsonl(ask(image(url))), "general_vqa")
            found = problem(response, 422)
            [error] = found["errors"]
            assert error["loc"].startswith("rows.jsonl:1")
            assert error["loc"].endswith(IMAGE_FIELD)
            assert error["type"] == "media_not_found" and digest in error["msg"]
            answers.append(comparable(found))
        assert answers[0] == answers[1]
        assert other.get("/v1/datasets").json()["data"] == []
