"""The schema sent with each verdict request names the verdict words (an enum), so a judge that
decodes to the schema (vLLM's guided decoding, a strict mode) cannot answer anything else; what
comes back is still read leniently (`Yes.` is yes)."""

from typing import Any

import pytest

from tests.fixtures.judge import ScriptedJudge, task_of
from tests.fixtures.metrics import case, run_metric

RAG = {
    "input": "What is the capital?",
    "actual_output": "Paris is the capital.",
    "expected_output": "Paris.",
    "retrieval_context": ["Paris is the capital of France."],
}
CHAT = {
    "input": None,
    "turns": [
        {"role": "user", "content": "I fly to Oslo on the 5th."},
        {"role": "assistant", "content": "Noted: Oslo, the 5th."},
    ],
    "chatbot_role": "a travel agent",
}
TRUTHS = {"truths": ["Paris is the capital of France."]}
YES_NO, YES_NO_IDK = ["yes", "no"], ["yes", "no", "idk"]


def enums(schema: dict[str, Any], field: str) -> list[list[str]]:
    """Every `enum` given to a property named `field`, anywhere in the schema."""
    found = []
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            prop = node.get("properties", {}).get(field)
            if isinstance(prop, dict):
                found.append(prop.get("enum"))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


@pytest.mark.parametrize(
    ("spec", "fields", "task", "field", "words"),
    [
        ({"type": "faithfulness"}, RAG, "faithfulness_verdicts", "verdict", YES_NO_IDK),
        ({"type": "answer_relevancy"}, RAG, "answer_relevancy_verdicts", "verdict", YES_NO_IDK),
        ({"type": "contextual_precision"}, RAG, "contextual_precision_verdicts", "verdict", YES_NO),
        ({"type": "contextual_recall"}, RAG, "contextual_recall_verdicts", "verdict", YES_NO),
        (
            {"type": "contextual_relevancy"},
            RAG,
            "contextual_relevancy_verdicts",
            "verdict",
            YES_NO_IDK,
        ),
        (
            {"type": "pairwise", "criteria": "Shorter.", "second_output": "expected_output"},
            RAG,
            "pairwise_preference",
            "winner",
            ["A", "B", "tie"],
        ),
        ({"type": "role_adherence"}, CHAT, "role_adherence_verdicts", "verdict", YES_NO),
        (
            {"type": "conversation_completeness"},
            CHAT,
            "conversation_completeness_intentions",
            "verdict",
            YES_NO,
        ),
    ],
    ids=lambda value: value["type"] if isinstance(value, dict) and "type" in value else None,
)
def test_verdict_words_are_in_the_schema(
    judge: ScriptedJudge, spec: dict, fields: dict, task: str, field: str, words: list[str]
) -> None:
    # The verdict request's answer does not matter: its schema is what is checked.
    judge.script(lambda request: TRUTHS if task_of(request) == "faithfulness_truths" else {})
    run_metric(judge, spec, case(**fields))
    sent = [request for request in judge.requests if task_of(request) == task]
    assert sent, [task_of(request) for request in judge.requests]
    schema = sent[0]["response_format"]["json_schema"]["schema"]
    assert enums(schema, field) and all(found == words for found in enums(schema, field))


def test_a_verdict_off_the_words_is_still_read(judge: ScriptedJudge) -> None:
    answers = {
        "faithfulness_truths": TRUTHS,
        "faithfulness_verdicts": {
            "claims": [{"claim": "Paris is the capital.", "verdict": "Yes."}],
            "reason": "Supported.",
        },
    }
    judge.script(lambda request: answers[task_of(request)])
    result = run_metric(judge, {"type": "faithfulness"}, case(**RAG))
    assert (result.error, result.score) == (None, 1.0)
