"""app/jsonio.py: orjson on the hot path, with the standard library's results where they differ."""

import json
import math

import pytest

from app import jsonio


def test_dumps_is_compact_utf8_json_that_json_reads_back_alike() -> None:
    value = {"a": "é ✓", "b": [1, 2.5, None, True], "c": {"d": '\n\t"\\'}, 3: "int key"}
    written = jsonio.dumps(value)
    assert isinstance(written, bytes)
    assert "é ✓".encode() in written  # not escaped
    assert json.loads(written) == {
        "a": "é ✓",
        "b": [1, 2.5, None, True],
        "c": value["c"],
        "3": "int key",
    }


def test_dumps_takes_what_orjson_refuses_as_json_would() -> None:
    assert json.loads(jsonio.dumps({"big": 10**30})) == {"big": 10**30}


def test_loads_takes_what_orjson_refuses_as_json_would() -> None:
    assert math.isnan(jsonio.loads('{"a": NaN}')["a"])
    assert jsonio.loads('"\\ud800"') == json.loads('"\\ud800"')  # a lone surrogate
    assert jsonio.loads(b'{"a": [1, "x"]}') == {"a": [1, "x"]}


def test_loads_raises_jsons_errors() -> None:
    for text in ("{not json", "\ufeff{}"):
        with pytest.raises(json.JSONDecodeError):
            jsonio.loads(text)
    with pytest.raises(RecursionError):
        jsonio.loads("[" * 100_000 + "]" * 100_000)


def test_dumps_stored_replaces_nul_anywhere_and_leaves_an_escaped_backslash_alone() -> None:
    value = {"a\x00": ["x\x00y", {"deep": "\x00"}], "ok": "fine"}
    stored = json.loads(jsonio.dumps_stored(value))
    assert stored == {"a\ufffd": ["x\ufffdy", {"deep": "\ufffd"}], "ok": "fine"}
    literal = {"text": "a backslash, then u0000: \\u0000"}
    assert json.loads(jsonio.dumps_stored(literal)) == literal
    assert jsonio.dumps_stored_text(value) == jsonio.dumps_stored(value).decode()
