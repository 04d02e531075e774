"""Dataset uploads through the HTTP API: the EvalScope examples, media of every kind, listing,
rows, errors."""

import base64
import io
import json
import zipfile
from collections.abc import Iterator

import pytest

from tests.fixtures.api import Api, side_app
from tests.media.loopback import LoopbackServer, Route
from tests.runs.helpers import EXAMPLES, MP3, example_zip, upload

PNG = (EXAMPLES / "vqa" / "images" / "red_circle.png").read_bytes()
WAV = (EXAMPLES / "audio" / "beep_440hz.wav").read_bytes()


def data_url(content: bytes, media_type: str) -> str:
    return f"data:{media_type};base64,{base64.b64encode(content).decode()}"


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def jsonl(*rows: dict) -> bytes:
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode()


def ask(*parts: dict) -> dict:
    return {"messages": [{"role": "user", "content": [{"type": "text", "text": "q"}, *parts]}]}


def audio(data: str, audio_format: str | None = None) -> dict:
    clip = {"data": data} | ({"format": audio_format} if audio_format else {})
    return {"type": "input_audio", "input_audio": clip}


def image(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def rows_of(client, dataset_id: str) -> list[dict]:
    return client.get(f"/v1/datasets/{dataset_id}/rows").json()["data"]


def only_error(response) -> dict:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    (error,) = response.json()["errors"]
    return error


@pytest.fixture(scope="module")
def media_server() -> Iterator[LoopbackServer]:
    with LoopbackServer() as server:
        server.routes = {
            "/red.png": Route(body=PNG),
            "/beep.wav": Route(body=WAV, content_type="audio/wav"),
        }
        yield server


class TestUpload:
    def test_vqa_zip_with_media(self, api: Api) -> None:
        client = api.tenant_client()
        data = example_zip("vqa/example_vqa.jsonl", "vqa/example_vqa_tsv.tsv")
        response = upload(client, "vqa.zip", data, "general_vqa")
        assert response.status_code == 201, response.text
        dataset = response.json()
        assert dataset["row_count"] == 7
        assert {(s["name"], s["rows"]) for s in dataset["subsets"]} == {
            ("example_vqa", 5),
            ("example_vqa_tsv", 2),
        }
        assert client.get(f"/v1/datasets/{dataset['id']}").json() == dataset
        assert dataset["id"] in [d["id"] for d in client.get("/v1/datasets").json()["data"]]

        rows = client.get(
            f"/v1/datasets/{dataset['id']}/rows", params={"subset": "example_vqa"}
        ).json()["data"]
        assert [row["index"] for row in rows] == [0, 1, 2, 3, 4]
        assert rows[0]["answer"] == "A circle"
        parts = [p for m in rows[3]["messages"] for p in m["content"] if isinstance(p, dict)]
        audio = [p for p in parts if p["type"] == "input_audio"]
        images = [p for p in parts if p["type"] == "image_url"]
        # Media are stored once and named by this server's media URLs; no bytes in rows.
        media = f"{api.base_url}/v1/media/"
        assert audio[0]["input_audio"]["url"].startswith(media)
        assert audio[0]["input_audio"]["format"] == "wav"
        assert images[0]["image_url"]["url"].startswith(media)
        # The same red circle is used by rows 0 and 3: one blob.
        first = rows[0]["messages"][0]["content"][1]["image_url"]["url"]
        assert first == images[0]["image_url"]["url"]
        # Placeholder row: the image went in place of `<image 1>`.
        placeholder = rows[4]["messages"][0]["content"]
        assert placeholder[0]["type"] == "image_url" and placeholder[1]["type"] == "text"

        page = client.get(f"/v1/datasets/{dataset['id']}/rows", params={"limit": 3}).json()
        assert page["has_more"] and len(page["data"]) == 3
        rest = client.get(
            f"/v1/datasets/{dataset['id']}/rows", params={"after": page["last_id"]}
        ).json()
        assert len(rest["data"]) == 4 and not rest["has_more"]

    def test_vmcq_jsonl_without_zip(self, api: Api) -> None:
        # Every media reference in a row but the first two is a data URL; paths need the zip.
        client = api.tenant_client()
        lines = (EXAMPLES / "vmcq" / "example_vmcq.jsonl").read_text().splitlines()
        data = "\n".join(line for line in lines if "vmcq/images" not in line).encode()
        response = upload(client, "mcq_val.jsonl", data, "general_vmcq")
        assert response.status_code == 201, response.text
        assert response.json()["subsets"][0]["name"] == "mcq"

    def test_missing_placeholder_image_is_a_warning(self, api: Api) -> None:
        client = api.tenant_client()
        row = {"question": "<image 1> or <image 2>?", "options": ["x", "y"], "answer": "A"}
        row["image_1"] = json.loads(
            (EXAMPLES / "vmcq" / "example_vmcq.jsonl").read_text().splitlines()[3]
        )["image_1"]
        response = upload(client, "w.jsonl", json.dumps(row).encode(), "general_vmcq")
        assert response.status_code == 201, response.text
        warnings = response.json()["subsets"][0]["warnings"]
        assert len(warnings) == 1 and "image 2" in warnings[0].replace("_", " ")

    def test_jsonl_line_ends_and_padding_as_evalscope_reads_them(self, api: Api) -> None:
        # EvalScope reads JSONL in text mode (CR, LF and CRLF end lines) and strips each line.
        client = api.tenant_client()
        rows = [json.dumps({"messages": [{"role": "user", "content": f"q{n}"}]}) for n in range(4)]
        data = f"{rows[0]}\r{rows[1]}\u00a0\r\n\r{rows[2]}\n\t{rows[3]}\r".encode()
        response = upload(client, "old_mac.jsonl", data, "general_vqa")
        assert response.status_code == 201, response.text
        dataset = response.json()
        assert dataset["row_count"] == 4
        stored = client.get(f"/v1/datasets/{dataset['id']}/rows").json()["data"]
        assert [row["messages"][0]["content"] for row in stored] == ["q0", "q1", "q2", "q3"]
        assert [row["line"] for row in stored] == [1, 2, 4, 5]
        # A bad line is named by the line an editor shows it on.
        response = upload(client, "old_mac.jsonl", f"{rows[0]}\r{{oops\r".encode(), "general_vqa")
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"].startswith("old_mac.jsonl:2")


class TestUploadErrors:
    def test_relative_path_outside_an_archive(self, api: Api) -> None:
        client = api.tenant_client()
        data = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_bytes()
        response = upload(client, "example_vqa.jsonl", data, "general_vqa")
        assert response.status_code == 422
        assert response.headers["content-type"] == "application/problem+json"
        error = response.json()["errors"][0]
        assert error["loc"].startswith("example_vqa.jsonl:1:")
        assert "image_url.url" in error["loc"]

    def test_bad_json_line_names_file_and_line(self, api: Api) -> None:
        client = api.tenant_client()
        data = b'{"messages": [{"role": "user", "content": "hi"}], "answer": "x"}\n{oops\n'
        response = upload(client, "bad.jsonl", data, "general_vqa")
        assert response.status_code == 422
        body = response.json()
        assert body["errors"][0]["loc"].startswith("bad.jsonl:2")
        assert "bad.jsonl:2" in body["detail"]

    def test_long_names_are_kept_within_what_the_database_holds(self, api: Api) -> None:
        """A data file whose name makes a subset name past 256 characters is a 422 naming it;
        a zip's own long name is kept cut to the dataset's columns (both were a 500 on
        PostgreSQL, and stored whole on SQLite)."""
        client = api.tenant_client()
        row = jsonl({"messages": [{"role": "user", "content": "hi"}], "answer": "a"})
        long_member = "s" * 300 + ".jsonl"
        error = only_error(upload(client, "rows.zip", zip_of({long_member: row}), "general_vqa"))
        assert error["loc"] == long_member
        assert "subset name of 300 characters; at most 256" in error["msg"]
        made = upload(client, "n" * 600 + ".zip", zip_of({"rows.jsonl": row}), "general_vqa")
        assert made.status_code == 201, made.text
        dataset = made.json()
        assert (dataset["name"], dataset["filename"]) == ("n" * 256, "n" * 512)
        assert [subset["name"] for subset in dataset["subsets"]] == ["rows"]

    def test_undecodable_image_names_its_row(self, api: Api) -> None:
        client = api.tenant_client()
        fake = "data:image/png;base64,iVBORw0KGgoAAAAAAAA="
        row = {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "what?"},
                        {"type": "image_url", "image_url": {"url": fake}},
                    ],
                }
            ]
        }
        response = upload(client, "img.jsonl", json.dumps(row).encode(), "general_vqa")
        assert response.status_code == 422, response.text
        assert response.json()["errors"][0]["loc"].startswith("img.jsonl:1:messages[0]")

    def test_a_bad_name_and_bad_rows_are_named_together(self, api: Api) -> None:
        client = api.tenant_client()
        rows = b'{"messages": 5}\n' + jsonl(ask()) + b"\n" + b'{"answer": "x"}'
        response = client.post(
            "/v1/datasets",
            data={"format": "general_vqa", "name": "n" * 300},
            files={"file": ("rows.jsonl", rows)},
        )
        assert response.status_code == 422, response.text
        named = [error["loc"] for error in response.json()["errors"]]
        assert named == ["name", "rows.jsonl:1:messages", "rows.jsonl:3:messages"]
        # Rows that are right leave the name alone at fault.
        response = client.post(
            "/v1/datasets",
            data={"format": "general_vqa", "name": "n" * 300},
            files={"file": ("rows.jsonl", jsonl(ask()))},
        )
        assert [error["loc"] for error in response.json()["errors"]] == ["name"]

    def test_unknown_format_and_missing_file(self, api: Api) -> None:
        client = api.tenant_client()
        response = upload(client, "a.jsonl", b"{}", "nope")
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"] == "format"
        response = client.post("/v1/datasets", data={"format": "general_vqa"})
        assert response.status_code == 422
        assert response.json()["errors"][0]["loc"] == "file"

    def test_other_tenants_cannot_see_a_dataset(self, api: Api) -> None:
        owner, other = api.tenant_client(), api.tenant_client()
        data = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_text().splitlines()[1].encode()
        dataset = upload(owner, "one.jsonl", data, "general_vqa").json()
        assert other.get(f"/v1/datasets/{dataset['id']}").status_code == 404
        assert other.get(f"/v1/datasets/{dataset['id']}/rows").status_code == 404
        assert other.get("/v1/datasets").json()["data"] == []


