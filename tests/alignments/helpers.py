"""Planted data for alignments: sums answered right or wrongly, labelled by people who fail the
wrong ones, and a scripted judge that agrees with them only once its prompt carries guidance."""

import base64
import io
import json
import time
from typing import Any

import httpx
from PIL import Image

from tests.fixtures.api import TERMINAL, Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

NOTES = "Fail an answer whose arithmetic is wrong, however confident it sounds."
GUIDANCE_MARK = "Rubric notes from the people"
# Items 0-3 carry images: 0 and 1 share one, 2 and 3 another.
ITEMS = 24


def png(colour: tuple[int, int, int]) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def wrong(number: int) -> bool:
    return number % 2 == 1


def cases(count: int = ITEMS) -> list[dict[str, Any]]:
    """`count` sums, the odd ones answered wrongly; the first four show an image (two each)."""
    images = {0: png((200, 0, 0)), 1: png((200, 0, 0)), 2: png((0, 0, 200)), 3: png((0, 0, 200))}
    made = []
    for number in range(count):
        answer = f"{2 * number + 1} (wrong)" if wrong(number) else str(2 * number)
        question: Any = f"What is {number}+{number}?"
        if number in images:
            question = [question, {"type": "image_url", "image_url": {"url": images[number]}}]
        made.append(
            {
                "id": f"c{number}",
                "input": question,
                "actual_output": answer,
                "expected_output": str(2 * number),
            }
        )
    return made


def user_text(request: dict) -> str:
    texts = []
    for message in request["messages"]:
        if message["role"] != "user":
            continue
        content = message["content"]
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [part.get("text", "") for part in content if part.get("type") == "text"]
    return "\n".join(texts)


def guided(request: dict) -> bool:
    return any(
        message["role"] == "system" and GUIDANCE_MARK in str(message["content"])
        for message in request["messages"]
    )


def answer(request: dict) -> Reply | dict:
    """Without guidance the judge passes every answer but the ones that are multiples of six;
    with it, it fails the wrong ones, as the people do. The notes request gets NOTES."""
    task = json.dumps(request)
    if "rubric_notes" in task:
        return {"notes": NOTES}
    if "g_eval_score" not in task:
        return plausible_answer(request)
    text = user_text(request)
    if guided(request):
        score = 1 if "(wrong)" in text else 9
    else:
        score = 1 if "is 0+0" in text or "is 6+6" in text or "is 12+12" in text else 9
    return {"reason": "scored", "score": score}


def label_all(
    client: httpx.Client, evaluation_id: str, count: int = ITEMS, scale: bool = False
) -> dict[str, str]:
    """People fail the wrong answers and pass the others (with `scale`, 0.2 and 0.8 on the
    metric's scale); test case id -> item key."""
    listed = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 1000})
    results = {(row["test_case_id"], row["metric"]): row for row in listed.json()["data"]}
    keys = {}
    for number in range(count):
        result = results[(f"c{number}", "helpfulness")]
        body = {
            "result_id": result["id"],
            "value": (0.2 if wrong(number) else 0.8) if scale else not wrong(number),
            "rationale": "the sum is wrong" if wrong(number) else "right",
        }
        response = client.post("/v1/labels", json=body)
        assert response.status_code == 201, response.text
        keys[f"c{number}"] = response.json()["item_key"]
    return keys


def wait(api: Api, client: httpx.Client, alignment_id: str) -> dict[str, Any]:
    """Run the queue and poll until the alignment's judging is over; returns its body."""
    deadline = time.monotonic() + 120
    while True:
        api.run_queue()
        body = client.get(f"/v1/alignments/{alignment_id}").json()
        if body["status"] in TERMINAL:
            return body
        assert time.monotonic() < deadline, body["status"]
        time.sleep(0.05)


HELPFULNESS = {
    "type": "g_eval",
    "name": "helpfulness",
    "evaluation_steps": ["Check the answer is right."],
    "evaluation_params": ["input", "actual_output"],
}


def aligned(api: Api, client: httpx.Client, judge: ScriptedJudge) -> str:
    """A completed alignment of a labelled version made with this key; the judge is left
    answering plausibly (with notes for an alignment)."""
    judge.script(answer)
    body = {"test_cases": cases(20), "metrics": [HELPFULNESS]}
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    evaluation_id = response.json()["id"]
    assert api.wait(client, evaluation_id)["status"] == "completed"
    label_all(client, evaluation_id, 20)
    result = client.get(f"/v1/evaluations/{evaluation_id}/results").json()["data"][0]
    response = client.post("/v1/alignments", json={"metric_version": result["metric_version"]})
    assert response.status_code == 202, response.text
    alignment_id = response.json()["id"]
    assert wait(api, client, alignment_id)["status"] == "completed"
    judge.script(plausible_answer)
    return alignment_id
