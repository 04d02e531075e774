"""Each message convention mapped to a judged call, and every span that gives none to its reason."""

import json
from typing import Any

import pytest

from app.otlp import (
    Image,
    JudgedCall,
    Limits,
    LogRecord,
    Skipped,
    SkipReason,
    Span,
    SpanEvent,
    Text,
    ToolCall,
    ToolResult,
    judged_calls,
    model_of,
    operation_of,
)

TRACE = "0af7651916cd43dd8448eb211c80319c"
SPAN = "b7ad6b7169203331"
PNG_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
)
PNG_URL = f"data:image/png;base64,{PNG_B64}"


def _span(
    attributes: dict[str, Any],
    events: tuple[SpanEvent, ...] = (),
    *,
    trace_id: str = TRACE,
    span_id: str = SPAN,
    start_ns: int = 2_000,
    dropped: int = 0,
) -> Span:
    return Span(
        trace_id=trace_id,
        span_id=span_id,
        parent_span_id="",
        name="span",
        kind=3,
        start_ns=start_ns,
        end_ns=start_ns + 1_000,
        attributes=attributes,
        resource={"service.name": "shop"},
        scope_name="test",
        scope_version="",
        events=events,
        dropped_attributes=dropped,
    )


def _log(
    event_name: str, body: Any, attributes: dict[str, Any] | None = None, **ids: str
) -> LogRecord:
    return LogRecord(
        trace_id=ids.get("trace_id", TRACE),
        span_id=ids.get("span_id", SPAN),
        event_name=event_name,
        time_ns=0,
        body=body,
        attributes=attributes or {},
    )


def _one(spans: list[Span], logs: list[LogRecord] | None = None) -> JudgedCall | Skipped:
    results = judged_calls(spans, logs or [])
    calls = [result for result in results if result.span_id == SPAN]
    assert len(calls) == 1, results
    return calls[0]


def _call(spans: list[Span], logs: list[LogRecord] | None = None) -> JudgedCall:
    call = _one(spans, logs)
    assert isinstance(call, JudgedCall), call
    return call


def _skipped(spans: list[Span], logs: list[LogRecord] | None = None) -> Skipped:
    skipped = _one(spans, logs)
    assert isinstance(skipped, Skipped), skipped
    return skipped


SEMCONV_INPUT = [
    {"role": "system", "parts": [{"type": "text", "content": "Be brief."}]},
    {
        "role": "user",
        "parts": [
            {"type": "text", "content": "Compare these."},
            {"type": "blob", "modality": "image", "mime_type": "image/png", "content": PNG_B64},
            {"type": "uri", "modality": "image", "uri": "https://example.com/cat.jpg"},
            {"type": "uri", "modality": "image", "mime_type": "image/png", "uri": PNG_URL},
            {"type": "blob", "modality": "audio", "mime_type": "audio/wav", "content": "UklGRg=="},
            {"type": "reasoning", "content": "not judged"},
        ],
    },
    {
        "role": "tool",
        "parts": [{"type": "tool_call_response", "id": "call_1", "response": {"t": 18}}],
    },
]
SEMCONV_OUTPUT = [
    {
        "role": "assistant",
        "parts": [
            {"type": "text", "content": "Both are cats."},
            {"type": "tool_call", "id": "call_2", "name": "zoom", "arguments": {"factor": 2}},
        ],
        "finish_reason": "tool_call",
    }
]


