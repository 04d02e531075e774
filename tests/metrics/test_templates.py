"""OpenAI Evals templates: paths, indexes, JSON insertion, messages, images, the sample."""

import json
import re

import pytest

from app.metrics._templates import (
    MAX_TEMPLATE_CHARS,
    MAX_TEMPLATE_PLACEHOLDERS,
    ImageUnavailable,
    TemplateError,
    UnsupportedContent,
    as_text,
    build_sample,
    check_template,
    flatten,
    image_url_templates,
    image_urls,
    message_templates,
    render_messages,
    render_template,
    resolve,
    template_paths,
)

ITEM = {
    "question": "What is 2+2?",
    "answer": "4",
    "meta": {"lang": "en", "tags": ["math", "easy"], "level": 3, "ok": True, "none": None},
    "chart_url": "https://example.test/chart.png",
}
SAMPLE = {
    "output_text": '{"email": "a@b.c"}',
    "output_json": {"email": "a@b.c"},
    "output_tools": [{"id": "call_1", "function": {"name": "lookup", "arguments": "{}"}}],
}
NS = {"item": ITEM, "sample": SAMPLE}
PNG = "data:image/png;base64,iVBORw0KGgo="


class TestRenderTemplate:
    def test_whitespace_inside_braces_is_allowed(self) -> None:
        assert render_template("{{item.answer}}|{{ item.answer }}|{{  item.answer\t}}", NS) == (
            "4|4|4"
        )

    def test_text_outside_braces_is_left_alone(self) -> None:
        text = "Q: {{ item.question }} { not } {single} }} {{"
        assert render_template(text, NS) == "Q: What is 2+2? { not } {single} }} {{"

    def test_nested_paths_and_indexes(self) -> None:
        assert render_template("{{ item.meta.lang }}", NS) == "en"
        assert render_template("{{ item.meta.tags[1] }}", NS) == "easy"
        assert render_template("{{ sample.output_tools[0].function.name }}", NS) == "lookup"
        assert render_template("{{ sample.output_json.email }}", NS) == "a@b.c"

    def test_non_strings_are_compact_json_and_null_is_empty(self) -> None:
        assert render_template("{{ item.meta.level }}", NS) == "3"
        assert render_template("{{ item.meta.ok }}", NS) == "true"
        assert render_template("[{{ item.meta.none }}]", NS) == "[]"
        assert render_template("{{ item.meta.tags }}", NS) == '["math","easy"]'
        rendered = render_template("{{ item.meta }}", NS)
        assert json.loads(rendered) == ITEM["meta"] and " " not in rendered

    def test_strings_are_inserted_raw(self) -> None:
        ns = {"item": {"quote": 'say "hi"\nnow'}}
        assert render_template("{{ item.quote }}", ns) == 'say "hi"\nnow'

    @pytest.mark.parametrize(
        "path",
        [
            "item.missing",
            "item.meta.tags[2]",
            "item.meta.lang[0]",
            "item.answer.x",
            "sample.output_tools[0].function.nope",
            "other.x",
            "item..x",
            "item.meta tags",
        ],
    )
    def test_unresolvable_path_names_the_path(self, path: str) -> None:
        with pytest.raises(TemplateError) as raised:
            render_template(f"before {{{{ {path} }}}} after", NS)
        assert raised.value.path == path
        assert raised.value.type == "template_variable_missing"
        assert path in raised.value.message

    def test_sample_missing_for_the_row(self) -> None:
        with pytest.raises(TemplateError, match="no sample"):
            render_template("{{ sample.output_text }}", {"item": ITEM})


def template_paths_or_error(template: str, lazy: re.Pattern | None = None) -> list[str] | str:
    if lazy is None:
        try:
            return template_paths(template)
        except TemplateError as error:
            return error.message
    paths = []
    for match in lazy.finditer(template):
        try:
            paths += template_paths("{{" + match.group(1) + "}}")
        except TemplateError as error:
            return error.message
    return paths