class TestMedia:
    def test_audio_as_data_urls_and_as_zip_paths(self, api: Api) -> None:
        client = api.tenant_client()
        data = jsonl(
            ask(audio(data_url(MP3, "audio/mpeg"), "mp3")),
            ask(audio(data_url(WAV, "audio/wav"))),
            ask(audio("clips/beep.mp3", "mp3")),
            ask(audio("clips/beep.wav")),
        )
        archive = zip_of({"sounds.jsonl": data, "clips/beep.mp3": MP3, "clips/beep.wav": WAV})
        response = upload(client, "sounds.zip", archive, "general_vqa")
        assert response.status_code == 201, response.text
        clips = [
            row["messages"][0]["content"][1]["input_audio"]
            for row in rows_of(client, response.json()["id"])
        ]
        assert [clip["format"] for clip in clips] == ["mp3", "wav", "mp3", "wav"]
        assert all(clip["url"].startswith(f"{api.base_url}/v1/media/") for clip in clips)
        # The MP3 sent as a data URL and the one in the zip are the same bytes: one blob.
        assert clips[0]["url"] == clips[2]["url"] and clips[1]["url"] == clips[3]["url"]
        assert clips[0]["url"] != clips[1]["url"]

    def test_image_url_fetched_when_private_urls_are_allowed(
        self, api: Api, media_server: LoopbackServer
    ) -> None:
        # The test settings allow private addresses (LOUPE_ALLOW_PRIVATE_URLS), so the loopback
        # server is fetched at upload, like a public image host would be.
        client = api.tenant_client()
        before = len(media_server.hits)
        url = media_server.url("/red.png")
        response = upload(client, "web.jsonl", jsonl(ask(image(url))), "general_vqa")
        assert response.status_code == 201, response.text
        part = rows_of(client, response.json()["id"])[0]["messages"][0]["content"][1]
        assert part["image_url"]["url"].startswith(f"{api.base_url}/v1/media/")
        assert [path for path, _ in media_server.hits[before:]] == ["/red.png"]

    def test_audio_url_refused_at_upload(self, api: Api, media_server: LoopbackServer) -> None:
        client = api.tenant_client()
        before = len(media_server.hits)
        row = ask(audio(media_server.url("/beep.wav")))
        error = only_error(upload(client, "sounds.jsonl", b"\n" + jsonl(row), "general_vqa"))
        assert error["loc"] == "sounds.jsonl:2:messages[0].content[1].input_audio.data"
        assert "data:audio" in error["msg"]
        assert media_server.hits[before:] == []

    def test_vmcq_images_list_column(self, api: Api) -> None:
        client = api.tenant_client()
        row = {
            "question": "<image 1> Which shape matches <image 2>?",
            "options": ["<image 2>", "neither"],
            "answer": "A",
            "images": [data_url(PNG, "image/png"), "shapes/red.png"],
        }
        archive = zip_of({"pick_val.jsonl": jsonl(row), "shapes/red.png": PNG})
        response = upload(client, "pick.zip", archive, "general_vmcq")
        assert response.status_code == 201, response.text
        assert response.json()["subsets"] == [
            {"name": "pick", "file": "pick_val.jsonl", "rows": 1, "warnings": []}
        ]
        content = rows_of(client, response.json()["id"])[0]["messages"][0]["content"]
        urls = [part["image_url"]["url"] for part in content if part["type"] == "image_url"]
        assert len(urls) == 3 and len(set(urls)) == 1  # the same picture three times

    def test_image_100_is_the_last_image_column(self, api: Api) -> None:
        client = api.tenant_client()
        row = {
            "question": "<image 100> or <image 101>?",
            "options": ["first", "second"],
            "answer": "A",
            "image_100": data_url(PNG, "image/png"),
            "image_101": data_url(PNG, "image/png"),
        }
        response = upload(client, "edge.jsonl", jsonl(row), "general_vmcq")
        assert response.status_code == 201, response.text
        (warning,) = response.json()["subsets"][0]["warnings"]
        assert warning.startswith("line 1: <image 101> is past image_100, the last image column")
        content = rows_of(client, response.json()["id"])[0]["messages"][0]["content"]
        assert sum(part["type"] == "image_url" for part in content) == 1

    def test_python_literal_options_in_a_tsv(self, api: Api) -> None:
        client = api.tenant_client()
        table = "question\toptions\tanswer\nWhich?\t['red', \"it's blue\"]\tb\n"
        response = upload(client, "quiz.tsv", table.encode(), "general_vmcq")
        assert response.status_code == 201, response.text
        (row,) = rows_of(client, response.json()["id"])
        assert (row["options"], row["answer"], row["line"]) == (["red", "it's blue"], "B", 2)

    def test_tool_turns_are_kept(self, api: Api) -> None:
        client = api.tenant_client()
        call = {"id": "c1", "type": "function", "function": {"name": "zoom", "arguments": "{}"}}
        messages = [
            {"role": "user", "content": "What is in the corner?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "a red circle"},
        ]
        data = jsonl({"messages": messages, "answer": " 红色的圆 "})
        response = upload(client, "tools.jsonl", data, "general_vqa")
        assert response.status_code == 201, response.text
        (row,) = rows_of(client, response.json()["id"])
        assert row["messages"] == messages
        # The reference answer is stored as written, spaces and all (EvalScope scores it so).
        assert row["answer"] == " 红色的圆 "


@pytest.fixture(scope="module")
def strict(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """An app with the default address rules: no private addresses."""
    with side_app(tmp_path_factory.mktemp("strict"), allow_private_urls=False) as app:
        yield app


class TestStrictAddresses:
    def test_image_url_refused_naming_file_line_and_field(
        self, strict: Api, media_server: LoopbackServer
    ) -> None:
        client = strict.tenant_client()
        before = len(media_server.hits)
        rows = jsonl(
            ask(), ask(image(data_url(PNG, "image/png")), image(media_server.url("/red.png")))
        )
        error = only_error(upload(client, "web.jsonl", rows, "general_vqa"))
        assert error["loc"] == "web.jsonl:2:messages[0].content[2].image_url.url"
        assert error["pointer"] == "/file/web.jsonl/line/2/messages/0/content/2/image_url/url"
        assert "LOUPE_IMAGE_ALLOW" in error["msg"]
        # Refused by the address rules before any connection.
        assert media_server.hits[before:] == []
        assert client.get("/v1/datasets").json()["data"] == []

    def test_a_member_that_cannot_be_read_hides_no_other_files_faults(self, api: Api) -> None:
        client = api.tenant_client()
        archive = bytearray(zip_of({"a.jsonl": jsonl(ask()), "b.jsonl": b"not json\n"}))
        # a.jsonl's compression method (local header and central directory) made one zipfile
        # cannot inflate (99: AES, as an encrypting archiver writes).
        local = archive.index(b"PK\x03\x04")
        archive[local + 8 : local + 10] = (99).to_bytes(2, "little")
        central = archive.index(b"PK\x01\x02")
        archive[central + 10 : central + 12] = (99).to_bytes(2, "little")
        response = upload(client, "unreadable.zip", bytes(archive), "general_vqa")
        assert response.status_code == 422, response.text
        errors = response.json()["errors"]
        assert [error["pointer"] for error in errors] == ["/file/a.jsonl", "/file/b.jsonl/line/1"]
        assert "cannot read 'a.jsonl' from the zip" in errors[0]["msg"]

    def test_a_refused_url_is_named_with_the_other_rows_problems(
        self, strict: Api, media_server: LoopbackServer
    ) -> None:
        """Bad rows and refused media in one answer, not the media only once the rows are
        fixed."""
        client = strict.tenant_client()
        rows = b'{"messages": 5}\n' + jsonl(
            ask(image(media_server.url("/red.png"))), ask(image("data:image/png;base64,AAAA"))
        )
        response = upload(client, "mixed.jsonl", rows, "general_vqa")
        assert response.status_code == 422, response.text
        assert response.json()["title"] == "Invalid dataset"
        errors = response.json()["errors"]
        assert [error["pointer"] for error in errors] == [
            "/file/mixed.jsonl/line/1/messages",
            "/file/mixed.jsonl/line/2/messages/0/content/1/image_url/url",
            "/file/mixed.jsonl/line/3/messages/0/content/1/image_url/url",
        ]
        assert "LOUPE_IMAGE_ALLOW" in errors[1]["msg"]
        assert client.get("/v1/datasets").json()["data"] == []


class TestListing:
    def test_pages_newest_first_with_after(self, api: Api) -> None:
        client = api.tenant_client()
        line = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_text().splitlines()[1].encode()
        ids = [upload(client, f"d{i}.jsonl", line, "general_vqa").json()["id"] for i in range(3)]
        first = client.get("/v1/datasets", params={"limit": 2}).json()
        assert first["object"] == "list" and first["has_more"] is True
        assert first["last_id"] == first["data"][-1]["id"]
        rest = client.get("/v1/datasets", params={"limit": 2, "after": first["last_id"]}).json()
        assert rest["has_more"] is False
        listed = [d["id"] for d in first["data"] + rest["data"]]
        assert listed == sorted(ids, reverse=True)

    def test_a_row_cursor_beyond_a_database_integer_is_a_400_naming_after(self, api: Api) -> None:
        client = api.tenant_client()
        line = (EXAMPLES / "vqa" / "example_vqa.jsonl").read_text().splitlines()[1].encode()
        rows = f"/v1/datasets/{upload(client, 'd.jsonl', line, 'general_vqa').json()['id']}/rows"
        largest = client.get(rows, params={"after": str(2**31 - 1)})
        assert largest.status_code == 200 and largest.json()["data"] == []
        for after in (str(2**31), str(2**63), "99999999999999999999999", "-1", "²", ""):
            response = client.get(rows, params={"after": after})
            assert response.status_code == 400, after
            assert response.headers["content-type"] == "application/problem+json"
            problem = response.json()
            assert problem["type"].endswith("/bad-cursor")
            assert problem["detail"].startswith("after: ")
            assert [error["loc"] for error in problem["errors"]] == ["query.after"]


class TestArchiveErrors:
    @pytest.mark.parametrize("member", ["../escape.png", "images/../../escape.png"])
    def test_member_outside_the_archive(self, api: Api, member: str) -> None:
        client = api.tenant_client()
        archive = zip_of({"x.jsonl": jsonl(ask()), member: PNG})
        error = only_error(upload(client, "bad.zip", archive, "general_vqa"))
        # Named by its own name, as a member's rows are.
        assert error["loc"] == member
        assert f"member {member!r} points outside the archive" in error["msg"]

    def test_every_bad_member_name_is_named_in_one_answer(self, api: Api) -> None:
        """Members outside the archive, and files whose names make no subset (too long, or
        another file's), each named by its own pointer in one 422."""
        client = api.tenant_client()
        long_name = "n" * 300 + ".jsonl"
        archive = zip_of(
            {
                "x.jsonl": jsonl(ask()),
                "../escape.png": PNG,
                "/absolute.png": PNG,
                "images/../../up.png": PNG,
            }
        )
        response = upload(client, "bad.zip", archive, "general_vqa")
        assert response.status_code == 422, response.text
        assert response.headers["content-type"] == "application/problem+json"
        errors = response.json()["errors"]
        assert [error["pointer"] for error in errors] == [
            "/file/..~1escape.png",
            "/file/~1absolute.png",
            "/file/images~1..~1..~1up.png",
        ]
        assert all("points outside the archive" in error["msg"] for error in errors)
        archive = zip_of(
            {"a/x.jsonl": jsonl(ask()), "b/x.jsonl": jsonl(ask()), long_name: jsonl(ask())}
        )
        response = upload(client, "names.zip", archive, "general_vqa")
        assert response.status_code == 422, response.text
        named = [(error["loc"], error["msg"][:20]) for error in response.json()["errors"]]
        assert named == [
            ("b/x.jsonl", "subset 'x' is also g"),
            (long_name, "the file's name make"),
        ]
        assert client.get("/v1/datasets").json()["data"] == []

    def test_members_that_unpack_to_one_name_are_named_with_the_other_faults(
        self, api: Api
    ) -> None:
        """`x.png`, `./x.png` and `a/../x.png` are one file once unpacked: which a row reads
        would be the zip's order, so each is named, beside a member outside the zip, a file
        whose name makes no subset and a bad row, in one 422."""
        client = api.tenant_client()
        archive = zip_of(
            {
                "x.jsonl": jsonl(ask()) + b"\nnot json\n",
                "x.png": PNG,
                "./x.png": PNG,
                "a/../x.png": PNG,
                "../escape.png": PNG,
                "n" * 300 + ".jsonl": jsonl(ask()),
            }
        )
        response = upload(client, "twice.zip", archive, "general_vqa")
        assert response.status_code == 422, response.text
        errors = response.json()["errors"]
        assert sorted(error["pointer"] for error in errors) == [
            "/file/..~1escape.png",
            "/file/.~1x.png",
            "/file/a~1..~1x.png",
            "/file/" + "n" * 300 + ".jsonl",
            "/file/x.jsonl/line/2",
            "/file/x.png",
        ]
        shared = [error["msg"] for error in errors if error["loc"].endswith("x.png")]
        assert (
            shared
            == ["members 'x.png', './x.png', 'a/../x.png' all unpack to 'x.png'; keep one of them"]
            * 3
        )
        assert client.get("/v1/datasets").json()["data"] == []
