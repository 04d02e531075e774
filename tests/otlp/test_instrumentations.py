"""The real instrumentations of the openai client, exported over OTLP/HTTP, read into calls.

An application calls the scripted model with a system message and a user message of text plus
a PNG; each instrumentation exports through the official OTLP/HTTP exporter (protobuf) to a
loopback capture, and app.otlp decodes the bodies and maps them to judged calls.
"""

import base64
from collections.abc import Iterator

import pytest

from app.otlp import (
    Image,
    JudgedCall,
    Skipped,
    SkipReason,
    Text,
    decode_logs,
    decode_traces,
    judged_calls,
)
from tests.fixtures.judge import ScriptedJudge
from tests.otlp.capture import (
    ANSWER,
    QUESTION,
    SYSTEM,
    Capture,
    ask_about_image,
    ask_text,
    capture_server,
    data_url,
    instrumented,
    red_square_png,
)


@pytest.fixture
def model(judge: ScriptedJudge) -> ScriptedJudge:
    judge.script(lambda request: ANSWER)
    return judge


@pytest.fixture
def capture() -> Iterator[Capture]:
    with capture_server() as server:
        yield server


def _received(capture: Capture) -> list[JudgedCall | Skipped]:
    spans = [
        span
        for export in capture.bodies("/v1/traces")
        for span in decode_traces(export.body, export.content_type, export.content_encoding)
    ]
    logs = [
        record
        for export in capture.bodies("/v1/logs")
        for record in decode_logs(export.body, export.content_type, export.content_encoding)
    ]
    return judged_calls(spans, logs)


def _texts(call: JudgedCall) -> list[tuple[str, str]]:
    return [(message.role, message.text) for message in call.input_messages]


class TestOfficialOpenAIV2:
    def test_a_text_call_is_read_from_the_span(self, model: ScriptedJudge, capture: Capture):
        with instrumented("official", capture):
            ask_text(model.base_url, "Hello?")

        [call] = _received(capture)

        assert isinstance(call, JudgedCall)
        assert call.convention == "gen_ai.semconv"
        assert call.service_name == "app-official"
        assert (call.model, call.operation, call.provider) == ("gpt-4o-mini", "chat", "openai")
        assert _texts(call) == [("system", SYSTEM), ("user", "Hello?")]
        assert call.output_text == ANSWER
        assert call.output_messages[0].finish_reason == "stop"
        assert len(call.trace_id) == 32 and len(call.span_id) == 16

    def test_content_only_in_the_details_log_record_is_joined_by_span_id(
        self, model: ScriptedJudge, capture: Capture
    ):
        with instrumented("official", capture, official_mode="EVENT_ONLY"):
            ask_text(model.base_url, "Hello?")
        spans = [
            span
            for export in capture.bodies("/v1/traces")
            for span in decode_traces(export.body, export.content_type)
        ]
        assert "gen_ai.input.messages" not in spans[0].attributes

        [call] = _received(capture)

        assert isinstance(call, JudgedCall)
        assert _texts(call) == [("system", SYSTEM), ("user", "Hello?")]
        assert call.output_text == ANSWER
        # Without the log records the span alone has no content.
        [alone] = judged_calls(spans)
        assert isinstance(alone, Skipped) and alone.reason == SkipReason.NO_CONTENT

    def test_an_image_call_is_counted_as_withheld(self, model: ScriptedJudge, capture: Capture):
        with instrumented("official", capture):
            ask_about_image(model.base_url, data_url(red_square_png()))

        [skipped] = _received(capture)

        # 2.4b0 turns list content into `parts: []`, dropping the question with the image.
        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.IMAGE_WITHHELD
        assert "openai-v2" in skipped.detail
        assert skipped.attributes["gen_ai.request.model"] == "gpt-4o-mini"


class TestOpenInference:
    def test_the_image_arrives_as_a_data_url(self, model: ScriptedJudge, capture: Capture):
        png = red_square_png()
        with instrumented("openinference", capture):
            ask_about_image(model.base_url, data_url(png))

        [call] = _received(capture)

        assert isinstance(call, JudgedCall)
        assert call.convention == "openinference"
        assert call.model == "gpt-4o-mini"
        assert call.operation == "chat"
        assert _texts(call) == [("system", SYSTEM), ("user", QUESTION)]
        assert call.input_messages[1].parts[0] == Text(QUESTION)
        assert call.images == (Image("data_url", data_url(png), "image/png"),)
        assert call.output_text == ANSWER

    def test_an_image_over_its_length_limit_is_counted_as_withheld(
        self, model: ScriptedJudge, capture: Capture
    ):
        # OpenInference redacts data URLs over 32,000 characters to "__REDACTED__".
        oversized = "data:image/png;base64," + base64.b64encode(bytes(30_000)).decode()
        with instrumented("openinference", capture):
            ask_about_image(model.base_url, oversized)

        [skipped] = _received(capture)

        assert isinstance(skipped, Skipped)
        assert skipped.reason == SkipReason.IMAGE_WITHHELD


class TestOpenLLMetry:
    def test_the_image_arrives_as_a_blob_part(self, model: ScriptedJudge, capture: Capture):
        png = red_square_png()
        with instrumented("openllmetry", capture):
            ask_about_image(model.base_url, data_url(png))

        [call] = _received(capture)

        assert isinstance(call, JudgedCall)
        assert call.convention == "gen_ai.semconv"
        assert _texts(call) == [("system", SYSTEM), ("user", QUESTION)]
        image = Image("blob", base64.b64encode(png).decode(), "image/png")
        assert call.images == (image,)
        assert image.url == data_url(png)
        assert call.output_text == ANSWER

    def test_gzip_exports_decode(self, model: ScriptedJudge, capture: Capture):
        with instrumented("openllmetry", capture, compression="gzip"):
            ask_text(model.base_url, "Hello?")

        assert {export.content_encoding for export in capture.bodies("/v1/traces")} == {"gzip"}
        [call] = _received(capture)

        assert isinstance(call, JudgedCall)
        assert _texts(call) == [("system", SYSTEM), ("user", "Hello?")]


def test_each_instrumentation_is_removed_after_use(model: ScriptedJudge, capture: Capture):
    for which in ("official", "openinference", "openllmetry"):
        with instrumented(which, capture):
            pass
    ask_text(model.base_url, "Hello?")

    assert capture.exports == []
