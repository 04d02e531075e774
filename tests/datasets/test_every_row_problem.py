"""An upload's every bad row in one 422, in file and line order: a file bad on three rows was
named one row at a time (the next only after the first was fixed), and a line of bad JSON hid a
bad row before it. Stored nothing; past 100 problems the file is not read further."""

import io
import json
import zipfile

import httpx

from app.problems import MAX_FIELD_ERRORS
from tests.fixtures.api import Api
from tests.runs.helpers import upload


def _jsonl(*rows: object) -> bytes:
    return b"".join(
        (row if isinstance(row, bytes) else json.dumps(row).encode()) + b"\n" for row in rows
    )


def refused(response: httpx.Response) -> list[str]:
    assert response.status_code == 422, response.text
    assert response.headers["content-type"] == "application/problem+json"
    return [error["loc"] for error in response.json()["errors"]]


def test_every_bad_row_of_a_file_is_named(api: Api) -> None:
    good = {"question": "q", "options": ["a", "b"], "answer": "A"}
    data = _jsonl(
        {**good, "answer": "C"},  # not one of the labels
        {"question": "q", "answer": "A"},  # no options
        good,
        {"options": ["a", "b"], "answer": "A"},  # no question
    )
    with api.tenant_client() as client:
        locs = refused(upload(client, "mcq.jsonl", data, "general_vmcq"))
        assert [loc.split(":")[1] for loc in locs] == ["1", "2", "4"], locs
        assert client.get("/v1/datasets").json()["data"] == []


def test_bad_json_and_a_bad_row_are_named_in_line_order(api: Api) -> None:
    data = _jsonl(
        {"messages": [{"role": "user", "content": "hi"}], "answer": "a"},
        {"messages": "not a list", "answer": "a"},
        b"{not json",
        ["not", "an", "object"],
    )
    with api.tenant_client() as client:
        locs = refused(upload(client, "rows.jsonl", data, "general_vqa"))
    assert locs == ["rows.jsonl:2:messages", "rows.jsonl:3", "rows.jsonl:4"], locs


def test_tsv_rows_and_every_file_of_a_zip(api: Api) -> None:
    tsv = (
        b'messages\tanswer\n{not json\ta\n"not a list"\ta\n[{"role": "user", "content": "q"}]\ta\n'
    )
    jsonl = _jsonl({"messages": [], "answer": "a"})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("one_test.tsv", tsv)
        archive.writestr("two_test.jsonl", jsonl)
    with api.tenant_client() as client:
        locs = refused(upload(client, "both.zip", buffer.getvalue(), "general_vqa"))
    assert locs == [
        "one_test.tsv:2:messages",
        "one_test.tsv:3:messages",
        "two_test.jsonl:1:messages",
    ], locs


def test_past_the_cap_the_answer_names_the_first_hundred(api: Api) -> None:
    data = _jsonl(*[b"{not json"] * (MAX_FIELD_ERRORS + 50))
    with api.tenant_client() as client:
        response = upload(client, "rows.jsonl", data, "general_vqa")
    assert len(refused(response)) == MAX_FIELD_ERRORS
    assert response.json()["detail"].endswith(f"(and {MAX_FIELD_ERRORS - 1} more)")