class TestSemanticConventions:
    def test_json_string_attributes_on_the_span(self):
        span = _span(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.provider.name": "openai",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.response.model": "gpt-4o-2024-08-06",
                "gen_ai.conversation.id": "conv-42",
                "gen_ai.system_instructions": json.dumps([{"type": "text", "content": "Be kind."}]),
                "gen_ai.input.messages": json.dumps(SEMCONV_INPUT),
                "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT),
            }
        )

        call = _call([span])

        assert (call.trace_id, call.span_id, call.service_name) == (TRACE, SPAN, "shop")
        assert (call.model, call.operation, call.provider) == ("gpt-4o", "chat", "openai")
        assert call.conversation_id == "conv-42"
        assert call.system_instructions == ("Be kind.",)
        assert call.input_messages[1].parts == (
            Text("Compare these."),
            Image("blob", PNG_B64, "image/png"),
            Image("uri", "https://example.com/cat.jpg"),
            Image("data_url", PNG_URL, "image/png"),
        )
        assert call.images == call.input_messages[1].parts[1:]
        assert call.input_messages[2].parts == (ToolResult({"t": 18}, "call_1"),)
        assert call.input_text == "Compare these."
        assert call.output_text == "Both are cats."
        assert call.tool_calls == (ToolCall("zoom", "call_2", {"factor": 2}),)
        assert call.output_messages[0].finish_reason == "tool_call"
        assert call.warnings == ()

    def test_structured_values_on_the_details_span_event(self):
        details = SpanEvent(
            "gen_ai.client.inference.operation.details",
            1,
            {"gen_ai.input.messages": SEMCONV_INPUT[:2], "gen_ai.output.messages": SEMCONV_OUTPUT},
        )

        call = _call([_span({"gen_ai.operation.name": "chat"}, (details,))])

        assert [message.role for message in call.input_messages] == ["system", "user"]
        assert len(call.images) == 3

    def test_a_blob_sent_as_bytes_in_a_structured_log_record(self):
        messages = [
            {
                "role": "user",
                "parts": [
                    {"type": "text", "content": "What?"},
                    {
                        "type": "blob",
                        "modality": "image",
                        "mime_type": "image/png",
                        "content": b"\x89PNG",
                    },
                ],
            }
        ]
        record = _log(
            "gen_ai.client.inference.operation.details",
            None,
            {"gen_ai.input.messages": messages, "gen_ai.output.messages": SEMCONV_OUTPUT},
        )

        call = _call([_span({"gen_ai.operation.name": "chat"})], [record])

        assert call.images == (Image("blob", "iVBORw==", "image/png"),)
        assert call.images[0].url == "data:image/png;base64,iVBORw=="

    def test_the_details_log_record_of_another_span_is_not_joined(self):
        record = _log(
            "gen_ai.client.inference.operation.details",
            None,
            {"gen_ai.input.messages": SEMCONV_INPUT[:2], "gen_ai.output.messages": SEMCONV_OUTPUT},
            span_id="00f067aa0ba902b7",
        )

        skipped = _skipped([_span({"gen_ai.operation.name": "chat"})], [record])

        assert skipped.reason == SkipReason.NO_CONTENT

    @pytest.mark.parametrize(
        "part",
        [
            {"type": "uri", "modality": "image", "uri": "__REDACTED__"},
            {"type": "file", "modality": "image", "file_id": "file-abc"},
            {"type": "blob", "modality": "image", "content": ""},
        ],
    )
    def test_an_image_without_its_content_is_withheld(self, part: dict):
        messages = [{"role": "user", "parts": [{"type": "text", "content": "What?"}, part]}]
        span = _span(
            {
                "gen_ai.input.messages": json.dumps(messages),
                "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT),
            }
        )

        assert _skipped([span]).reason == SkipReason.IMAGE_WITHHELD

    def test_content_that_is_not_json_is_malformed(self):
        span = _span({"gen_ai.operation.name": "chat", "gen_ai.input.messages": "[{oops"})

        skipped = _skipped([span])

        assert skipped.reason == SkipReason.MALFORMED_CONTENT
        assert "gen_ai.input.messages is not JSON" in skipped.detail

    def test_json_nested_without_end_is_malformed_not_a_crash(self):
        span = _span({"gen_ai.input.messages": "[" * 200_000 + "]" * 200_000})

        assert _skipped([span]).reason == SkipReason.MALFORMED_CONTENT

    def test_an_output_without_its_input_is_no_content(self):
        # OpenLLMetry's default upload hook fails on an image call and drops the whole input.
        span = _span(
            {"gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT)}
        )

        skipped = _skipped([span])

        assert skipped.reason == SkipReason.NO_CONTENT
        assert "upload_base64_image=None" in skipped.detail

    def test_only_the_latest_messages_are_kept_past_the_limit(self):
        messages = [
            {"role": "user", "parts": [{"type": "text", "content": f"turn {number}"}]}
            for number in range(100)
        ]
        span = _span(
            {
                "gen_ai.input.messages": json.dumps(messages),
                "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT),
            },
            dropped=3,
        )

        [call] = judged_calls([span], limits=Limits(max_messages=10))

        assert isinstance(call, JudgedCall)
        assert [message.text for message in call.input_messages] == [
            f"turn {number}" for number in range(90, 100)
        ]
        assert call.warnings == ("attributes_dropped: 3", "content_truncated")


class TestPerMessageEvents:
    def test_log_records_of_the_legacy_official_path(self):
        # Bodies as openai-v2 sends them with util-genai 0.4b0 (semantic conventions 1.30).
        logs = [
            _log("gen_ai.system.message", {"content": "Be brief."}),
            _log(
                "gen_ai.user.message",
                {
                    "content": [
                        {"type": "text", "text": "What is in this image?"},
                        {"type": "image_url", "image_url": {"url": PNG_URL, "detail": "low"}},
                    ]
                },
            ),
            _log(
                "gen_ai.assistant.message",
                {
                    "tool_calls": [
                        {
                            "id": "call_abc123",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                        }
                    ]
                },
            ),
            _log("gen_ai.tool.message", {"content": '{"temp_c": 18}', "id": "call_abc123"}),
            _log(
                "gen_ai.choice",
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": "A red square."},
                },
            ),
        ]
        span = _span({"gen_ai.operation.name": "chat", "gen_ai.system": "openai"})

        call = _call([span], logs)

        assert call.convention == "gen_ai.events"
        assert call.provider == "openai"
        assert [message.role for message in call.input_messages] == [
            "system",
            "user",
            "assistant",
            "tool",
        ]
        assert call.images == (Image("data_url", PNG_URL, "image/png"),)
        assert call.input_messages[2].parts == (
            ToolCall("get_weather", "call_abc123", '{"city": "Paris"}'),
        )
        assert call.input_messages[3].parts == (ToolResult('{"temp_c": 18}', "call_abc123"),)
        assert call.output_text == "A red square."
        assert call.output_messages[0].finish_reason == "stop"

    def test_events_sent_with_capture_off_are_no_content(self):
        logs = [
            _log("gen_ai.user.message", {}),
            _log(
                "gen_ai.choice",
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant"}},
            ),
        ]

        skipped = _skipped([_span({"gen_ai.operation.name": "chat"})], logs)

        assert skipped.reason == SkipReason.NO_CONTENT
        assert "no content" in skipped.detail

    @pytest.mark.parametrize("body", ["text", ["a", "list"], 7, None])
    def test_bodies_of_another_shape_are_no_content_not_an_error(self, body: Any):
        logs = [_log(name, body) for name in ("gen_ai.content.prompt", "gen_ai.user.message")]
        logs.append(_log("gen_ai.choice", body))

        skipped = _skipped([_span({"gen_ai.operation.name": "chat"})], logs)

        assert skipped.reason == SkipReason.NO_CONTENT

    def test_events_on_the_span(self):
        events = (
            SpanEvent("gen_ai.user.message", 1, {"content": "Hi"}),
            SpanEvent(
                "gen_ai.choice",
                2,
                {"gen_ai.event.content": json.dumps({"message": {"content": "Hello!"}})},
            ),
        )

        call = _call([_span({"gen_ai.system": "openai"}, events)])

        assert [(m.role, m.text) for m in call.input_messages] == [("user", "Hi")]
        assert call.output_text == "Hello!"

    def test_the_older_prompt_and_completion_events(self):
        events = (
            SpanEvent(
                "gen_ai.content.prompt",
                1,
                {"gen_ai.prompt": json.dumps([{"role": "user", "content": "Hi"}])},
            ),
            SpanEvent(
                "gen_ai.content.completion",
                2,
                {"gen_ai.completion": json.dumps([{"role": "assistant", "content": "Hello!"}])},
            ),
        )

        call = _call([_span({"gen_ai.system": "openai"}, events)])

        assert call.input_text == "Hi"
        assert call.output_text == "Hello!"


