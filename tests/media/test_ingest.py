"""Images through the API, in both modes: refusals name the field, each image is stored once,
and the judge receives the normalised image."""

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import func, select

from app.models import Blob
from app.models import TestCase as CaseRow
from tests.evaluations.test_endpoints import problem
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, image_parts, plausible_answer, task_of
from tests.media.loopback import LoopbackServer, Route, data_url, decode_data_url, encode, png
from tests.media.test_images import halves, png_header

EXACT = [{"type": "exact_match"}]
NOT_AN_IMAGE_URL = "must be a data:image/...;base64 URL, an http(s) URL or a blob:sha256: reference"
NOT_A_REFERENCE = "a stored image's reference is blob:sha256:<64 hex digits>"
NOT_AN_IMAGE_DATA_URL = "a data URL must be data:image/{png,jpeg,webp,gif};base64,<data>"
G_EVAL = {
    "type": "g_eval",
    "name": "looks-right",
    "evaluation_steps": ["Look at the image.", "Judge it."],
    "evaluation_params": ["actual_output"],
}


def image(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def case(**fields: Any) -> dict[str, Any]:
    return {
        "input": "What is shown?",
        "actual_output": "a picture",
        "expected_output": "a picture",
        **fields,
    }


def blob_count(api: Api, digests: set[str] | None = None) -> int:
    with api.served.runtime.session() as session:
        statement = select(func.count()).select_from(Blob)
        if digests is not None:
            statement = statement.where(Blob.sha256.in_(digests))
        return session.scalar(statement) or 0


def stored_cases(api: Api, evaluation_id: str) -> list[CaseRow]:
    with api.served.runtime.session() as session:
        return list(
            session.scalars(
                select(CaseRow)
                .where(CaseRow.evaluation_id == evaluation_id)
                .order_by(CaseRow.index)
            )
        )


def results(client: Any, evaluation_id: str) -> list[dict[str, Any]]:
    return client.get(f"/v1/evaluations/{evaluation_id}/results?limit=1000").json()["data"]


@pytest.fixture
def images_server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        yield server


class TestRefusedImages:
    def test_each_bad_image_is_named_by_its_field(self, api: Api) -> None:
        jpeg = encode(Image.new("RGB", (8, 8)), "JPEG")
        body = {
            "test_cases": [
                case(
                    input=["look", image("data:image/png;base64,@@@@")],
                    actual_output=[image(data_url(jpeg, "image/png"))],
                ),
                case(
                    expected_output=[image(data_url(b"not an image at all"))],
                    context=["fine", ["text", image(data_url(png_header(9000, 9000)))]],
                    retrieval_context=[[image(data_url(png((64, 64))[:70]))]],
                ),
            ],
            "metrics": EXACT,
        }
        client = api.tenant_client()
        found = problem(client.post("/v1/evaluations", json=body), 422)
        assert found["type"].endswith("/validation")
        assert [(e["loc"], e["type"]) for e in found["errors"]] == [
            ("test_cases[0].input[1].image_url.url", "image_base64"),
            ("test_cases[0].actual_output[0].image_url.url", "image_type_mismatch"),
            ("test_cases[1].expected_output[0].image_url.url", "image_type"),
            ("test_cases[1].context[1][1].image_url.url", "image_too_many_pixels"),
            ("test_cases[1].retrieval_context[0][0].image_url.url", "image_unreadable"),
        ]
        assert found["errors"][1]["pointer"] == "/test_cases/0/actual_output/0/image_url/url"
        assert client.get("/v1/evaluations").json()["data"] == []

    @pytest.mark.parametrize(
        ("url", "msg"),
        [
            ("file:///etc/passwd", NOT_AN_IMAGE_URL),
            ("/etc/passwd", NOT_AN_IMAGE_URL),
            ("etc/passwd", NOT_AN_IMAGE_URL),
            ("gopher://127.0.0.1:{port}/_INFO", NOT_AN_IMAGE_URL),
            ("ftp://127.0.0.1:{port}/a.png", NOT_AN_IMAGE_URL),
            # A reference names a stored image by its whole digest (app.media.own reads it).
            ("blob:sha256:" + "0" * 63, NOT_A_REFERENCE),
            ("blob:md5:" + "0" * 32, NOT_A_REFERENCE),
            ("data:image/svg+xml;base64,PHN2Zz4=", NOT_AN_IMAGE_DATA_URL),
            ("data:text/html;base64,PGI+", NOT_AN_IMAGE_DATA_URL),
            ("http://user:secret@127.0.0.1:{port}/a.png", "the URL must not carry credentials"),
            ("http:///a.png", "the URL has no host"),
        ],
    )
    def test_urls_refused_before_anything_is_read(
        self, api: Api, images_server: LoopbackServer, url: str, msg: str
    ) -> None:
        images_server.routes["/a.png"] = Route(body=png())
        url = url.format(port=images_server.port)
        body = {"test_cases": [case(actual_output=["see", image(url)])], "metrics": EXACT}
        found = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        # Refused by the request schema, before ingest could read a file or open a socket.
        assert [(e["loc"], e["type"], e["msg"]) for e in found["errors"]] == [
            ("test_cases[0].actual_output[1].image_url.url", "value_error", msg)
        ]
        assert images_server.hits == []

    def test_an_unreachable_url_fails_the_request(
        self, api: Api, images_server: LoopbackServer
    ) -> None:
        body = {
            "test_cases": [case(input=[image(images_server.url("/gone.png"))])],
            "metrics": EXACT,
        }
        found = problem(api.tenant_client().post("/v1/evaluations", json=body), 422)
        assert found["errors"][0]["loc"] == "test_cases[0].input[0].image_url.url"
        assert found["errors"][0]["type"] == "image_fetch_failed"
        assert "HTTP 404" in found["errors"][0]["msg"]


class TestStoredOnce:
    def test_the_same_image_twice_is_one_blob(
        self, api: Api, images_server: LoopbackServer
    ) -> None:
        # Unique per mode and run: the blob table is shared by every test on this server.
        picture = png((70, 50), color=f"#{abs(hash(api.mode)) % 0xFFFFFF:06x}")
        images_server.routes["/same.png"] = Route(body=picture)
        url = images_server.url("/same.png")
        body = {
            "test_cases": [
                case(actual_output=[image(data_url(picture))], expected_output=[image(url)]),
                case(actual_output=[image(url)], context=[[image(data_url(picture))]]),
                case(input=["q", image(url)], actual_output=[image(data_url(picture))]),
            ],
            "metrics": EXACT,
        }
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        final = api.wait(client, response.json()["id"])
        assert final["status"] == "completed"
        # Fetched once for the request, however many cases use the URL.
        assert [path for path, _ in images_server.hits] == ["/same.png"]

        rows = stored_cases(api, final["id"])
        refs = {
            part["image_url"]["url"]
            for row in rows
            for content in (row.input, row.actual_output, row.expected_output)
            if isinstance(content, list)
            for part in content
            if isinstance(part, dict) and part.get("type") == "image_url"
        }
        assert len(refs) == 1 and next(iter(refs)).startswith("blob:sha256:")
        digest = next(iter(refs)).removeprefix("blob:sha256:")
        assert blob_count(api, {digest}) == 1
        assert "base64" not in json.dumps([row.actual_output for row in rows])

        # Submitting it again stores nothing new.
        before = blob_count(api)
        again = client.post("/v1/evaluations", json=body)
        assert again.status_code == 202 and blob_count(api) == before
        api.wait(client, again.json()["id"])

        logs = {r["test_case_id"]: r["logs"] for r in results(client, final["id"])}
        # exact_match reads actual_output and expected_output: the context's image is not its.
        assert logs["1"]["media"] == [
            {
                "field": "actual_output[0]",
                "sha256": digest,
                "source": url,
                "original": {"format": "png", "bytes": len(picture), "width": 70, "height": 50},
                "sent": {"format": "png", "bytes": len(picture), "width": 70, "height": 50},
                "changes": [],
            },
        ]


class TestMediaPerMetric:
    def test_each_result_lists_only_the_images_its_metric_was_shown(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(plausible_answer)
        shade = abs(hash(api.mode + "per-metric")) % 0xFFFFFF
        asked, shown, source = (
            png((30 + n, 20), color=f"#{(shade + n) % 0xFFFFFF:06x}") for n in range(3)
        )
        body = {
            "test_cases": [
                case(
                    id="logo",
                    input=["Which logo?", image(data_url(asked))],
                    actual_output=["This one:", image(data_url(shown))],
                    retrieval_context=["The logo is red.", [image(data_url(source))]],
                )
            ],
            "metrics": [
                {"type": "exact_match"},
                {**G_EVAL, "name": "question", "evaluation_params": ["input"]},
                {"type": "faithfulness"},
                {**G_EVAL, "name": "no-image", "evaluation_params": ["expected_output"]},
            ],
        }
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        final = api.wait(client, response.json()["id"])
        assert final["result_counts"]["errored"] == 0, results(client, final["id"])

        fields = {
            r["metric"]: [entry["field"] for entry in r["logs"].get("media", [])]
            for r in results(client, final["id"])
        }
        assert fields == {
            "exact_match": ["actual_output[1]"],
            "question": ["input[1]"],
            "faithfulness": ["actual_output[1]", "retrieval_context[1][0]"],
            "no-image": [],
        }


class TestJudgeReceivesTheNormalisedImage:
    def test_downscaled_and_upright(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(
            lambda request: (
                {"reason": "fine", "score": 8} if task_of(request) == "g_eval_score" else {}
            )
        )
        wide = png((3000, 1000), color=f"#{abs(hash(api.mode + 'w')) % 0xFFFFFF:06x}")
        exif = Image.Exif()
        exif[0x0112] = 6
        sideways = encode(halves((40, 20), "red", "blue"), "JPEG", exif=exif.tobytes())
        body = {
            "test_cases": [
                case(id="wide", actual_output=["here", image(data_url(wide))]),
                case(id="sideways", actual_output=[image(data_url(sideways, "image/jpeg"))]),
            ],
            "metrics": [G_EVAL],
        }
        client = api.tenant_client()
        response = client.post("/v1/evaluations", json=body)
        assert response.status_code == 202, response.text
        final = api.wait(client, response.json()["id"])
        assert final["result_counts"]["errored"] == 0, results(client, final["id"])

        received = [
            decode_data_url(url)
            for call in judge.calls_for("g_eval_score")
            for url in image_parts(call)
        ]
        assert sorted((i.format, i.size) for i in received) == [
            ("JPEG", (20, 40)),
            ("PNG", (2048, 683)),
        ]
        upright = next(i for i in received if i.format == "JPEG").convert("RGB")
        assert upright.getpixel((10, 5))[0] > 200  # red on top
        for call in judge.calls_for("g_eval_score"):
            for message in call["messages"]:
                if isinstance(message["content"], list):
                    assert all(
                        set(part) <= {"type", "text", "image_url"} for part in message["content"]
                    )

        logs = {r["test_case_id"]: r["logs"]["media"] for r in results(client, final["id"])}
        assert logs["wide"][0]["original"]["width"] == 3000
        assert logs["wide"][0]["sent"]["width"] == 2048
        assert logs["wide"][0]["changes"] == ["downscaled"]
        assert logs["sideways"][0]["changes"] == ["exif_orientation"]
        assert logs["sideways"][0]["sent"]["height"] == 40
        assert Image.open(io.BytesIO(sideways)).size == (40, 20)
