import base64
import io
import json
import zipfile
from pathlib import Path

import pytest

from app.datasets.formats import (
    MCQ_ANSWER_MARKER,
    DatasetFormatError,
    mcq_prompt,
    option_labels,
    parse_upload,
)
from tests.runs.helpers import MP3

EXAMPLES = Path(__file__).parents[1] / "data" / "evalscope_examples"
PNG = (EXAMPLES / "vqa" / "images" / "red_circle.png").read_bytes()
WAV = (EXAMPLES / "audio" / "beep_440hz.wav").read_bytes()
JPEG = b"\xff\xd8\xff\xe0" + bytes(16)


def b64(content: bytes) -> str:
    return base64.b64encode(content).decode()


def data_url(content: bytes, media_type: str = "image/png") -> str:
    return f"data:{media_type};base64,{b64(content)}"


def zip_of(members: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_examples(*folders: str) -> bytes:
    return zip_of(
        {
            path.relative_to(EXAMPLES).as_posix(): path.read_bytes()
            for folder in folders
            for path in sorted((EXAMPLES / folder).rglob("*"))
            if path.is_file()
        }
    )


def jsonl(*rows: dict) -> bytes:
    return "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode()


def user(*parts: dict) -> dict:
    return {"messages": [{"role": "user", "content": list(parts)}]}


def image_part(url: str) -> dict:
    return {"type": "image_url", "image_url": {"url": url}}


def refused(filename: str, content: bytes, fmt: str = "general_vqa", **caps) -> DatasetFormatError:
    with pytest.raises(DatasetFormatError) as caught:
        parse_upload(filename, content, fmt, **caps)
    return caught.value


class TestOptionLabels:
    def test_first_26_are_letters(self) -> None:
        assert option_labels(4) == ["A", "B", "C", "D"]
        assert option_labels(26)[-1] == "Z"

    def test_numbers_after_z(self) -> None:
        assert option_labels(28)[25:] == ["Z", "1", "2"]


class TestMcqPrompt:
    def test_instructions_end_with_the_answer_line(self) -> None:
        prompt = mcq_prompt("Which?", ["x", "y", "z"], ["A", "B", "C"])
        instructions = prompt.split("\n\n")[0]
        assert instructions.endswith(f'"{MCQ_ANSWER_MARKER}: X", where X is one of A,B,C.')
        assert "step by step" in instructions

    def test_question_then_options_labelled_with_a_parenthesis(self) -> None:
        prompt = mcq_prompt("Which?", ["x", "y"], ["A", "B"])
        assert prompt.split("\n\n")[1:] == ["Which?", "A) x\nB) y"]


class TestDatasetFormatError:
    def test_str_names_file_line_and_field(self) -> None:
        error = DatasetFormatError("a.jsonl", 3, "answer", "bad")
        assert str(error) == "a.jsonl:3: answer: bad"
        assert (error.file, error.line, error.field, error.message) == (
            "a.jsonl",
            3,
            "answer",
            "bad",
        )
        assert str(DatasetFormatError("a.zip", None, None, "bad")) == "a.zip: bad"


class TestGeneralVqa:
    @pytest.fixture
    def subsets(self) -> dict:
        subsets = parse_upload("examples.zip", zip_examples("vqa", "audio"), "general_vqa")
        return {subset.name: subset for subset in subsets}

    def test_samples_parse_with_paths_resolved_in_the_zip(self, subsets: dict) -> None:
        assert sorted(subsets) == ["example_vqa", "example_vqa_tsv"]
        rows = subsets["example_vqa"].rows
        assert subsets["example_vqa"].file == "vqa/example_vqa.jsonl"
        assert [row.line for row in rows] == [1, 2, 3, 4, 5]
        assert rows[0].messages[0]["content"][1] == image_part(data_url(PNG))
        assert rows[0].answer == "A circle" and rows[0].kind == "vqa"
        assert subsets["example_vqa"].warnings == []

    def test_tsv_sample_lines_count_the_header(self, subsets: dict) -> None:
        rows = subsets["example_vqa_tsv"].rows
        assert [row.line for row in rows] == [2, 3]
        assert rows[0].messages == subsets["example_vqa"].rows[0].messages

    def test_system_message_and_detail_kept(self, subsets: dict) -> None:
        system, question = subsets["example_vqa"].rows[2].messages
        assert system["role"] == "system" and isinstance(system["content"], str)
        assert question["content"][1]["image_url"]["detail"] == "low"
        assert question["content"][3]["image_url"]["url"].startswith("data:image/png;base64,")

    def test_audio_becomes_an_input_audio_part(self, subsets: dict) -> None:
        audio = subsets["example_vqa"].rows[3].messages[0]["content"][1]
        expected = {"data": data_url(WAV, "audio/wav"), "format": "wav"}
        assert audio == {"type": "input_audio", "input_audio": expected}

    def test_placeholder_replaced_in_place(self, subsets: dict) -> None:
        row = subsets["example_vqa"].rows[4]
        image, text = row.messages[0]["content"]
        assert image["type"] == "image_url" and image["image_url"]["url"].startswith("data:image/")
        assert text == {"type": "text", "text": " 图中的白色图形是什么形状？"}
        assert row.answer == "圆形"

    def test_missing_placeholder_media_dropped_with_a_warning(self) -> None:
        row = {"messages": [{"role": "user", "content": "<image_1> vs <image 2>?"}]}
        row["image_1"] = data_url(PNG)
        (subset,) = parse_upload("x_test.jsonl", b"\n" + jsonl(row), "general_vqa")
        assert subset.name == "x"
        content = subset.rows[0].messages[0]["content"]
        assert [part["type"] for part in content] == ["image_url", "text", "text"]
        assert subset.warnings == ["line 2: <image 2> has no image_2 value; placeholder dropped"]

    def test_images_list_when_no_indexed_column_is_set(self) -> None:
        row = {
            "messages": [{"role": "user", "content": "<image 2>"}],
            "images": ["", data_url(JPEG)],
        }
        (subset,) = parse_upload("x.jsonl", jsonl(row), "general_vqa")
        assert subset.rows[0].messages[0]["content"] == [image_part(data_url(JPEG, "image/jpeg"))]

    def test_list_content_and_other_roles_are_not_scanned(self) -> None:
        row = {
            "messages": [
                {"role": "system", "content": "<image 1>"},
                {"role": "user", "content": [{"type": "text", "text": "<image 1>"}]},
            ],
            "image_1": data_url(PNG),
        }
        (subset,) = parse_upload("x.jsonl", jsonl(row), "general_vqa")
        assert subset.rows[0].messages[0]["content"] == "<image 1>"
        assert subset.rows[0].messages[1]["content"] == [{"type": "text", "text": "<image 1>"}]
        assert subset.rows[0].answer is None

    def test_path_looked_up_next_to_the_data_file_first(self) -> None:
        rows = jsonl(user(image_part("img.png")))
        upload = zip_of({"sub/x.jsonl": rows, "sub/img.png": PNG, "img.png": JPEG})
        (subset,) = parse_upload("u.zip", upload, "general_vqa")
        assert subset.rows[0].messages[0]["content"][0] == image_part(data_url(PNG))

    @pytest.mark.parametrize(
        ("url", "words"),
        [
            ("vqa/images/red_circle.png", "only looked up inside an uploaded .zip"),
            ("/etc/passwd", "only looked up inside an uploaded .zip"),
            ("file:///etc/passwd", "file: URLs are not accepted"),
            ("ftp://example.com/a.png", "unsupported URL scheme"),
            ("data:image/png;base64,iVBORw0K!!!", "invalid base64"),
            ("data:text/plain;base64,aGVsbG8=", "is not image/*"),
            ("data:image/png,rawbytes", "must be base64"),
            (data_url(WAV, "image/png"), "not a PNG, JPEG, GIF or WEBP image"),
        ],
    )
    def test_image_reference_refused(self, url: str, words: str) -> None:
        upload = b"\n" + jsonl(user({"type": "text", "text": "hi"}, image_part(url)))
        error = refused("x.jsonl", upload)
        assert (error.file, error.line) == ("x.jsonl", 2)
        assert error.field == "messages[0].content[1].image_url.url"
        assert words in error.message

    @pytest.mark.parametrize(
        ("url", "words"),
        [
            ("../secret.png", "points outside the archive"),
            ("/data/a.png", "is not in the uploaded zip"),
        ],
    )
    def test_zip_path_refused(self, url: str, words: str) -> None:
        error = refused("u.zip", zip_of({"x.jsonl": jsonl(user(image_part(url))), "a.png": PNG}))
        assert (error.file, error.line, error.field) == (
            "x.jsonl",
            1,
            "messages[0].content[0].image_url.url",
        )
        assert words in error.message

    def test_bare_base64_audio_is_treated_as_a_path(self) -> None:
        part = {"type": "input_audio", "input_audio": {"data": b64(WAV), "format": "wav"}}
        error = refused("u.zip", zip_of({"x.jsonl": jsonl(user(part))}))
        assert error.field == "messages[0].content[0].input_audio.data"
        assert "is not in the uploaded zip" in error.message

    def test_bad_json_line_reports_its_number(self) -> None:
        error = refused("x.jsonl", jsonl(user({"type": "text", "text": "a"})) + b"\n\n{oops\n")
        assert (error.line, error.field) == (3, None) and "invalid JSON" in error.message
        assert refused("x.jsonl", b"[1, 2]\n").message == "each line must be a JSON object"

    def test_missing_messages_column(self) -> None:
        error = refused("x.tsv", b"answer\nA circle\n")
        assert (error.line, error.field) == (2, "messages")

    def test_bad_messages_json_in_a_tsv(self) -> None:
        error = refused("x.tsv", b"messages\tanswer\n[{oops\tA\n")
        assert (error.line, error.field) == (2, "messages") and "invalid JSON" in error.message

    def test_unknown_role_refused(self) -> None:
        error = refused("x.jsonl", jsonl({"messages": [{"role": "function", "content": "x"}]}))
        assert error.field == "messages[0].role" and "tool" in error.message

    def test_tool_turns_kept_with_their_call_ids(self) -> None:
        call = {"id": "call_1", "type": "function", "function": {"name": "zoom", "arguments": "{}"}}
        messages = [
            {"role": "user", "content": "What is in the corner?"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "a red circle"},
            {"role": "tool", "content": [{"type": "text", "text": "no id given"}]},
        ]
        (subset,) = parse_upload("x.jsonl", jsonl({"messages": messages}), "general_vqa")
        assert subset.rows[0].messages == messages

    @pytest.mark.parametrize(
        ("message", "field"),
        [
            ({"role": "tool", "tool_call_id": 7, "content": "x"}, "messages[0].tool_call_id"),
            (
                {"role": "assistant", "tool_calls": "zoom", "content": None},
                "messages[0].tool_calls",
            ),
            ({"role": "assistant", "tool_calls": [{"id": "c"}]}, "messages[0].tool_calls[0]"),
            ({"role": "assistant", "content": None}, "messages[0].content"),
            ({"role": "tool", "content": None}, "messages[0].content"),
        ],
    )
    def test_bad_tool_turns_refused(self, message: dict, field: str) -> None:
        assert refused("x.jsonl", jsonl({"messages": [message]})).field == field

    def test_answer_kept_as_written(self) -> None:
        # EvalScope does not normalise the reference; jieba keeps these spaces as tokens.
        row = {"messages": [{"role": "user", "content": "形状？"}], "answer": " 圆形 "}
        (subset,) = parse_upload("x.jsonl", jsonl(row), "general_vqa")
        assert subset.rows[0].answer == " 圆形 "
        table = b'messages\tanswer\n[{"role": "user", "content": "q"}]\t  A circle \n'
        (subset,) = parse_upload("x.tsv", table, "general_vqa")
        assert subset.rows[0].answer == "  A circle "

    @pytest.mark.parametrize(
        ("data", "declared", "expected"),
        [
            (data_url(WAV, "audio/wav"), "wav", "wav"),
            (data_url(MP3, "audio/mpeg"), "mp3", "mp3"),
            (data_url(MP3, "audio/mp3"), None, "mp3"),
        ],
    )
    def test_audio_data_urls(self, data: str, declared: str | None, expected: str) -> None:
        audio = {"data": data} | ({"format": declared} if declared else {})
        row = user({"type": "input_audio", "input_audio": audio})
        (subset,) = parse_upload("x.jsonl", jsonl(row), "general_vqa")
        part = subset.rows[0].messages[0]["content"][0]["input_audio"]
        assert part["format"] == expected and part["data"].startswith("data:audio/")

    def test_mp3_path_in_the_zip(self) -> None:
        audio = {"data": "clips/beep.mp3", "format": "mp3"}
        upload = zip_of(
            {
                "x.jsonl": jsonl(user({"type": "input_audio", "input_audio": audio})),
                "clips/beep.mp3": MP3,
            }
        )
        (subset,) = parse_upload("u.zip", upload, "general_vqa")
        part = subset.rows[0].messages[0]["content"][0]["input_audio"]
        assert part == {"data": data_url(MP3, "audio/mpeg"), "format": "mp3"}

    @pytest.mark.parametrize(
        ("audio", "field", "words"),
        [
            ({"data": data_url(WAV, "audio/wav"), "format": "mp3"}, "format", "the data is wav"),
            ({"data": data_url(PNG, "audio/wav")}, "data", "not WAV or MP3 audio"),
            ({"data": "https://127.0.0.1:9/clip"}, "format", "give the audio format"),
        ],
    )
    def test_bad_audio_refused(self, audio: dict, field: str, words: str) -> None:
        error = refused("x.jsonl", jsonl(user({"type": "input_audio", "input_audio": audio})))
        assert error.field == f"messages[0].content[0].input_audio.{field}"
        assert words in error.message

    def test_image_url_kept_for_fetching_at_ingest(self) -> None:
        url = "https://127.0.0.1:9/red.png"
        (subset,) = parse_upload("x.jsonl", jsonl(user(image_part(url))), "general_vqa")
        assert subset.rows[0].messages[0]["content"][0] == image_part(url)

    def test_video_refused(self) -> None:
        part = {"type": "video_url", "video_url": {"url": "https://example.com/v.mp4"}}
        assert refused("x.jsonl", jsonl(user(part))).message == "video is not supported yet"
        placeholder = {"messages": [{"role": "user", "content": "<video 1> what?"}]}
        error = refused("x.jsonl", jsonl(placeholder))
        assert error.field == "messages[0].content" and "video is not supported" in error.message

    def test_empty_file_refused(self) -> None:
        assert refused("x.jsonl", b"\n \n").message == "the file holds no rows"
        assert refused("x.tsv", b"messages\tanswer\n").message == "the file holds no rows"


class TestGeneralVmcq:
    @pytest.fixture
    def rows(self) -> list:
        (subset,) = parse_upload("examples.zip", zip_examples("vmcq"), "general_vmcq")
        assert (subset.name, subset.file, subset.warnings) == (
            "example_vmcq",
            "vmcq/example_vmcq.jsonl",
            [],
        )
        return subset.rows

    def test_sample_parses(self, rows: list) -> None:
        assert len(rows) == 4
        assert [row.answer for row in rows] == ["B", "B", "C", "B"]
        assert rows[3].labels == ["A", "B", "C"] and rows[0].kind == "mcq"
        image, text = rows[0].messages[0]["content"][1:3]
        assert image["type"] == "image_url" and text["text"].startswith(" What is the colour")

    def test_image_options_in_place(self, rows: list) -> None:
        content = rows[1].messages[0]["content"]
        assert [part["type"] for part in content] == ["text", "image_url"] * 4
        assert content[0]["text"].endswith("\n\nA) ")
        assert [part["text"] for part in content[2::2]] == ["\nB) ", "\nC) ", "\nD) "]
        assert rows[1].options == ["<image 1>", "<image 2>", "<image 3>", "<image 4>"]

    def test_options_given_as_a_json_string(self, rows: list) -> None:
        assert rows[2].options == ["Yes", "No", "Only image A", "Only image B"]
        assert sum(part["type"] == "image_url" for part in rows[2].messages[0]["content"]) == 2

    def test_underscore_placeholder(self, rows: list) -> None:
        content = rows[3].messages[0]["content"]
        assert [part["type"] for part in content] == ["text", "image_url", "text"]
        assert content[2]["text"].startswith("?\n\nA) 0")

    def test_python_literal_options_in_a_tsv(self) -> None:
        table = "question\toptions\tanswer\nPick one\t['x', \"it's y\", 3]\tC\n"
        (subset,) = parse_upload("quiz.tsv", table.encode(), "general_vmcq")
        assert subset.rows[0].options == ["x", "it's y", "3"]
        assert subset.rows[0].labels == ["A", "B", "C"]

    def test_bad_options_cell_refused(self) -> None:
        table = "question\toptions\tanswer\nPick one\t['x', \tA\n"
        error = refused("quiz.tsv", table.encode(), "general_vmcq")
        assert (error.line, error.field) == (2, "options")
        assert "not a JSON array or Python list" in error.message

    def test_images_list_column(self) -> None:
        row = {
            "question": "<image 1> or <image 2>?",
            "options": ["<image 2>", "neither"],
            "answer": "A",
            "images": [data_url(PNG), data_url(JPEG, "image/jpeg")],
        }
        (subset,) = parse_upload("q.jsonl", jsonl(row), "general_vmcq")
        images = [p for p in subset.rows[0].messages[0]["content"] if p["type"] == "image_url"]
        assert [image["image_url"]["url"][:15] for image in images] == [
            "data:image/png;",
            "data:image/jpeg",
            "data:image/jpeg",
        ]
        assert subset.warnings == []

    def test_image_100_is_the_last_column(self) -> None:
        row = {
            "question": "<image 100> or <image 101>?",
            "options": ["x", "y"],
            "answer": "A",
            "image_100": data_url(PNG),
            "image_101": data_url(JPEG, "image/jpeg"),
        }
        (subset,) = parse_upload("q.jsonl", jsonl(row), "general_vmcq")
        images = [p for p in subset.rows[0].messages[0]["content"] if p["type"] == "image_url"]
        assert images == [image_part(data_url(PNG))]
        (warning,) = subset.warnings
        assert warning.startswith("line 1: <image 101> is past image_100, the last image column")
        assert "images[" not in warning

    def test_image_101_without_a_list_names_no_list_index(self) -> None:
        row = {"question": "<image 101>?", "options": ["x", "y"], "answer": "A"}
        (subset,) = parse_upload("q.jsonl", jsonl(row), "general_vmcq")
        assert subset.warnings == [
            "line 1: <image 101> is past image_100, the last image column, and the row has no "
            "images list; placeholder dropped"
        ]

    def test_image_101_from_the_images_list(self) -> None:
        row = {
            "question": "<image 101>?",
            "options": ["x", "y"],
            "answer": "A",
            "images": [data_url(PNG)] * 100 + [data_url(JPEG, "image/jpeg")],
        }
        (subset,) = parse_upload("q.jsonl", jsonl(row), "general_vmcq")
        content = subset.rows[0].messages[0]["content"]
        assert content[1] == image_part(data_url(JPEG, "image/jpeg"))
        short = {**row, "images": [data_url(PNG)]}
        (subset,) = parse_upload("q.jsonl", jsonl(short), "general_vmcq")
        assert subset.warnings == [
            "line 1: <image 101> has no images[100] value (the images list has length 1); "
            "placeholder dropped"
        ]

    def test_python_literal_options_and_split_suffix(self) -> None:
        table = "question,options,answer\nPick one,\"['x', 'y']\",b\n"
        (subset,) = parse_upload("quiz_val.csv", table.encode(), "general_vmcq")
        assert subset.name == "quiz"
        assert (subset.rows[0].options, subset.rows[0].answer) == (["x", "y"], "B")
        text = subset.rows[0].messages[0]["content"][0]["text"]
        assert text == mcq_prompt("Pick one", ["x", "y"], ["A", "B"])

    def test_multiline_cell_keeps_the_row_start_line(self) -> None:
        table = 'question,options,answer\n"two\nlines",[1],A\nnext,[1],Z\n'
        error = refused("q.csv", table.encode(), "general_vmcq")
        assert (error.line, error.field) == (4, "answer")
        assert error.message == "'Z' is not one of the labels A"

    def test_missing_question_column(self) -> None:
        error = refused("q.csv", b"options,answer\n[1],A\n", "general_vmcq")
        assert (error.line, error.field) == (2, "question")

    def test_video_placeholder_refused(self) -> None:
        row = {"question": "Q", "options": ["<video 1>", "b"], "answer": "A"}
        error = refused("q.jsonl", jsonl(row), "general_vmcq")
        assert (error.field, error.message) == ("options[0]", "video is not supported yet")


def vlmeval_table(header: list[str], *rows: list[str]) -> bytes:
    return "\n".join("\t".join(cells) for cells in [header, *rows]).encode() + b"\n"


class TestVlmeval:
    def test_mcq_with_a_base64_image(self) -> None:
        header = ["index", "category", "question", "A", "B", "C", "D", "answer", "image"]
        table = vlmeval_table(
            header, ["7", "colour", "Colour?", "red", "blue", "", "", "a", b64(PNG)]
        )
        (subset,) = parse_upload("mmb.tsv", table, "vlmeval_mcq")
        row = subset.rows[0]
        assert (row.line, row.answer, row.options, row.labels) == (
            2,
            "A",
            ["red", "blue"],
            ["A", "B"],
        )
        assert row.extra == {"index": "7", "category": "colour"}
        image, text = row.messages[0]["content"]
        assert image == image_part(data_url(PNG))
        assert text == {"type": "text", "text": mcq_prompt("Colour?", ["red", "blue"], ["A", "B"])}

    def test_mcq_absolute_image_path_found_by_its_tail_in_the_zip(self) -> None:
        header = ["index", "question", "A", "B", "answer", "image_path"]
        table = vlmeval_table(header, ["1", "Q", "x", "y", "B", "/root/LMUData/images/1.png"])
        upload = zip_of({"bench/mmb.tsv": table, "images/1.png": PNG})
        (subset,) = parse_upload("u.zip", upload, "vlmeval_mcq")
        assert subset.name == "mmb"
        assert subset.rows[0].messages[0]["content"][0] == image_part(data_url(PNG))

    def test_vqa_with_a_relative_image_path(self) -> None:
        table = vlmeval_table(
            ["index", "question", "answer", "image_path"], ["3", "What?", "cat", "c.jpg"]
        )
        (subset,) = parse_upload("u.zip", zip_of({"v.tsv": table, "c.jpg": JPEG}), "vlmeval_vqa")
        row = subset.rows[0]
        assert (row.kind, row.answer, row.labels, row.extra) == ("vqa", "cat", None, {"index": "3"})
        assert row.messages == [
            {
                "role": "user",
                "content": [
                    image_part(data_url(JPEG, "image/jpeg")),
                    {"type": "text", "text": "What?"},
                ],
            }
        ]

    def test_base64_cell_beyond_the_default_csv_field_limit(self) -> None:
        big = PNG + bytes(300_000)
        table = vlmeval_table(["index", "question", "answer", "image"], ["1", "Q", "a", b64(big)])
        (subset,) = parse_upload("v.tsv", table, "vlmeval_vqa")
        assert subset.rows[0].messages[0]["content"][0] == image_part(data_url(big))

    def test_image_cell_naming_another_rows_index(self) -> None:
        header = ["index", "question", "answer", "image"]
        table = vlmeval_table(header, ["1", "Q1", "a", b64(PNG)], ["2", "Q2", "b", "1"])
        (subset,) = parse_upload("v.tsv", table, "vlmeval_vqa")
        assert subset.rows[1].messages[0]["content"][0] == image_part(data_url(PNG))

    def test_bad_base64_image_refused(self) -> None:
        table = vlmeval_table(
            ["index", "question", "answer", "image"], ["1", "Q", "a", "@@not base64@@"]
        )
        error = refused("v.tsv", table, "vlmeval_vqa")
        assert (error.line, error.field) == (2, "image") and "invalid base64" in error.message

    def test_image_path_outside_a_zip_refused(self) -> None:
        table = vlmeval_table(
            ["index", "question", "answer", "image_path"], ["1", "Q", "a", "/x/1.png"]
        )
        assert refused("v.tsv", table, "vlmeval_vqa").field == "image_path"

    def test_answer_must_be_an_option_label(self) -> None:
        table = vlmeval_table(
            ["index", "question", "A", "B", "answer", "image"], ["1", "Q", "x", "y", "C", b64(PNG)]
        )
        assert refused("m.tsv", table, "vlmeval_mcq").field == "answer"

    def test_jsonl_refused(self) -> None:
        assert "not JSONL" in refused("m.jsonl", b"{}\n", "vlmeval_mcq").message


class TestParseUpload:
    def test_duplicate_subset_names_refused(self) -> None:
        rows = jsonl(user({"type": "text", "text": "hi"}))
        error = refused("u.zip", zip_of({"a/x.jsonl": rows, "b/x_test.jsonl": rows}))
        assert "subset 'x' is also given by a/x.jsonl" in error.message

    def test_too_many_members_refused(self) -> None:
        upload = zip_of({f"m{i}.txt": "" for i in range(4)})
        assert "at most 3" in refused("u.zip", upload, max_members=3).message

    def test_oversize_refused_before_reading(self) -> None:
        upload = zip_of({"x.jsonl": jsonl(user({"type": "text", "text": "x" * 500}))})
        error = refused("u.zip", upload, max_uncompressed_bytes=100)
        assert (error.file, error.line) == ("u.zip", None) and "at most 100" in error.message

    def test_macos_forks_and_dotfiles_ignored(self) -> None:
        rows = jsonl(user({"type": "text", "text": "hi"}))
        upload = zip_of({"x.jsonl": rows, "__MACOSX/._x.jsonl": b"\0", ".hidden/y.jsonl": b"{"})
        assert [subset.name for subset in parse_upload("u.zip", upload, "general_vqa")] == ["x"]

    @pytest.mark.parametrize("member", ["../evil.jsonl", "data/../../evil.png", "/abs.png"])
    def test_member_outside_the_archive_refused(self, member: str) -> None:
        rows = jsonl(user({"type": "text", "text": "hi"}))
        error = refused("u.zip", zip_of({"x.jsonl": rows, member: PNG}))
        assert (error.file, error.line) == (member, None)
        assert f"member {member!r} points outside the archive" in error.message

    def test_zip_without_a_data_file_refused(self) -> None:
        assert "holds no .jsonl" in refused("u.zip", zip_of({"a.png": PNG})).message

    def test_not_a_zip_refused(self) -> None:
        assert "not a readable zip" in refused("u.zip", b"PK nonsense").message

    def test_unsupported_extension_refused(self) -> None:
        assert "unsupported file type '.parquet'" in refused("x.parquet", b"").message