CALL_0 = "llm.input_messages.1.message.tool_calls.0.tool_call"


class TestOpenInference:
    def test_tool_calls_session_and_the_requested_model(self):
        span = _span(
            {
                "openinference.span.kind": "LLM",
                "llm.system": "openai",
                "llm.model_name": "gpt-4o-2024-08-06",
                "llm.invocation_parameters": json.dumps({"model": "gpt-4o"}),
                "session.id": "conv-7",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "Weather in Paris?",
                "llm.input_messages.1.message.role": "assistant",
                f"{CALL_0}.id": "call_1",
                f"{CALL_0}.function.name": "weather",
                f"{CALL_0}.function.arguments": '{"city": "Paris"}',
                "llm.input_messages.2.message.role": "tool",
                "llm.input_messages.2.message.tool_call_id": "call_1",
                "llm.input_messages.2.message.content": "18C",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": "It is 18C.",
            }
        )

        call = _call([span])

        assert call.convention == "openinference"
        # llm.model_name is the response's model; the request's is in the invocation parameters.
        assert call.model == "gpt-4o"
        assert (call.operation, call.provider, call.conversation_id) == ("chat", "openai", "conv-7")
        assert call.input_messages[1].parts == (ToolCall("weather", "call_1", '{"city": "Paris"}'),)
        assert call.input_messages[2].parts == (ToolResult("18C", "call_1"),)
        assert call.output_text == "It is 18C."

    def test_a_hidden_image_is_withheld(self):
        # OPENINFERENCE_HIDE_INPUT_IMAGES keeps the part's type and drops its url.
        span = _span(
            {
                "openinference.span.kind": "LLM",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.contents.0.message_content.type": "text",
                "llm.input_messages.0.message.contents.0.message_content.text": "What?",
                "llm.input_messages.0.message.contents.1.message_content.type": "image",
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.content": "A cat.",
            }
        )

        assert _skipped([span]).reason == SkipReason.IMAGE_WITHHELD

    def test_keys_with_odd_indices_are_ignored(self):
        span = _span(
            {
                "openinference.span.kind": "LLM",
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "Hi",
                "llm.input_messages." + "9" * 5000 + ".message.content": "ignored",
                "llm.input_messages.-1.message.content": "ignored",
                "llm.input_messages.٣.message.content": "ignored",
                "llm.output_messages.0.message.content": "Hello",
            }
        )

        call = _call([span])

        assert [(m.role, m.text) for m in call.input_messages] == [("user", "Hi")]

    def test_input_value_alone_is_an_unknown_convention(self):
        span = _span(
            {"openinference.span.kind": "LLM", "input.value": "Hi", "output.value": "Hello"}
        )

        skipped = _skipped([span])

        assert skipped.reason == SkipReason.UNKNOWN_CONVENTION
        assert "input.value" in skipped.detail


