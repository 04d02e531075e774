"""How close the estimate before a run comes to what the run is billed: tokens counted as a provider
counts them, against `POST /v1/evaluations/estimate`.

A realistic RAG evaluation (N cases, seeded: a question, a 2-4 sentence answer, a reference, a
retrieval context of three nodes, a third of the cases with an image in the question, contexts
shared by pairs of cases) with eight judged metrics, one of them a panel judged twice, is
estimated, then submitted to an embedded `loupe serve` whose judge is the loopback stand-in
(tests/fixtures/judge.py). The stand-in answers as a judge does (it restates the context's
sentences as truths, the answer's as claims and statements, gives a reason of a sentence or two
per verdict asked) and reports each request's tokens as the provider would: the prompt with
tiktoken for the model's family and OpenAI's chat overhead, images by OpenAI's tile rule from
the decoded image, its own answer's tokens as completion tokens. The run's `usage` is that
count. Prints per metric and in total: calls, prompt and completion tokens estimated and
counted, and their ratio.

    .venv/bin/python bench/estimate_accuracy.py            # N = 40
    .venv/bin/python bench/estimate_accuracy.py --cases 200
    .venv/bin/python bench/estimate_accuracy.py --judge-model gpt-4-turbo   # cl100k_base
"""

import argparse
import base64
import io
import json
import random
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.usage import tokens  # noqa: E402
from tests.fixtures.api import side_app  # noqa: E402
from tests.fixtures.judge import Reply, ScriptedJudge, task_of  # noqa: E402

TOPICS = [
    ("the Aurora 3 router", "supports Wi-Fi 6E", "was released in March 2023", "costs 189 euros"),
    (
        "the Lumen desk lamp",
        "has three colour temperatures",
        "draws 9 watts",
        "ships with a USB-C cable",
    ),
    (
        "the Basalt hiking boot",
        "is waterproof to 20 cm",
        "weighs 540 grams a pair",
        "has a Vibram sole",
    ),
    ("the Orbit e-bike", "has a range of 80 km", "charges in four hours", "weighs 21 kilograms"),
    ("the Tidal water filter", "removes 99% of lead", "lasts six months", "fits most taps"),
    (
        "the Quill note app",
        "syncs across devices",
        "exports to Markdown",
        "costs 4 dollars a month",
    ),
]
FILLER = [
    "Customers often ask about this in the support forum.",
    "The manual describes it on page twelve.",
    "A firmware update in 2024 changed some defaults.",
    "Reviewers praised the build quality.",
]


