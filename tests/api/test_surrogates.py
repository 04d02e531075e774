"""A high surrogate escape without its low half (`"\\ud800x"`) is refused as malformed JSON
naming the body, never stored as `?x`; a pair, and the escaped text `\\\\ud800`, arrive intact.
A number past what can be read (an integer past 64 bits) is named as such, not as "overflow",
at its field (a 422)."""

import pytest

from app.api.surrogates import LoneSurrogate, SurrogateScan
from tests.evaluations.test_endpoints import error_locs, problem
from tests.fixtures.api import Api


def _body(output: str) -> bytes:
    # `output` is spliced in as raw JSON text, escapes and all.
    return (
        b'{"test_cases": [{"input": "q", "actual_output": "' + output.encode() + b'",'
        b' "expected_output": "a"}], "metrics": [{"type": "exact_match"}]}'
    )


@pytest.mark.parametrize(
    "output", ["\\ud800x", "x\\uDBFF", "\\ud83d\\ud83d\\ude00", "\\ud800\\\\udc00"]
)
def test_a_lone_high_surrogate_is_refused_and_nothing_is_stored(api: Api, output: str) -> None:
    client = api.tenant_client()
    response = client.post(
        "/v1/evaluations", content=_body(output), headers={"content-type": "application/json"}
    )
    found = problem(response, 400)
    assert found["type"].endswith("/malformed-json")
    assert error_locs(found) == ["body"]
    assert "lone UTF-16 surrogate" in found["detail"]
    assert client.get("/v1/evaluations").json()["data"] == []


@pytest.mark.parametrize(
    ("output", "text"),
    [("\\ud83d\\ude00!", "\U0001f600!"), ("\\\\ud800x", "\\ud800x"), ("?x", "?x")],
    ids=["pair", "escaped-backslash", "question-mark"],
)
def test_pairs_and_escaped_backslashes_arrive_as_sent(api: Api, output: str, text: str) -> None:
    client = api.tenant_client()
    response = client.post(
        "/v1/evaluations", content=_body(output), headers={"content-type": "application/json"}
    )
    assert response.status_code == 202, response.text
    final = api.wait(client, response.json()["id"])
    cases = client.get(f"/v1/evaluations/{final['id']}/test_cases").json()["data"]
    assert cases[0]["actual_output"] == text


def _scan(chunks: list[bytes]) -> LoneSurrogate | None:
    scan = SurrogateScan()
    try:
        for chunk in chunks:
            scan.feed(chunk)
        scan.close()
    except LoneSurrogate as error:
        return error
    return None


@pytest.mark.parametrize(
    ("text", "lone_at"),
    [
        (b'"ab\\ud800\\udc00cd"', None),
        (b'"ab\\ud800cd"', 3),
        (b'"ab\\\\ud800cd"', None),  # an escaped backslash, then letters
        (b'"ab\\\\\\ud800cd"', 5),  # an escaped backslash, then an escape
        (b'"\\ud800\\ud800\\udc00"', 1),  # the first high has no low of its own
        (b'"\\ud800\\\\udc00"', 1),  # the "low" is letters after an escaped backslash
        (b'"' + b"\\\\" * 40 + b'\\ud800"', 81),
        (b'"' + b"\\\\" * 40 + b'\\\\ud800"', None),
        (b'"end\\uD8FF', 4),  # the body ends after the high half
    ],
)
def test_the_scan_sees_escapes_across_every_cut(text: bytes, lone_at: int | None) -> None:
    # Every way of cutting the body in two, and one byte at a time.
    cuts = [[text[:cut], text[cut:]] for cut in range(len(text) + 1)]
    for chunks in [*cuts, [bytes([byte]) for byte in text]]:
        found = _scan(chunks)
        assert (found.offset if found else None) == lone_at, chunks


@pytest.mark.parametrize("number", [b"99999999999999999999", b"1e999"])
def test_a_number_too_large_is_named_as_such(api: Api, number: bytes) -> None:
    body = b'{"test_cases": [{"input": "q", "actual_output": "a", "expected_output": "a",'
    body += b' "metadata": {"n": ' + number + b'}}], "metrics": [{"type": "exact_match"}]}'
    found = problem(
        api.tenant_client().post(
            "/v1/evaluations", content=body, headers={"content-type": "application/json"}
        ),
        422,
    )
    # Valid JSON: its field is named, as a value out of range is (it was a 400 naming `body`).
    assert error_locs(found) == ["test_cases[0].metadata.n"]
    assert found["type"].endswith("/invalid-number"), found
    assert "a number too large to read" in found["detail"], found


# A lone surrogate written as a JSON escape inside an uploaded file: the parser takes it, and
# the row failed where it was written (a 500; the file was stored and failed the eval run).
LONE = b"\\ud800"


def test_a_files_line_with_one_is_refused_naming_the_line_and_field(api: Api) -> None:
    with api.tenant_client() as http:
        content = b'{"item": {"a": "x"}}\n{"item": {"a": "x' + LONE + b'y"}}\n'
        response = http.post(
            "/v1/files", files={"file": ("rows.jsonl", content)}, data={"purpose": "evals"}
        )
        found = problem(response, 400)
        assert found["error"]["code"] == "lone_surrogate", found
        assert "file line 2, item.a: the text holds a lone UTF-16 surrogate" in found["detail"]
        assert http.get("/v1/files").json()["data"] == []


@pytest.mark.parametrize(
    ("filename", "content", "fmt", "loc"),
    [
        (
            "rows.jsonl",
            b'{"messages": [{"role": "user", "content": "a' + LONE + b'b"}], "answer": "x"}\n',
            "general_vqa",
            "rows.jsonl:1:messages[0].content",
        ),
        (
            "rows.tsv",
            b'messages\tanswer\n[{"role": "user", "content": "a' + LONE + b'b"}]\tx\n',
            "general_vqa",
            "rows.tsv:2:messages[0].content",
        ),
        (
            "mcq.csv",
            b'question,options,answer\nq,"[""a' + LONE + b'"", ""b""]",A\n',
            "general_vmcq",
            "mcq.csv:2:options[0]",
        ),
    ],
    ids=["jsonl", "tsv-messages", "csv-options"],
)
def test_a_dataset_row_with_one_is_refused_naming_line_and_field(
    api: Api, filename: str, content: bytes, fmt: str, loc: str
) -> None:
    with api.tenant_client() as http:
        response = http.post(
            "/v1/datasets", files={"file": (filename, content)}, data={"format": fmt}
        )
        found = problem(response, 422)
        assert [error["loc"] for error in found["errors"]] == [loc], found
        assert "lone UTF-16 surrogate" in found["errors"][0]["msg"]
        assert http.get("/v1/datasets").json()["data"] == []


def test_a_label_import_line_with_one_is_named(api: Api) -> None:
    with api.tenant_client() as http:
        line = b'{"result_id": "res_x", "value": 1, "rationale": "a' + LONE + b'"}\n'
        response = http.post(
            "/v1/labels/import", content=line, headers={"content-type": "application/x-ndjson"}
        )
        found = problem(response, 422)
        assert [error["loc"] for error in found["errors"]] == ["lines[1].rationale"], found