class TestOpenLLMetryIndexed:
    def test_prompt_and_completion_attributes_with_an_image(self):
        content = [
            {"type": "text", "text": "What is this?"},
            {"type": "image_url", "image_url": {"url": PNG_URL}},
        ]
        span = _span(
            {
                "llm.request.type": "chat",
                "gen_ai.system": "openai",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.prompt.0.role": "system",
                "gen_ai.prompt.0.content": "Be brief.",
                "gen_ai.prompt.1.role": "user",
                "gen_ai.prompt.1.content": json.dumps(content),
                "gen_ai.completion.0.role": "assistant",
                "gen_ai.completion.0.content": "A dot.",
                "gen_ai.completion.0.finish_reason": "tool_calls",
                "gen_ai.completion.0.tool_calls.0.id": "call_9",
                "gen_ai.completion.0.tool_calls.0.name": "zoom",
                "gen_ai.completion.0.tool_calls.0.arguments": '{"x": 1}',
            }
        )

        call = _call([span])

        assert call.convention == "openllmetry.indexed"
        assert (call.model, call.operation) == ("gpt-4o", "chat")
        assert call.input_text == "What is this?"
        assert call.images == (Image("data_url", PNG_URL, "image/png"),)
        assert call.output_text == "A dot."
        assert call.tool_calls == (ToolCall("zoom", "call_9", '{"x": 1}'),)
        assert call.output_messages[0].finish_reason == "tool_calls"

    def test_a_prompt_that_only_looks_like_json_stays_text(self):
        span = _span(
            {
                "llm.request.type": "chat",
                "gen_ai.prompt.0.role": "user",
                "gen_ai.prompt.0.content": "[1, 2] is a list",
                "gen_ai.completion.0.content": "Yes.",
            }
        )

        assert _call([span]).input_text == "[1, 2] is a list"


class TestRetrievalContext:
    def test_documents_of_earlier_retrievals_in_the_same_trace(self):
        semconv_retrieval = _span(
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": json.dumps(
                    [{"id": "d1", "score": 0.9, "content": "Paris is in France."}, "Plain text."]
                ),
            },
            span_id="1111111111111111",
            start_ns=1_000,
        )
        openinference_retriever = _span(
            {
                "openinference.span.kind": "RETRIEVER",
                "retrieval.documents.0.document.content": "The Seine runs through Paris.",
                "retrieval.documents.0.document.score": 0.5,
            },
            span_id="2222222222222222",
            start_ns=1_500,
        )
        later = _span(
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": '[{"content": "Later."}]',
            },
            span_id="3333333333333333",
            start_ns=9_000,
        )
        other_trace = _span(
            {
                "gen_ai.operation.name": "retrieval",
                "gen_ai.retrieval.documents": '[{"content": "Other."}]',
            },
            trace_id="f" * 32,
            span_id="4444444444444444",
            start_ns=1_000,
        )
        call_span = _span(
            {
                "gen_ai.operation.name": "chat",
                "gen_ai.input.messages": json.dumps(SEMCONV_INPUT[:1]),
                "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT),
            }
        )

        results = judged_calls(
            [later, call_span, other_trace, openinference_retriever, semconv_retrieval]
        )

        # Retrieval spans give context, not calls of their own.
        [call] = results
        assert isinstance(call, JudgedCall)
        assert call.retrieval_context == (
            "Paris is in France.",
            "Plain text.",
            "The Seine runs through Paris.",
        )


