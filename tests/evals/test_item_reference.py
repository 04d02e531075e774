"""A completions run whose `input_messages` is an `item_reference`: the item's messages are
sent to the model as they are written (OpenAI: "a prebuilt trajectory"), never rendered as
templates, in the EvalItem shapes or in Chat Completions' own (tool calls, `text` and
`image_url` parts)."""

import base64
from typing import Any

import openai

from tests.datasets.test_endpoints import ask, audio, data_url, image, jsonl, rows_of
from tests.datasets.test_rows_submitted_again import unique_wav
from tests.evals.helpers import RED, grading, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge
from tests.media.test_own_urls import unique_png
from tests.runs.helpers import CANDIDATE, register_model, upload

ANSWERED = {
    "type": "string_check",
    "name": "answered",
    "operation": "ne",
    "input": "{{ sample.output_text }}",
    "reference": "",
}


def run_over(
    api: Api, client: openai.OpenAI, judge: ScriptedJudge, items: list[dict[str, Any]]
) -> tuple[Any, list[Any], list[dict]]:
    """The finished run over `items` (each sends its `messages`), its output items and the
    model's requests."""
    judge.script(grading)
    with api.client(client.api_key) as loupe:
        register_model(loupe, judge.base_url)
    schema = {"type": "object", "properties": {"messages": {"type": "array"}}}
    ev = client.evals.create(
        data_source_config={"type": "custom", "item_schema": schema, "include_sample_schema": True},
        testing_criteria=[ANSWERED],  # type: ignore[list-item]
    )
    run = client.evals.runs.create(
        ev.id,
        data_source={  # type: ignore[arg-type]
            "type": "completions",
            "model": CANDIDATE,
            "source": {"type": "file_content", "content": [{"item": item} for item in items]},
            "input_messages": {"type": "item_reference", "item_reference": "item.messages"},
        },
    )
    final = wait(api, client, ev.id, run.id)
    output_items = list(client.evals.runs.output_items.list(run.id, eval_id=ev.id))
    sampled = [r for r in judge.requests if r.get("model") == CANDIDATE]
    return final, output_items, sampled


class TestSentAsWritten:
    def test_braces_in_the_items_messages_are_text_not_templates(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        asked = [
            "In Mustache, what does {{ name }} print?",
            "Is {{ item.secret }} a Jinja expression?",
        ]
        items = [
            {"messages": [{"role": "user", "content": question}], "secret": "LEAKED"}
            for question in asked
        ]
        final, output_items, sampled = run_over(api, client, judge, items)
        assert final.result_counts.errored == 0, [i.sample.error for i in output_items]
        sent = sorted(request["messages"][0]["content"] for request in sampled)
        assert sent == sorted(asked)
        assert [i.sample.input[0].content for i in output_items] == asked

    def test_a_chat_completions_trajectory_keeps_its_tool_calls_and_parts(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        call = {
            "id": "call_1",
            "type": "function",
            "function": {"name": "capital", "arguments": "{}"},
        }
        trajectory = [
            {"role": "system", "content": "Use the tools."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Capital of France?"},
                    {"type": "image_url", "image_url": {"url": RED, "detail": "low"}},
                ],
            },
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "Paris"},
        ]
        final, output_items, sampled = run_over(api, client, judge, [{"messages": trajectory}])
        assert final.status == "completed"
        assert final.result_counts.errored == 0, output_items[0].sample.error
        (request,) = sampled
        system, user, assistant, tool = request["messages"]
        assert system == {"role": "system", "content": "Use the tools."}
        text, image = user["content"]
        assert text == {"type": "text", "text": "Capital of France?"}
        assert image["image_url"]["url"].startswith("data:image/png;base64,")
        assert image["image_url"]["detail"] == "low"
        assert assistant == {"role": "assistant", "content": None, "tool_calls": [call]}
        assert tool == {"role": "tool", "tool_call_id": "call_1", "content": "Paris"}
        shown = [(m.role, m.content) for m in output_items[0].sample.input]
        assert shown == [
            ("system", "Use the tools."),
            ("user", "Capital of France?\n<image_url>"),
            ("assistant", ""),
            ("tool", "Paris"),
        ]

    def test_a_dataset_row_read_back_is_sent_as_it_reads(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        picture, clip = unique_png(), unique_wav()
        row = ask(image(data_url(picture, "image/png")), audio(data_url(clip, "audio/wav")))
        with api.client(client.api_key) as loupe:
            response = upload(loupe, "rows.jsonl", jsonl(row), "general_vqa")
            assert response.status_code == 201, response.text
            [read] = rows_of(loupe, response.json()["id"])
        # This server's media URLs: the image's `url`, the clip's `input_audio.url`.
        _, shown, heard = read["messages"][0]["content"]
        assert (
            "/v1/media/" in shown["image_url"]["url"]
            and "/v1/media/" in heard["input_audio"]["url"]
        )

        final, output_items, sampled = run_over(
            api, client, judge, [{"messages": read["messages"]}]
        )
        assert final.result_counts.errored == 0, output_items[0].sample.error
        (request,) = sampled
        _, sent_image, sent_audio = request["messages"][0]["content"]
        assert base64.b64decode(sent_image["image_url"]["url"].split(",", 1)[1]) == picture
        assert base64.b64decode(sent_audio["input_audio"]["data"]) == clip
        assert sent_audio["input_audio"]["format"] == "wav"

    def test_a_clip_without_data_or_url_is_the_items_error(
        self, api: Api, client: openai.OpenAI, judge: ScriptedJudge
    ) -> None:
        clipless = {"type": "input_audio", "input_audio": {"format": "wav"}}
        messages = [{"role": "user", "content": [{"type": "text", "text": "Hear?"}, clipless]}]
        final, output_items, sampled = run_over(api, client, judge, [{"messages": messages}])
        assert final.status == "completed" and final.result_counts.errored == 1
        assert "input_audio (with its data or url)" in output_items[0].sample.error.message
        assert sampled == []
