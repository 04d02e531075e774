"""Eval runs as the SDK creates and reads them, on both backends: the run object's links and
echoes, the sample namespace graders see, and the samples output items show."""

import json
from typing import Any

import openai
import pytest

from tests.console.helpers import signed_in
from tests.evals.helpers import CRITERIA, ROWS, create_eval, grading, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge
from tests.runs.helpers import CANDIDATE, register_model


def completions(template: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    rows = [{"item": dict(row["item"])} for row in ROWS[:2]]
    return {
        "type": "completions",
        "model": CANDIDATE,
        "source": {"type": "file_content", "content": rows},
        "input_messages": {"type": "template", "template": template},
        **more,
    }


QUESTION = [{"role": "user", "content": "{{ item.question }}"}]


class TestReportUrl:
    def test_it_opens_the_runs_console_page(self, api: Api, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert run.report_url == f"{api.base_url}/console/evaluations/{run.id}"
        wait(api, client, ev.id, run.id)
        path = run.report_url.removeprefix(api.base_url)
        with api.client() as browser:
            # Signed out, a browser is sent to sign in, then back here.
            redirect = browser.get(path)
            assert redirect.status_code in (302, 303, 307)
            assert "/console/sign-in" in redirect.headers["location"]
        browser = signed_in(api, client.api_key)
        try:
            page = browser.get(path)
        finally:
            browser.close()
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert run.id in page.text


class TestSampleNamespace:
    def test_jsonl_rows_get_output_json_from_output_text(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        criterion = {
            "type": "string_check",
            "name": "json field",
            "operation": "eq",
            "input": "{{ sample.output_json.answer }}",
            "reference": "{{ item.answer }}",
        }
        ev = create_eval(client, [criterion])
        rows = [
            {"item": ROWS[0]["item"], "sample": {"output_text": '{"answer": "Paris"}'}},
            {"item": ROWS[1]["item"], "sample": {"output_text": '{"answer": "5"}'}},
            # A row that sets output_json itself keeps it.
            {
                "item": ROWS[2]["item"],
                "sample": {"output_text": "Blue", "output_json": {"answer": "Blue"}},
            },
        ]
        source = {"type": "file_content", "content": rows}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        assert final.result_counts.model_dump() == {
            "total": 3, "errored": 0, "failed": 1, "passed": 2,
        }  # fmt: skip
        items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
        assert [i.status for i in items] == ["pass", "fail", "pass"]


class TestCompletionsTemplate:
    @pytest.mark.parametrize(
        "part",
        [
            {"type": "input_file", "file_id": "file-abc"},
            {"type": "input_image", "file_id": "file-abc", "detail": "auto"},
            {"type": "input_video", "video_url": "https://example.test/v.mp4"},
        ],
    )
    def test_parts_loupe_cannot_send_are_refused_at_create(
        self, client: openai.OpenAI, part: dict[str, Any]
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        template = [
            {"role": "developer", "content": "Answer in one word."},
            {"role": "user", "content": [{"type": "input_text", "text": "Hi"}, part]},
        ]
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=completions(template))  # type: ignore[arg-type]
        assert refused.value.code == "unsupported_content"
        assert refused.value.param == "data_source.input_messages.template[1].content[1]"
        # Nothing was stored: no run to fail row by row.
        assert client.evals.runs.list(ev.id).data == []

    @pytest.mark.parametrize(
        ("part", "field", "code"),
        [
            # Each was a 500 (a KeyError while the run's rows were taken in or rendered).
            (
                {"type": "input_audio", "input_audio": {"format": "wav"}},
                "input_audio",
                "unsupported_content",
            ),
            ({"type": "input_audio"}, "input_audio", "unsupported_content"),
            ({"type": "input_text"}, "text", "invalid_value"),
            ({"type": "output_text", "text": 5}, "text", "invalid_value"),
        ],
    )
    def test_a_part_without_its_content_is_refused_at_create(
        self, client: openai.OpenAI, part: dict[str, Any], field: str, code: str
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        template = [{"role": "user", "content": [{"type": "input_text", "text": "Hi"}, part]}]
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=completions(template))  # type: ignore[arg-type]
        assert refused.value.code == code
        assert refused.value.param == f"data_source.input_messages.template[0].content[1].{field}"
        assert client.evals.runs.list(ev.id).data == []

    @pytest.mark.parametrize(
        ("message", "param"),
        [
            (
                {"role": "user", "content": "{{ item.question }} {{ sample.output_text }}"},
                "data_source.input_messages.template[1].content",
            ),
            (
                {"role": "user", "content": [{"type": "input_text", "text": "{{ question }}"}]},
                "data_source.input_messages.template[1].content[0].text",
            ),
        ],
    )
    def test_a_placeholder_no_row_can_fill_is_refused_at_create(
        self, client: openai.OpenAI, message: dict[str, Any], param: str
    ) -> None:
        # The model is asked before any sample exists: only item.* can fill its messages.
        ev = create_eval(client, CRITERIA[:1])
        template = [{"role": "developer", "content": "Answer in one word."}, message]
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=completions(template))  # type: ignore[arg-type]
        assert refused.value.param == param
        assert "item" in refused.value.body["message"]
        assert client.evals.runs.list(ev.id).data == []


class TestOneAnswer:
    @pytest.mark.parametrize("path", ["runs", "runs/estimate"])
    def test_a_bad_name_and_an_unsupported_source_are_named_together(
        self, api: Api, client: openai.OpenAI, path: str
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        body = {
            "name": 5,
            "data_source": {"type": "responses", "source": {"type": "file_content"}},
        }
        refused = api.client(client.api_key).post(f"/v1/evals/{ev.id}/{path}", json=body)
        assert refused.status_code == 400, refused.text
        named = sorted(error["loc"] for error in refused.json()["errors"])
        assert named == ["data_source.source.content", "data_source.type", "name"]


class TestEveryBadRow:
    def test_every_row_that_is_not_a_row_is_named(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": [{"item": 1}, ROWS[0], {"sample": {}}]}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        errors = refused.value.response.json()["errors"]
        assert [error["pointer"] for error in errors] == [
            "/data_source/source/content/0/item",
            "/data_source/source/content/2/item",
        ]
        assert refused.value.body["message"].startswith("content[0]: ")

    def test_every_item_off_the_schema_is_named(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        off = [{**row, "item": {**row["item"], "answer": 4}} for row in ROWS[:3]]
        source = {"type": "file_content", "content": [off[0], ROWS[1], off[2]]}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        errors = refused.value.response.json()["errors"]
        assert [error["loc"] for error in errors] == [
            "data_source.source.content[0].item.answer",
            "data_source.source.content[2].item.answer",
        ]
        assert refused.value.code == "item_schema_mismatch"

    def test_every_bad_line_of_a_file_is_named(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        off = {**ROWS[0], "item": {"question": "no answer"}}
        lines = [json.dumps(row) for row in (off, ROWS[1], off, off)]
        uploaded = client.files.create(
            file=("off.jsonl", "\n".join(lines).encode()), purpose="evals"
        )  # type: ignore[arg-type]
        source = {"type": "file_id", "id": uploaded.id}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        named = [error["msg"].split(":")[0] for error in refused.value.response.json()["errors"]]
        assert named == ["file line 1", "file line 3", "file line 4"]


class TestEmbeddingUsage:
    def test_a_cosine_graders_calls_are_counted_as_the_embedding_models(
        self, api: Api, client: openai.OpenAI
    ) -> None:
        cosine = {
            "type": "text_similarity",
            "name": "cosine",
            "evaluation_metric": "cosine",
            "pass_threshold": 0.5,
            "input": "{{ sample.output_text }}",
            "reference": "{{ item.answer }}",
        }
        ev = create_eval(client, [cosine])
        source = {"type": "file_content", "content": ROWS[:2]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        final = wait(api, client, ev.id, run.id)
        embedding = api.settings.embedding_model
        assert [(u.model_name, u.invocation_count) for u in final.per_model_usage] == [
            (embedding, 2)
        ]
        with api.client(client.api_key) as http:
            usage = http.get("/v1/usage", params={"group_by": "model"}).json()
        assert [(day["key"], day["judge"]["calls"]) for day in usage["data"]] == [(embedding, 2)]
        # Not priced as the judge's chat model (which has a price; the embedding model none).
        assert usage["judge"]["cost_usd"] is None


class TestEcho:
    def test_template_and_token_spelling_come_back_as_the_sdk_reads_them(
        self, client: openai.OpenAI
    ) -> None:
        ev = create_eval(client, CRITERIA[:1])
        template = [
            {"role": "developer", "content": "Answer in one word."},
            {"role": "user", "content": [{"type": "input_text", "text": "{{ item.question }}"}]},
        ]
        params = {"max_completions_tokens": 20, "temperature": 0}
        source = completions(template, sampling_params=params)
        created = client.evals.runs.create(ev.id, data_source=source)  # type: ignore[arg-type]
        retrieved = client.evals.runs.retrieve(created.id, eval_id=ev.id)
        for run in (created, retrieved):
            echoed = run.data_source.to_dict()
            assert echoed["input_messages"]["template"] == [
                {
                    "type": "message",
                    "role": "developer",
                    "content": {"type": "input_text", "text": "Answer in one word."},
                },
                {"type": "message", **template[1]},
            ]
            assert echoed["sampling_params"] == {"max_completion_tokens": 20, "temperature": 0}
            assert run.data_source.sampling_params.max_completion_tokens == 20


class TestSampling:
    def test_openais_defaults_reach_the_model_and_the_sample(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        with api.client(client.api_key) as loupe:
            register_model(loupe, judge.base_url)
        ev = create_eval(client, CRITERIA[:1])
        run = client.evals.runs.create(ev.id, data_source=completions(QUESTION))  # type: ignore[arg-type]
        wait(api, client, ev.id, run.id)
        sampled = [r for r in judge.requests if r.get("model") == CANDIDATE]
        assert len(sampled) == 2
        assert all((r["temperature"], r["top_p"], r["seed"]) == (1, 1, 42) for r in sampled)
        assert all("max_tokens" not in r for r in sampled)
        for item in client.evals.runs.output_items.list(run.id, eval_id=ev.id):
            sample = item.sample
            used = (sample.temperature, sample.top_p, sample.seed, sample.max_completion_tokens)
            assert used == (1, 1, 42, None)

    def test_given_values_replace_the_defaults_one_by_one(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(grading)
        with api.client(client.api_key) as loupe:
            register_model(loupe, judge.base_url)
        ev = create_eval(client, CRITERIA[:1])
        params = {"temperature": 0, "max_completions_tokens": 20, "seed": None}
        source = completions(QUESTION, sampling_params=params)
        run = client.evals.runs.create(ev.id, data_source=source)  # type: ignore[arg-type]
        wait(api, client, ev.id, run.id)
        sampled = [r for r in judge.requests if r.get("model") == CANDIDATE]
        assert all(
            (r["temperature"], r["top_p"], r["seed"], r["max_tokens"]) == (0, 1, 42, 20)
            for r in sampled
        )
        item = next(iter(client.evals.runs.output_items.list(run.id, eval_id=ev.id)))
        used = (item.sample.temperature, item.sample.top_p, item.sample.seed)
        assert used == (0, 1, 42) and item.sample.max_completion_tokens == 20

    def test_a_jsonl_run_sampled_nothing(self, api: Api, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = {"type": "file_content", "content": ROWS[:1]}
        run = client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        wait(api, client, ev.id, run.id)
        item = next(iter(client.evals.runs.output_items.list(run.id, eval_id=ev.id)))
        assert (item.sample.temperature, item.sample.top_p, item.sample.seed) == (None,) * 3


def cached_replies(request: dict) -> Reply:
    """`grading`'s answers, the candidate's with 4 of its prompt tokens cached, a grader's 6."""
    answer = grading(request)
    content = answer.content if isinstance(answer, Reply) else json.dumps(answer)
    cached = 4 if request.get("model") == CANDIDATE else 6
    return Reply(content=content, cached_tokens=cached)


class TestCachedTokens:
    def test_output_items_show_the_cached_prompt_tokens_of_each_call(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        judge.script(cached_replies)
        with api.client(client.api_key) as loupe:
            register_model(loupe, judge.base_url)
        ev = create_eval(client, [CRITERIA[0], CRITERIA[3]])
        run = client.evals.runs.create(ev.id, data_source=completions(QUESTION))  # type: ignore[arg-type]
        wait(api, client, ev.id, run.id)
        for item in client.evals.runs.output_items.list(run.id, eval_id=ev.id):
            assert item.sample.usage.cached_tokens == 4
            assert item.results[1].sample["usage"]["cached_tokens"] == 6


BROKEN = "data:image/png;base64,AAAA"
LOOKS_AT_THE_IMAGE = [
    {"role": "user", "content": [{"type": "input_image", "image_url": "{{ item.image }}"}]}
]


def with_broken_image(position: int) -> list[dict[str, Any]]:
    rows = [{"item": dict(row["item"]), "sample": row["sample"]} for row in ROWS[:3]]
    rows[position]["item"]["image"] = BROKEN
    return rows


class TestImageErrors:
    def test_a_rows_bad_image_names_the_rows_field(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[2:3])
        source = {"type": "file_content", "content": with_broken_image(1)}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert refused.value.param == "data_source.source.content[1].item.image"
        assert refused.value.body["message"].startswith("data_source.source.content[1].item.image:")

    def test_a_bad_image_is_named_with_a_row_off_the_schema(self, client: openai.OpenAI) -> None:
        """The other rows' images are still read when one row does not match item_schema."""
        ev = create_eval(client, CRITERIA[2:3])
        rows = with_broken_image(1)
        rows[0]["item"]["answer"] = 4
        source = {"type": "file_content", "content": rows}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        named = [error["loc"] for error in refused.value.response.json()["errors"]]
        assert named == [
            "data_source.source.content[0].item.answer",
            "data_source.source.content[1].item.image",
        ]

    def test_a_row_that_is_no_item_hides_no_other_rows_faults(self, client: openai.OpenAI) -> None:
        """A row without "item" is named beside a row off the schema and a bad image."""
        ev = create_eval(client, CRITERIA[2:3])
        rows: list[Any] = with_broken_image(1)
        rows[0]["item"]["answer"] = 4
        rows.append({"sample": {}})
        source = {"type": "file_content", "content": rows}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        named = sorted(error["loc"] for error in refused.value.response.json()["errors"])
        assert named == [
            "data_source.source.content[0].item.answer",
            "data_source.source.content[1].item.image",
            f"data_source.source.content[{len(rows) - 1}].item",
        ]

    def test_a_files_bad_image_names_the_line(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[2:3])
        content = "\n\n".join(json.dumps(row) for row in with_broken_image(1)).encode()
        uploaded = client.files.create(file=("rows.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        source = {"type": "file_id", "id": uploaded.id}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert refused.value.param == "data_source.source.id.line[3].item.image"
        assert "file line 3, item.image: " in refused.value.body["message"]

    def test_every_bad_line_of_a_file_has_its_own_pointer(self, client: openai.OpenAI) -> None:
        """A line off the item_schema and another's bad image, in one answer, each at its line
        under the source's id (as /v1/files names an upload's lines); `param` is the first."""
        ev = create_eval(client, CRITERIA[2:3])
        rows = with_broken_image(1)
        rows[0]["item"]["answer"] = 4
        rows[2]["item"]["answer"] = 5
        content = "\n".join(json.dumps(row) for row in rows).encode()
        uploaded = client.files.create(file=("rows.jsonl", content), purpose="evals")  # type: ignore[arg-type]
        source = {"type": "file_id", "id": uploaded.id}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        errors = refused.value.response.json()["errors"]
        assert [(error["pointer"], error["msg"].split(":")[0]) for error in errors] == [
            ("/data_source/source/id/line/1/item/answer", "file line 1"),
            ("/data_source/source/id/line/3/item/answer", "file line 3"),
            ("/data_source/source/id/line/2/item/image", "file line 2, item.image"),
        ]
        assert refused.value.param == "data_source.source.id.line[1].item.answer"
        assert refused.value.code == "item_schema_mismatch"

    def test_a_candidate_templates_image_names_the_rows_field(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        source = completions(LOOKS_AT_THE_IMAGE)
        source["source"]["content"][1]["item"]["image"] = BROKEN
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=source)  # type: ignore[arg-type]
        assert refused.value.param == "data_source.source.content[1].item.image"

    def test_a_literal_url_names_where_it_was_written(self, client: openai.OpenAI) -> None:
        ev = create_eval(client, CRITERIA[:1])
        template = [
            {
                "role": "user",
                "content": [
                    {"type": "input_text", "text": "{{ item.question }}"},
                    {"type": "input_image", "image_url": BROKEN},
                ],
            }
        ]
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=completions(template))  # type: ignore[arg-type]
        assert refused.value.param == "data_source.input_messages.template[0].content[1].image_url"
        # A grader's literal URL: the eval holds it; the run that ingests it is refused.
        literal = {"role": "user", "content": [{"type": "input_image", "image_url": BROKEN}]}
        grader = {**CRITERIA[2], "input": [CRITERIA[2]["input"][0], literal]}
        ev = create_eval(client, [grader])
        source = {"type": "file_content", "content": ROWS[:1]}
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source={"type": "jsonl", "source": source})
        assert refused.value.param == "testing_criteria[0].input[1].content[0].image_url"

    def test_an_item_reference_names_the_part_inside_the_item(self, client: openai.OpenAI) -> None:
        schema = {"type": "object", "properties": {"messages": {"type": "array"}}}
        ev = client.evals.create(
            data_source_config={"type": "custom", "item_schema": schema},
            testing_criteria=[CRITERIA[0]],  # type: ignore[list-item]
        )
        messages = [{"role": "user", "content": [{"type": "input_image", "image_url": BROKEN}]}]
        source = {
            "type": "completions",
            "model": CANDIDATE,
            "source": {"type": "file_content", "content": [{"item": {"messages": messages}}]},
            "input_messages": {"type": "item_reference", "item_reference": "item.messages"},
        }
        with pytest.raises(openai.BadRequestError) as refused:
            client.evals.runs.create(ev.id, data_source=source)  # type: ignore[arg-type]
        assert (
            refused.value.param
            == "data_source.source.content[0].item.messages[0].content[0].image_url"
        )