class TestSkipped:
    @pytest.mark.parametrize(
        "attributes",
        [
            {"http.request.method": "GET", "url.path": "/"},
            {"gen_ai.operation.name": "embeddings", "gen_ai.request.model": "text-embedding-3"},
            {"gen_ai.operation.name": "execute_tool"},
            {"openinference.span.kind": "CHAIN", "input.value": "Hi"},
            {"llm.request.type": "embedding"},
        ],
    )
    def test_spans_that_are_not_model_calls(self, attributes: dict):
        assert _skipped([_span(attributes)]).reason == SkipReason.NOT_A_MODEL_CALL

    def test_a_call_without_content(self):
        span = _span({"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"})

        skipped = _skipped([span])

        assert skipped.reason == SkipReason.NO_CONTENT
        assert (skipped.service_name, skipped.attributes["gen_ai.request.model"]) == (
            "shop",
            "gpt-4o",
        )

    @pytest.mark.parametrize(
        ("ids", "detail"),
        [
            ({"trace_id": "abcd"}, "a trace id of 2 bytes, not 16"),
            ({"trace_id": "0" * 32}, "an all-zero trace id"),
            ({"span_id": "0" * 16}, "an all-zero span id"),
        ],
    )
    def test_invalid_ids(self, ids: dict, detail: str):
        span = _span(
            {
                "gen_ai.input.messages": json.dumps(SEMCONV_INPUT[:1]),
                "gen_ai.output.messages": json.dumps(SEMCONV_OUTPUT),
            },
            **ids,
        )

        [skipped] = judged_calls([span])

        assert isinstance(skipped, Skipped) and skipped.reason == SkipReason.INVALID_IDS
        assert skipped.detail == f"the span has {detail}"


class TestNamesAcrossConventions:
    """`model` and `operation` read the same way whichever convention a span uses."""

    @pytest.mark.parametrize(
        ("attributes", "operation"),
        [
            ({"gen_ai.operation.name": "chat"}, "chat"),
            ({"gen_ai.operation.name": "text_completion"}, "text_completion"),
            ({"llm.request.type": "chat"}, "chat"),
            ({"llm.request.type": "completion"}, "text_completion"),
            ({"llm.request.type": "embedding"}, "embeddings"),
            (
                {"openinference.span.kind": "LLM", "llm.input_messages.0.message.role": "user"},
                "chat",
            ),
            (
                {"openinference.span.kind": "LLM", "llm.prompts.0.prompt.text": "Once"},
                "text_completion",
            ),
            ({"openinference.span.kind": "LLM", "llm.prompts": ["Once"]}, "text_completion"),
            ({"openinference.span.kind": "LLM"}, "chat"),
            ({"openinference.span.kind": "EMBEDDING"}, "embeddings"),
            ({"openinference.span.kind": "CHAIN"}, "chain"),
            ({"openinference.span.kind": "LLM", "gen_ai.operation.name": "chat"}, "chat"),
            ({"gen_ai.request.model": "gpt-4o"}, None),
        ],
    )
    def test_the_operation_is_the_genai_name(self, attributes: dict, operation: str | None):
        assert operation_of(attributes) == operation

    @pytest.mark.parametrize(
        ("attributes", "model"),
        [
            ({"gen_ai.request.model": "gpt-4o", "gen_ai.response.model": "gpt-4o-2024"}, "gpt-4o"),
            ({"gen_ai.response.model": "gpt-4o-2024"}, "gpt-4o-2024"),
            (
                {
                    "llm.model_name": "gpt-4o-2024",
                    "gen_ai.request.model": "gpt-4o-2024",
                    "llm.invocation_parameters": json.dumps({"model": "gpt-4o"}),
                },
                "gpt-4o",
            ),
            ({"llm.model_name": "gpt-4o-2024"}, "gpt-4o-2024"),
            (
                {"llm.model_name": "gpt-4o-2024", "llm.invocation_parameters": "{oops"},
                "gpt-4o-2024",
            ),
            ({}, None),
        ],
    )
    def test_the_model_is_the_one_asked_for(self, attributes: dict, model: str | None):
        assert model_of(attributes) == model