class TestUnclosedBraces:
    """The linear scan finds exactly what the lazy regex it replaced found."""

    LAZY = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)

    def test_a_long_run_of_unclosed_braces_is_text(self) -> None:
        # The lazy regex rescanned to the end for each `{{`: 200,000 of them never finished.
        template = "{{" * 200_000
        assert render_template(template, NS) == template
        assert template_paths(template) == []
        assert render_template("{{ item.answer }}" + template, NS) == "4" + template

    @pytest.mark.parametrize(
        "template",
        [
            "{{item.answer}}}",
            "{{{item.answer}}",
            "{{ item.answer }}{{}}",
            "{{}}",
            "}}{{ item.answer }}{{",
            "{{ {{ item.answer }}",
            "a{{item.answer\n}}b{{ item.meta.lang }}c }} {{",
            "{{item.answer}}}}}{{item.question}}",
        ],
    )
    def test_same_matches_as_the_lazy_regex(self, template: str) -> None:
        def lazy_render(namespaces: dict) -> str:
            # render_template as it was before the linear scan.
            return self.LAZY.sub(lambda m: as_text(resolve(m.group(1), namespaces)), template)

        for namespaces in (NS, {"item": {}}):
            try:
                expected = lazy_render(namespaces)
            except TemplateError as error:
                with pytest.raises(TemplateError) as raised:
                    render_template(template, namespaces)
                assert raised.value.message == error.message
            else:
                assert render_template(template, namespaces) == expected
        assert template_paths_or_error(template) == template_paths_or_error(template, self.LAZY)

    def test_lengths_and_placeholders_are_bounded(self) -> None:
        assert check_template("x" * MAX_TEMPLATE_CHARS) == "x" * MAX_TEMPLATE_CHARS
        with pytest.raises(ValueError, match="at most 1,000,000 characters"):
            check_template("x" * (MAX_TEMPLATE_CHARS + 1))
        most = "{{ item.a }}" * MAX_TEMPLATE_PLACEHOLDERS
        assert check_template(most + "{{" * 1000) == most + "{{" * 1000
        with pytest.raises(ValueError, match="placeholders"):
            check_template(most + "{{ item.a }}")


class TestTemplatePaths:
    def test_paths_in_order(self) -> None:
        text = "{{ item.a }} and {{sample.output_tools[0].function.name}} {{ item }}"
        assert template_paths(text) == ["item.a", "sample.output_tools[0].function.name", "item"]
        assert template_paths("no templates") == []

    @pytest.mark.parametrize("path", ["inputs.x", "item.a b", "item[x]", "", "1.x"])
    def test_malformed_or_foreign_paths(self, path: str) -> None:
        with pytest.raises(TemplateError):
            template_paths(f"{{{{ {path} }}}}")

    def test_message_templates(self) -> None:
        messages = [
            {"role": "user", "content": "A {{ item.a }}"},
            {
                "role": "user",
                "content": [
                    "B",
                    {"type": "input_text", "text": "{{ item.b }}"},
                    {"type": "input_image", "image_url": "{{ item.url }}"},
                    {"type": "input_audio", "input_audio": {"data": "x", "format": "wav"}},
                ],
            },
        ]
        assert message_templates(messages) == [
            "A {{ item.a }}",
            "B",
            "{{ item.b }}",
            "{{ item.url }}",
        ]


class TestRenderMessages:
    def test_string_and_text_parts(self) -> None:
        messages = [
            {"role": "developer", "content": "Grade {{ item.meta.lang }} answers."},
            {"role": "user", "content": {"type": "input_text", "text": "Q: {{item.question}}"}},
            {
                "role": "assistant",
                "type": "message",
                "content": [{"type": "output_text", "text": "{{ sample.output_text }}"}, "ok"],
            },
        ]
        assert render_messages(messages, NS) == [
            {"role": "system", "content": "Grade en answers."},
            {"role": "user", "content": "Q: What is 2+2?"},
            {"role": "assistant", "content": '{"email": "a@b.c"}\nok'},
        ]

    def test_image_is_sent_as_the_ingested_part(self) -> None:
        ingested = {"type": "image_url", "image_url": {"url": PNG}, "sha256": "ab"}
        messages = [
            {
                "role": "user",
                "content": [
                    "Chart:",
                    {"type": "input_image", "image_url": "{{ item.chart_url }}", "detail": "low"},
                    {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                ],
            }
        ]
        rendered = render_messages(messages, NS, {ITEM["chart_url"]: ingested})
        assert rendered == [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Chart:"},
                    {
                        "type": "image_url",
                        "image_url": {"url": PNG, "detail": "low"},
                        "sha256": "ab",
                    },
                    {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                ],
            }
        ]
        # The mapping's own part is not changed by the detail.
        assert ingested["image_url"] == {"url": PNG}
        assert flatten(rendered) == [
            {"role": "user", "content": "Chart:\n<image_url>\n<input_audio>"}
        ]

    def test_responses_original_detail_is_sent_as_high(self) -> None:
        part = {"type": "input_image", "image_url": PNG, "detail": "original"}
        ingested = {"type": "image_url", "image_url": {"url": PNG}}
        (message,) = render_messages([{"role": "user", "content": [part]}], NS, {PNG: ingested})
        assert message["content"][0]["image_url"] == {"url": PNG, "detail": "high"}

    def test_image_not_ingested_is_unavailable(self) -> None:
        messages = [
            {
                "role": "user",
                "content": [{"type": "input_image", "image_url": "{{item.chart_url}}"}],
            }
        ]
        with pytest.raises(ImageUnavailable) as raised:
            render_messages(messages, NS, {"https://other.test/x.png": {}})
        assert raised.value.type == "image_unavailable"
        with pytest.raises(ImageUnavailable):
            render_messages(messages, NS)

    def test_unsupported_parts(self) -> None:
        for part in (
            {"type": "input_file", "file_id": "file_1"},
            {"type": "input_image", "file_id": "file_1", "detail": "auto"},
        ):
            with pytest.raises(UnsupportedContent):
                render_messages([{"role": "user", "content": [part]}], NS)

    def test_missing_path_in_a_message(self) -> None:
        with pytest.raises(TemplateError) as raised:
            render_messages([{"role": "user", "content": "{{ item.nope }}"}], NS)
        assert raised.value.path == "item.nope"


