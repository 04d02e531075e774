"""Rows, criteria and a scripted grader shared by the OpenAI Evals tests.

The only stand-in is the model provider: the scripted loopback judge answers the graders and,
under the model name `candidate-vlm`, the completions runs' candidate.
"""

import re
import time
from typing import Any

import openai
from rapidfuzz import fuzz, utils

from tests.evaluations.test_judged import png
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply
from tests.runs.helpers import CANDIDATE

RED, BLUE = png("red"), png("blue")
# Rows bring their own outputs; what each grader must conclude is planted per row.
ITEM_SCHEMA = {
    "type": "object",
    "required": ["question", "answer", "image"],
    "properties": {
        "question": {"type": "string"},
        "answer": {"type": "string"},
        "image": {"type": "string"},
    },
}


def row(question: str, answer: str, image: str, output: str) -> dict[str, Any]:
    return {
        "item": {"question": question, "answer": answer, "image": image},
        "sample": {"output_text": output},
    }


ROWS = [
    row("Capital of France?", "Paris", RED, "Paris"),
    row("Two plus two?", "4", BLUE, "five"),
    row("Sky colour?", "Blue", BLUE, "blue"),
    row("Capital of Italy?", "Rome", RED, "Rome, Italy"),
    row("Largest planet?", "Jupiter", RED, "Jupiter"),
]

CRITERIA = [
    {
        "type": "string_check",
        "name": "exact",
        "operation": "eq",
        "input": "{{ sample.output_text }}",
        "reference": "{{item.answer}}",
    },
    {
        "type": "text_similarity",
        "name": "fuzzy",
        "evaluation_metric": "fuzzy_match",
        "pass_threshold": 0.8,
        "input": "{{ sample.output_text }}",
        "reference": "{{ item.answer }}",
    },
    {
        "type": "label_model",
        "name": "judge",
        "model": "judge-model",
        "labels": ["correct", "incorrect"],
        "passing_labels": ["correct"],
        "input": [
            {"role": "developer", "content": "LABEL-GRADER: label the answer."},
            {
                "role": "user",
                "content": [
                    {
                        "type": "input_text",
                        "text": "Q: {{item.question}}\nReference: {{item.answer}}\n"
                        "Answer: {{sample.output_text}}",
                    },
                    {"type": "input_image", "image_url": "{{ item.image }}", "detail": "low"},
                ],
            },
        ],
    },
    {
        "type": "score_model",
        "name": "quality",
        "model": "judge-model",
        "range": [0, 10],
        "pass_threshold": 5,
        "input": [
            {"role": "system", "content": "SCORE-GRADER"},
            {"role": "user", "content": "Answer: {{sample.output_text}} for {{item.answer}}"},
        ],
    },
]


def field_of(text: str, name: str) -> str:
    match = re.search(rf"{name}: ([^\n]*)", text)
    return match.group(1).strip() if match else ""


def texts(request: dict) -> str:
    texts = []
    for message in request.get("messages") or []:
        content = message.get("content")
        if isinstance(content, str):
            texts.append(content)
        else:
            texts.extend(p.get("text", "") for p in content or [] if p.get("type") == "text")
    return "\n".join(texts)


def grading(request: dict) -> Reply | dict:
    """Labels an answer correct when it starts with the reference (any case); scores 9 or 2.

    As a candidate (`candidate-vlm`) answers Paris for France and "I don't know" otherwise.
    """
    text = texts(request)
    if request.get("model") == CANDIDATE:
        return Reply(content="Paris" if "France" in text else "I don't know")
    steps = [{"description": "compare", "conclusion": "compared with the reference"}]
    if "LABEL-GRADER" in text:
        answer, reference = field_of(text, "Answer"), field_of(text, "Reference")
        good = answer.lower().startswith(reference.lower())
        label = "correct" if good else "incorrect"
        return {
            "steps": [{"description": "check", "conclusion": f"the answer is {label}"}],
            "result": label,
        }
    if "SCORE-GRADER" in text:
        match = re.search(r"Answer: (.*) for (.*)", text)
        assert match is not None
        good = match.group(1).lower().startswith(match.group(2).lower())
        return {"steps": steps, "result": 9 if good else 2}
    return Reply(status=400, content="unexpected request")


def expected_grades(row: dict[str, Any]) -> list[bool]:
    output, answer = row["sample"]["output_text"], row["item"]["answer"]
    similar = fuzz.WRatio(output, answer, processor=utils.default_process) / 100
    good = output.lower().startswith(answer.lower())
    return [output == answer, similar >= 0.8, good, good]


def wait(api: Api, client: openai.OpenAI, eval_id: str, run_id: str, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        api.run_queue()
        run = client.evals.runs.retrieve(run_id, eval_id=eval_id)
        if run.status in ("completed", "failed", "canceled"):
            return run
        assert time.monotonic() < deadline, f"run {run_id} still {run.status}"
        time.sleep(0.05)


def create_eval(client: openai.OpenAI, criteria: list[dict] | None = None) -> Any:
    return client.evals.create(
        name="chart qa",
        data_source_config={
            "type": "custom",
            "item_schema": ITEM_SCHEMA,
            "include_sample_schema": True,
        },
        testing_criteria=criteria or CRITERIA,  # type: ignore[arg-type]
        metadata={"team": "vision"},
    )
