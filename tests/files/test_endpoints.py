"""`/v1/files` through the official `openai` client, on both backends: what an upload accepts
and how its lines are counted when a run reads it."""

import json

import openai
import pytest

from tests.evals.helpers import CRITERIA, ROWS, create_eval, expected_grades, wait
from tests.fixtures.api import Api

BOM = b"\xef\xbb\xbf"


def jsonl(rows: list[dict]) -> bytes:
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode() + b"\n"


class TestUpload:
    def test_a_byte_order_mark_is_accepted_and_runs(self, api: Api, client: openai.OpenAI) -> None:
        content = BOM + jsonl(ROWS[:3])
        uploaded = client.files.create(file=("bom.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        # Stored as sent: the bytes count and the content include the mark.
        assert uploaded.bytes == len(content)
        assert client.files.content(uploaded.id).content == content
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_id", "id": uploaded.id}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        assert final.result_counts.total == 3
        assert final.result_counts.passed == sum(expected_grades(r)[0] for r in ROWS[:3])

    def test_a_mark_anywhere_but_the_start_is_still_refused(self, client: openai.OpenAI) -> None:
        content = jsonl(ROWS[:1]) + BOM + jsonl(ROWS[1:2])
        with pytest.raises(openai.BadRequestError) as refused:
            client.files.create(file=("late.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        assert "line 2" in refused.value.message


class TestEveryFault:
    def test_every_bad_line_and_the_purpose_are_named_in_one_answer(
        self, client: openai.OpenAI
    ) -> None:
        content = jsonl(ROWS[:1]) + b'{"item": 1}\nnot json\n[1]\n' + jsonl(ROWS[1:2])
        with pytest.raises(openai.BadRequestError) as refused:
            client.files.create(file=("bad.jsonl", content), purpose="fine-tune")  # type: ignore[arg-type]
        errors = refused.value.response.json()["errors"]
        assert [error["loc"] for error in errors] == [
            "purpose",
            "file.line[2].item",
            "file.line[3]",
            "file.line[4]",
        ]
        assert [error["msg"].split(":")[0] for error in errors[1:]] == [
            "file line 2",
            "file line 3",
            "file line 4",
        ]
        # The SDK's message says the first three faults and how many more there are.
        message = refused.value.body["message"]
        assert "fine-tune" in message and "file line 2" in message

    def test_a_form_missing_a_field_still_has_the_rest_checked(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        with api.client(client.api_key) as http:
            no_purpose = http.post("/v1/files", files={"file": ("x.jsonl", b'[1]\n{"item": 2}\n')})
            no_file = http.post(
                "/v1/files", data={"purpose": "evals", "expires_after[seconds]": "5"}
            )
        assert no_purpose.status_code == 400, no_purpose.text
        named = [(error["loc"], error["msg"][:11]) for error in no_purpose.json()["errors"]]
        assert named == [
            ("purpose", "Field requi"),
            ("file.line[1]", "file line 1"),
            ("file.line[2].item", "file line 2"),
        ]
        assert no_file.status_code == 400, no_file.text
        named = sorted(error["loc"] for error in no_file.json()["errors"])
        assert named == ["expires_after.seconds", "file"]

    def test_each_bad_line_is_named_by_its_own_pointer(self, client: openai.OpenAI) -> None:
        """Every fault of the file in one answer, each at its line and the field within it:
        a line that is not UTF-8 is one of them, not the whole file's fault."""
        content = (
            jsonl(ROWS[:1])
            + b'{"item": 1}\n'
            + b"not json\n"
            + b'{"item": {}, "sample": 3}\n'
            + b'{"item": {"question": NaN}}\n'
            + b'{"item": {"question": "caf\xe9"}}\n'
            + jsonl(ROWS[1:2])
        )
        with pytest.raises(openai.BadRequestError) as refused:
            client.files.create(file=("faults.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        errors = refused.value.response.json()["errors"]
        assert [(error["pointer"], error["msg"].split(":")[0]) for error in errors] == [
            ("/file/line/2/item", "file line 2"),
            ("/file/line/3", "file line 3"),
            ("/file/line/4/sample", "file line 4"),
            ("/file/line/5/item/question", "file line 5, item.question"),
            ("/file/line/6", "file line 6"),
        ]
        assert errors[-1]["msg"] == "file line 6: not UTF-8 text (byte 0xe9 at column 27)"
        # The SDK's `param` is the first fault's place.
        assert refused.value.param == "file.line[2].item"


class TestLineNumbers:
    def test_a_schema_mismatch_names_the_files_own_line(self, client: openai.OpenAI) -> None:
        """Blank lines are skipped but still counted, as an editor numbers them."""
        ev = create_eval(client, CRITERIA[:1])
        mismatched = {"item": {"question": "no answer"}}
        content = jsonl(ROWS[:1]) + b"\n\n" + jsonl([mismatched])
        uploaded = client.files.create(file=("gaps.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError) as schema:
            client.evals.runs.create(
                ev.id,
                data_source={"type": "jsonl", "source": {"type": "file_id", "id": uploaded.id}},
            )
        assert schema.value.code == "item_schema_mismatch"
        assert schema.value.body["message"].startswith("file line 4:")
        assert schema.value.param == "data_source.source.id.line[4].item"

    def test_a_line_separator_inside_a_string_does_not_shift_lines(
        self, client: openai.OpenAI
    ) -> None:
        # U+2028 is legal raw inside a JSON string; it does not end a JSONL line.
        ev = create_eval(client, CRITERIA[:1])
        first = {**ROWS[0], "item": {**ROWS[0]["item"], "question": "one\u2028two"}}
        content = jsonl([first, {"item": {"question": "no answer"}}])
        uploaded = client.files.create(file=("sep.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        with pytest.raises(openai.BadRequestError) as schema:
            client.evals.runs.create(
                ev.id,
                data_source={"type": "jsonl", "source": {"type": "file_id", "id": uploaded.id}},
            )
        assert schema.value.body["message"].startswith("file line 2:")
