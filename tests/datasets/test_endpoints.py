"""Dataset uploads through the HTTP API: the EvalScope examples, listing, rows, errors."""

import json

from tests.fixtures.api import Api
from tests.runs.helpers import EXAMPLES, example_zip, upload


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
        # Media are stored once and referenced; no bytes come back in rows.
        assert audio[0]["input_audio"]["data"].startswith("blob:sha256:")
        assert audio[0]["input_audio"]["format"] == "wav"
        assert images[0]["image_url"]["url"].startswith("blob:sha256:")
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
        assert response.json()["errors"][0]["loc"].startswith("img.jsonl:1.messages[0]")

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