def png(seed: int, size: tuple[int, int]) -> str:
    buffer = io.BytesIO()
    Image.new("RGB", size, (seed * 40 % 255, 90, 160)).save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def cases(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    images = [png(n, size) for n, size in enumerate([(800, 600), (1600, 1200), (400, 400)])]
    found = []
    for index in range(count):
        name, *facts = TOPICS[(index // 2) % len(TOPICS)]
        fact = facts[index % 3]
        # Pairs of cases share their retrieval context (faithfulness truths are made once).
        context_rng = random.Random(seed * 1000 + index // 2)
        nodes = [
            f"{name.capitalize()} {facts[0]}. {context_rng.choice(FILLER)}",
            f"According to the spec sheet, it {facts[1]}. {context_rng.choice(FILLER)}",
            f"It {facts[2]}. {context_rng.choice(FILLER)} {context_rng.choice(FILLER)}",
        ]
        answer = [f"{name.capitalize()} {fact}.", rng.choice(FILLER)]
        if rng.random() < 0.5:
            answer.append(f"It also {facts[(index + 1) % 3]}.")
        if rng.random() < 0.3:
            answer.append("Many people find it good value for money.")
        question: Any = f"Question {index}: what should I know about how {name} {fact.split()[0]}?"
        if index % 3 == 0:
            question = [question, {"type": "image_url", "image_url": {"url": images[index % 3]}}]
        found.append(
            {
                "id": f"case-{index}",
                "input": question,
                "actual_output": " ".join(answer),
                "expected_output": f"{name.capitalize()} {fact}.",
                "retrieval_context": nodes,
            }
        )
    return found


METRICS = [
    {
        "type": "g_eval",
        "name": "correctness",
        "criteria": "Is the actual output factually correct and does it answer the question?",
        "evaluation_params": ["input", "actual_output", "expected_output"],
    },
    {
        "type": "g_eval",
        "name": "helpfulness_panel",
        "criteria": "Is the answer helpful and concise?",
        "evaluation_params": ["input", "actual_output"],
        "judge": {"samples": 2, "panel": [{"model": "gpt-4o"}, {"model": "gpt-4o-mini"}]},
    },
    {"type": "faithfulness"},
    {"type": "answer_relevancy"},
    {"type": "contextual_precision"},
    {"type": "contextual_recall"},
    {"type": "contextual_relevancy"},
    {"type": "llm_accuracy"},
]


def _texts(request: dict) -> list[str]:
    found = []
    for message in request["messages"]:
        content = message["content"]
        if isinstance(content, str):
            found.append(content)
        else:
            found += [part["text"] for part in content if part.get("type") == "text"]
    return found


def _sentences(text: str) -> list[str]:
    return [s.strip() + "." for s in re.split(r"(?<=\.)\s+", text.strip().rstrip(".")) if s.strip()]


def _section(text: str, label: str, stop: str) -> str:
    match = re.search(re.escape(label) + r"\n(.*?)(?:\n" + stop + r"|\Z)", text, re.S)
    return match.group(1) if match else ""


def _nodes(text: str) -> list[str]:
    return re.findall(r"^Node \d+: (.*)$", text, re.M)


def answer(request: dict) -> dict:
    """What a judge writes for each task, restating the request's own content."""
    task = task_of(request)
    text = "\n".join(_texts(request))
    reason = (
        "The output states the key fact from the context accurately, naming the product and "
        "the figure the question asks about. Its extra remark about the manual is supported "
        "by the context as well, so nothing in it is off the point."
    )
    if task == "g_eval_steps":
        return {
            "steps": [
                "Identify what the input asks and the facts the expected output gives.",
                "Check whether each claim of the actual output matches those facts.",
                "Note any claim that is missing, wrong or beside the point.",
                "Weigh how completely and precisely the output answers the question.",
            ]
        }
    if task == "g_eval_score":
        return {"reason": reason, "score": 8}
    if task == "faithfulness_truths":
        return {"truths": [s for node in _nodes(text) for s in _sentences(node)]}
    output = _section(text, "Actual Output:", "Truths:")
    if task == "faithfulness_verdicts":
        claims = [
            {"claim": s, "verdict": "yes", "reason": "Stated in the truths."}
            for s in _sentences(output)
        ]
        return {"claims": claims, "reason": reason}
    if task == "answer_relevancy_verdicts":
        statements = [
            {"statement": s, "verdict": "yes", "reason": "It addresses the question."}
            for s in _sentences(output)
        ]
        return {"statements": statements, "images": [], "reason": reason}
    if task == "contextual_precision_verdicts":
        verdicts = [
            {"verdict": "yes", "reason": f"Node {n} says: '{node[:60]}', which the answer uses."}
            for n, node in enumerate(_nodes(text), 1)
        ]
        return {"verdicts": verdicts, "reason": reason}
    if task == "contextual_recall_verdicts":
        expected = _section(text, "Expected Output:", "Retrieval Context")
        verdicts = [
            {"verdict": "yes", "reason": f"Node 1 supports it: '{s[:50]}'."}
            for s in _sentences(expected)
        ]
        return {"verdicts": verdicts, "reason": reason}
    if task == "contextual_relevancy_verdicts":
        nodes = [
            {
                "node": n,
                "verdicts": [
                    {"statement": s, "verdict": "yes" if i == 0 else "no", "reason": "Off topic."}
                    for i, s in enumerate(_sentences(node))
                ],
            }
            for n, node in enumerate(_nodes(text), 1)
        ]
        return {"nodes": nodes, "reason": reason}
    if task == "llm_accuracy":
        return {
            "reasoning": "The prediction gives the same final answer as the reference and adds "
            "nothing that contradicts it.",
            "verdict": "A",
        }
    raise ValueError(f"no scripted answer for {task}")


def _image_size(url: str) -> tokens.ImageSize:
    data = base64.b64decode(url.split(",", 1)[1])
    with Image.open(io.BytesIO(data)) as image:
        return tokens.ImageSize(*image.size)


def billed(request: dict) -> Reply:
    """The answer, with the tokens a provider bills for the request and the answer."""
    content = json.dumps(answer(request))
    encoding, _ = tokens.encoding_for(request.get("model"))
    prompt, _ = tokens.count_messages(request["messages"], encoding, _image_size)
    completion = tokens.count_text(content, encoding)
    return Reply(content=content, prompt_tokens=prompt, completion_tokens=completion)


def ratio(estimated: int, counted: int) -> str:
    return f"{estimated / counted:.3f}" if counted else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument(
        "--judge-model", default="gpt-4o", help="the judge's model (gpt-4-turbo: cl100k_base)"
    )
    args = parser.parse_args()
    body = {"test_cases": cases(args.cases, args.seed), "metrics": METRICS, "cache": False}
    with ScriptedJudge() as judge, tempfile.TemporaryDirectory() as directory:
        judge.script(billed)
        with side_app(
            Path(directory), judge_base_url=judge.base_url, judge_model=args.judge_model
        ) as app:
            client = app.tenant_client()
            estimate = client.post("/v1/evaluations/estimate", json=body).json()
            submitted = client.post("/v1/evaluations", json=body).json()
            final = app.wait(client, submitted["id"], timeout=600)
    assert final["status"] == "completed" and not judge.responder_errors, final
    errored = {s["metric"]: s["errored"] for s in final["per_metric"] if s["errored"]}
    assert not errored, (errored, final["per_metric"])
    counted = {summary["metric"]: summary["usage"] for summary in final["per_metric"]}
    encoding, _ = tokens.encoding_for(args.judge_model)
    print(f"{args.cases} cases, {len(METRICS)} metrics, judge {args.judge_model} ({encoding})")
    header = ("metric", "calls est/run", "prompt est", "prompt run", "ratio", "compl est")
    print(
        "{:<20} {:>14} {:>11} {:>11} {:>6} {:>10} {:>10} {:>6}".format(
            *header, "compl run", "ratio"
        )
    )
    rows = [(m["metric"], m, counted[m["metric"]]) for m in estimate["metrics"]]
    rows.append(("total", estimate, final["usage"]))
    for name, planned, run in rows:
        print(
            f"{name:<20} {planned['calls']:>6}/{run['calls']:<7} "
            f"{planned['prompt_tokens']:>11,} {run['prompt_tokens']:>11,} "
            f"{ratio(planned['prompt_tokens'], run['prompt_tokens']):>6} "
            f"{planned['completion_tokens']:>10,} {run['completion_tokens']:>10,} "
            f"{ratio(planned['completion_tokens'], run['completion_tokens']):>6}"
        )


if __name__ == "__main__":
    main()
