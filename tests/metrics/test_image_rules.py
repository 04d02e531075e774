"""The image rules sentence ("Images count as evidence...") goes to a judge request exactly when
that request shows an image: never to a text-only prompt, whatever else the case holds (an
image in a field the prompt does not show, a retrieval context whose truths are text by now)."""

from typing import Any

import pytest

from app.metrics._render import IMAGE_RULES
from tests.fixtures.judge import ScriptedJudge, image_parts, task_of
from tests.fixtures.metrics import case, run_metric, user_text

PNG = "data:image/png;base64,iVBORw0KGgo="
MAP = ["A map of France:", {"type": "image_url", "image_url": {"url": PNG}}]

RAG = {
    "input": "What is the capital?",
    "actual_output": "Paris is the capital.",
    "expected_output": "Paris.",
    "retrieval_context": ["Paris is the capital of France."],
}
RAG_CASES = {
    "text only": RAG,
    "image in the retrieval context": {
        **RAG,
        "retrieval_context": ["Paris is the capital of France.", MAP],
    },
    "image in the output": {**RAG, "actual_output": ["Paris, here:", MAP[1]]},
}


def chat(user: Any = "I fly to Oslo on the 5th; book me a hotel.", context: Any = None) -> dict:
    assistant: dict[str, Any] = {
        "role": "assistant",
        "content": "Booked the Grand in Oslo for the 5th.",
        "tools_called": [{"name": "book_hotel", "input_parameters": {"city": "Oslo"}}],
        "retrieval_context": context or ["The Grand is a hotel in Oslo."],
    }
    return {
        "input": None,
        "turns": [{"role": "user", "content": user}, assistant],
        "chatbot_role": "a travel agent",
    }


CHAT_CASES = {
    "text only": chat(),
    "image in the retrieval context": chat(context=["The Grand is a hotel in Oslo.", MAP]),
    "image in a user turn": chat(user=["I fly to Oslo on the 5th; book me this hotel:", MAP[1]]),
}
STEPS = ["Check the answer."]
SINGLE_TURN = [
    {"type": "faithfulness"},
    {"type": "answer_relevancy"},
    {"type": "contextual_precision"},
    {"type": "contextual_recall"},
    {"type": "contextual_relevancy"},
    {"type": "pairwise", "criteria": "Shorter.", "second_output": "expected_output"},
    {
        "type": "g_eval",
        "name": "grounded",
        "evaluation_steps": STEPS,
        "evaluation_params": ["input", "actual_output", "retrieval_context"],
    },
]
CONVERSATIONAL = [
    {"type": "turn_faithfulness"},
    {"type": "turn_contextual_relevancy"},
    {"type": "turn_relevancy"},
    {"type": "role_adherence"},
    {"type": "knowledge_retention"},
    {"type": "conversation_completeness"},
    {"type": "argument_correctness"},
    {"type": "task_completion"},
    {"type": "conversational_g_eval", "name": "helpful", "evaluation_steps": STEPS},
    {
        "type": "conversational_g_eval",
        "name": "grounded",
        "evaluation_steps": STEPS,
        "evaluation_params": ["content", "role", "retrieval_context"],
    },
]


def sent_with_rules(judge: ScriptedJudge, spec: dict, fields: dict) -> list[tuple[bool, bool]]:
    """(shows an image, has the image rules) for every request the metric made. What the
    judge answers does not matter past the truths: the prompts are what is checked."""
    judge.script(
        lambda request: (
            {"truths": ["Paris is the capital of France."]}
            if task_of(request) == "faithfulness_truths"
            else {}
        )
    )
    run_metric(judge, spec, case(**fields))
    assert judge.requests
    return [(bool(image_parts(r)), IMAGE_RULES in user_text(r)) for r in judge.requests]


def label(value: Any) -> str:
    return value["type"] if isinstance(value, dict) else str(value)


@pytest.mark.parametrize("spec", SINGLE_TURN, ids=label)
@pytest.mark.parametrize("fields", RAG_CASES.values(), ids=list(RAG_CASES))
def test_single_turn_prompts(judge: ScriptedJudge, spec: dict, fields: dict) -> None:
    for shows_image, has_rules in sent_with_rules(judge, spec, fields):
        assert has_rules == shows_image


@pytest.mark.parametrize("spec", CONVERSATIONAL, ids=label)
@pytest.mark.parametrize("fields", CHAT_CASES.values(), ids=list(CHAT_CASES))
def test_conversational_prompts(judge: ScriptedJudge, spec: dict, fields: dict) -> None:
    for shows_image, has_rules in sent_with_rules(judge, spec, fields):
        assert has_rules == shows_image


def test_a_context_image_reaches_the_truths_prompt_with_the_rules(judge: ScriptedJudge) -> None:
    sent = sent_with_rules(
        judge, {"type": "turn_faithfulness"}, CHAT_CASES["image in the retrieval context"]
    )
    # The truths request shows the map and says how to read it; the verdicts request shows
    # only text (the truths), so it does not.
    assert sent[0] == (True, True)
    assert (False, False) in sent[1:]