class TestImageListing:
    MESSAGES = [
        {"role": "system", "content": "Look."},
        {
            "role": "user",
            "content": [
                {"type": "input_image", "image_url": "{{ item.chart_url }}"},
                {"type": "input_text", "text": "and"},
                {"type": "input_image", "image_url": PNG},
            ],
        },
        {"role": "user", "content": {"type": "input_image", "image_url": "{{item.chart_url}}"}},
    ]

    def test_templates_in_order(self) -> None:
        assert image_url_templates(self.MESSAGES) == [
            "{{ item.chart_url }}",
            PNG,
            "{{item.chart_url}}",
        ]

    def test_rendered_urls_once_each(self) -> None:
        assert image_urls(self.MESSAGES, {"item": ITEM}) == [ITEM["chart_url"], PNG]

    def test_rendered_url_missing_path(self) -> None:
        with pytest.raises(TemplateError):
            image_urls(self.MESSAGES, {"item": {}})


class TestBuildSample:
    def test_from_a_completion(self) -> None:
        tool_calls = [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
        ]
        completion = {
            "model": "gpt-test-2025",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": '{"a": [1, 2]}',
                        "tool_calls": tool_calls,
                    },
                    "finish_reason": "stop",
                }
            ],
        }
        sample = build_sample(completion=completion)
        assert sample == {
            "output_text": '{"a": [1, 2]}',
            "output_tools": tool_calls,
            "choices": completion["choices"],
            "model": "gpt-test-2025",
            "output_json": {"a": [1, 2]},
        }
        assert render_template("{{ sample.output_json.a[1] }}", {"sample": sample}) == "2"

    def test_plain_text_has_no_output_json(self) -> None:
        completion = {"model": "m", "choices": [{"message": {"content": "Paris"}}]}
        sample = build_sample(completion=completion)
        assert sample["output_text"] == "Paris" and "output_json" not in sample
        assert sample["output_tools"] == []
        with pytest.raises(TemplateError):
            render_template("{{ sample.output_json }}", {"sample": sample})

    def test_null_content_is_empty_text(self) -> None:
        sample = build_sample(
            completion={"model": "m", "choices": [{"message": {"content": None}}]}
        )
        assert sample["output_text"] == ""

    def test_from_a_row(self) -> None:
        row = {"output_text": "[1, 2]", "extra": {"x": 1}}
        sample = build_sample(row_sample=row)
        assert sample == {"output_text": "[1, 2]", "extra": {"x": 1}, "output_json": [1, 2]}
        assert "output_json" not in row
        # A row's own output_json stands.
        assert build_sample(row_sample={"output_text": "1", "output_json": {"k": 2}}) == {
            "output_text": "1",
            "output_json": {"k": 2},
        }

    def test_output_text_nested_too_deep_is_not_json(self) -> None:
        # Past Python's recursion limit json.loads raised RecursionError: a 500 at run create.
        deep = "[" * 3000 + "]" * 3000
        assert build_sample(row_sample={"output_text": deep}) == {"output_text": deep}
        # Within it but past Loupe's limit of 64 levels: not JSON either.
        too_deep = "[" * 65 + "]" * 65
        assert "output_json" not in build_sample(row_sample={"output_text": too_deep})
        deepest = "[" * 64 + "]" * 64
        assert build_sample(row_sample={"output_text": deepest})["output_json"] == json.loads(
            deepest
        )

    def test_exactly_one_source(self) -> None:
        with pytest.raises(ValueError):
            build_sample()
        with pytest.raises(ValueError):
            build_sample(completion={}, row_sample={})
