"""deepeval 4.3.1's conversational metrics and agent checks on bench/conversation_calls.py's
conversations, through its own `evaluate()` (run by that script with a separate virtualenv's
python; deepeval is not one of Loupe's dependencies).

    <venv>/bin/python bench/deepeval_conversation_calls.py BASE_URL CONVERSATIONS_JSON [METRICS]

Each metric scores each conversation alone (one `evaluate()` each), then the three in one
`evaluate()` ("all three"), its GPTModel pointed at BASE_URL and sending an `x-bench-call:
<metric>/<conversation>` header, so the stand-in can count the requests of each. An image in a
turn becomes deepeval's placeholder (an MLLMImage in the turn's text). ToolCorrectness,
ArgumentCorrectness and TaskCompletion have no conversational form in 4.3.1: each conversation
becomes one LLMTestCase (its user turns as the input, its assistant turns as the output, every
tool call of the conversation as `tools_called`). Prints one JSON line per evaluate(): its
label, scores and the first error deepeval stored, if any.
"""

import json
import sys

from deepeval import evaluate
from deepeval.evaluate.configs import AsyncConfig, DisplayConfig, ErrorConfig
from deepeval.metrics import (
    ArgumentCorrectnessMetric,
    ConversationalGEval,
    ConversationCompletenessMetric,
    KnowledgeRetentionMetric,
    RoleAdherenceMetric,
    TaskCompletionMetric,
    ToolCorrectnessMetric,
    TurnContextualRelevancyMetric,
    TurnFaithfulnessMetric,
    TurnRelevancyMetric,
)
from deepeval.models import GPTModel
from deepeval.test_case import (
    ConversationalTestCase,
    LLMTestCase,
    MLLMImage,
    MultiTurnParams,
    ToolCall,
    Turn,
)

GEVAL_CRITERIA = "Does the assistant resolve what the user asked for, within its role?"


def text_of(content, images: dict[str, MLLMImage]) -> str:
    """A Loupe turn's content as deepeval's text: each image as its placeholder, in place."""
    if isinstance(content, str):
        return content
    pieces = []
    for part in content:
        if part["type"] == "text":
            pieces.append(part["text"])
        else:
            url = part["image_url"]["url"]
            if url not in images:
                header, data = url.split(",", 1)
                mime = header.removeprefix("data:").split(";")[0]
                images[url] = MLLMImage(dataBase64=data, mimeType=mime)
            pieces.append(f"{images[url]}")
    return " ".join(pieces)


def tool_call(call: dict) -> ToolCall:
    return ToolCall(
        name=call["name"],
        input_parameters=call.get("input_parameters"),
        output=call.get("output"),
    )


def conversational(conversation: dict, images: dict) -> ConversationalTestCase:
    turns = [
        Turn(
            role=turn["role"],
            content=text_of(turn.get("content", ""), images),
            tools_called=[tool_call(c) for c in turn.get("tools_called") or []] or None,
            retrieval_context=turn.get("retrieval_context"),
        )
        for turn in conversation["turns"]
    ]
    return ConversationalTestCase(
        turns=turns,
        scenario=conversation.get("scenario"),
        expected_outcome=conversation.get("expected_outcome"),
        chatbot_role=conversation.get("chatbot_role"),
        user_description=conversation.get("user_description"),
    )


def single_turn(conversation: dict, images: dict) -> LLMTestCase:
    """The conversation as one LLMTestCase: the only shape deepeval's agent checks take."""
    turns = conversation["turns"]
    said = {
        role: "\n".join(text_of(t.get("content", ""), images) for t in turns if t["role"] == role)
        for role in ("user", "assistant")
    }
    return LLMTestCase(
        input=said["user"],
        actual_output=said["assistant"],
        tools_called=[
            tool_call(call)
            for turn in turns
            if turn["role"] == "assistant"
            for call in turn.get("tools_called") or []
        ],
        expected_tools=[tool_call(call) for call in conversation.get("expected_tools") or []],
    )


def metrics(model: GPTModel) -> dict:
    """Metric name (Loupe's) -> (deepeval metric, True for conversational test cases)."""
    return {
        "conversational_g_eval": (
            ConversationalGEval(
                name="resolution",
                criteria=GEVAL_CRITERIA,
                evaluation_params=[
                    MultiTurnParams.ROLE,
                    MultiTurnParams.CONTENT,
                    MultiTurnParams.TOOLS_CALLED,
                    MultiTurnParams.SCENARIO,
                    MultiTurnParams.EXPECTED_OUTCOME,
                ],
                model=model,
            ),
            True,
        ),
        "turn_relevancy": (TurnRelevancyMetric(model=model), True),
        "knowledge_retention": (KnowledgeRetentionMetric(model=model), True),
        "role_adherence": (RoleAdherenceMetric(model=model), True),
        "conversation_completeness": (ConversationCompletenessMetric(model=model), True),
        "turn_faithfulness": (TurnFaithfulnessMetric(model=model), True),
        "turn_contextual_relevancy": (TurnContextualRelevancyMetric(model=model), True),
        "tool_correctness": (ToolCorrectnessMetric(model=model), False),
        "argument_correctness": (ArgumentCorrectnessMetric(model=model), False),
        "task_completion": (TaskCompletionMetric(model=model), False),
    }


TOGETHER = "all three"


def run(base_url: str, name: str, label: str, conversations: list[dict], images: dict) -> dict:
    """One evaluate() of metric `name` over `conversations`, its requests labelled `label`."""
    model = GPTModel(
        model="gpt-4.1",
        base_url=base_url,
        api_key="sk-bench",
        default_headers={"x-bench-call": label},
    )
    metric, is_conversational = metrics(model)[name]
    shape = conversational if is_conversational else single_turn
    cases = [shape(conversation, images) for conversation in conversations]
    try:
        result = evaluate(
            cases,
            [metric],
            async_config=AsyncConfig(run_async=True),
            display_config=DisplayConfig(print_results=False, show_indicator=False),
            error_config=ErrorConfig(ignore_errors=True),
        )
    except Exception as exc:  # noqa: BLE001 - reported beside the count
        return {"call": label, "scores": [], "error": f"{type(exc).__name__}: {exc}"}
    data = [m for test in result.test_results for m in test.metrics_data or []]
    error = next((m.error for m in data if m.error is not None), None)
    return {"call": label, "scores": [m.score for m in data], "error": error}


def main() -> None:
    base_url, path = sys.argv[1], sys.argv[2]
    only = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    with open(path) as file:
        conversations = json.load(file)
    images: dict[str, MLLMImage] = {}
    names = list(metrics(GPTModel(model="gpt-4.1", base_url=base_url, api_key="sk-bench")))
    for name in names:
        if only and name not in only:
            continue
        for conversation in conversations:
            label = f"{name}/{conversation['name']}"
            print(json.dumps(run(base_url, name, label, [conversation], images)), flush=True)
        # All three conversations in one evaluate(), as a user would run them.
        label = f"{name}/{TOGETHER}"
        print(json.dumps(run(base_url, name, label, conversations, images)), flush=True)


if __name__ == "__main__":
    main()
