"""A conversation's traced calls as one conversational test case's turns (app/online/turns.py):
each call adds what came after the last assistant message of its input, and its reply."""

from app.online.turns import conversation_case, exchange_of
from app.otlp import Image, JudgedCall, Message, Text, ToolCall, ToolResult

PNG = "data:image/png;base64,iVBORw0KGgo="


def call(
    span_id: str,
    inputs: list[Message],
    outputs: list[Message],
    system: tuple[str, ...] = (),
    documents: tuple[str, ...] = (),
) -> JudgedCall:
    return JudgedCall(
        trace_id="0" * 31 + "1",
        span_id=span_id,
        service_name="app",
        model="gpt-4o-mini",
        operation="chat",
        provider="openai",
        convention="gen_ai",
        system_instructions=system,
        input_messages=tuple(inputs),
        output_messages=tuple(outputs),
        retrieval_context=documents,
        conversation_id="conv-1",
        images=(),
        tool_calls=(),
        attributes={},
        resource={},
    )


def user(*parts: object) -> Message:
    return Message("user", tuple(Text(p) if isinstance(p, str) else p for p in parts))


def assistant(*parts: object) -> Message:
    return Message("assistant", tuple(Text(p) if isinstance(p, str) else p for p in parts))


def case_of(*calls: JudgedCall) -> dict:
    return conversation_case("conv-1", [(c.trace_id, c.span_id, exchange_of(c)) for c in calls])


class TestTurns:
    def test_each_call_adds_its_new_user_message_and_its_reply_once(self) -> None:
        first = call(
            "a" * 16,
            [
                Message("system", (Text("Be brief."),)),
                user("What is this?", Image("data_url", PNG)),
            ],
            [assistant("A red square.")],
            system=("You describe images.",),
        )
        second = call(
            "b" * 16,
            [
                user("What is this?", Image("data_url", PNG)),
                assistant("A red square."),
                user("And its colour?"),
            ],
            [assistant("Red.")],
            system=("You describe images.",),
        )
        case = case_of(first, second)
        assert case["turns"] == [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": PNG}},
                ],
            },
            {"role": "assistant", "content": "A red square."},
            {"role": "user", "content": "And its colour?"},
            {"role": "assistant", "content": "Red."},
        ]
        assert case["chatbot_role"] == "You describe images."
        assert case["client_id"] == "conv-1"
        assert case["metadata_"]["span_id"] == "b" * 16
        assert case["metadata_"]["calls"] == 2

    def test_a_tool_call_and_the_reply_made_from_its_result_are_one_assistant_turn(
        self,
    ) -> None:
        asks = call(
            "a" * 16,
            [user("Weather in Paris?")],
            [assistant(ToolCall("weather", "call-1", '{"city": "Paris"}'))],
        )
        answers = call(
            "b" * 16,
            [
                user("Weather in Paris?"),
                assistant(ToolCall("weather", "call-1", '{"city": "Paris"}')),
                Message("tool", (ToolResult('{"sky": "sunny"}', "call-1"),)),
            ],
            [assistant("Sunny.")],
            documents=("Paris is in France.",),
        )
        case = case_of(asks, answers)
        assert case["turns"] == [
            {"role": "user", "content": "Weather in Paris?"},
            {
                "role": "assistant",
                "content": "Sunny.",
                "tools_called": [
                    {
                        "name": "weather",
                        "input_parameters": {"city": "Paris"},
                        "output": {"sky": "sunny"},
                    }
                ],
                "retrieval_context": ["Paris is in France."],
            },
        ]
        assert case["chatbot_role"] is None
