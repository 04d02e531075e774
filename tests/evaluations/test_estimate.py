"""POST /v1/evaluations/estimate: the bill before it runs, checked against what the run made."""

import json
import re
import uuid
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import func, select

from app.models import Blob, BlobOwner, Evaluation, IdempotencyKey
from app.models import TestCase as StoredCase
from tests.evaluations.test_judged import image, png
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, task_of

RED, BLUE = png("red", (1024, 1024)), png("blue", (600, 300))
# The second image case's output: the same image as the first's would be judged by the very same
# perceptual request, which the evaluation's cache answers whenever the first answer came first.
CRIMSON = png("crimson", (1024, 1024))


def _texts(request: dict) -> str:
    texts = []
    for message in request["messages"]:
        content = message["content"]
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [part.get("text", "") for part in content if part.get("type") == "text"]
    return "\n".join(texts)


def full_answer(request: dict) -> dict:
    """A well-formed, full answer to every Loupe judge task."""
    task = task_of(request)
    text = _texts(request)
    nodes = re.search(r"Retrieval Context \((\d+) nodes\):", text)
    count = int(nodes.group(1)) if nodes else 0
    images = len(re.findall(r"^\[Image \d+\]$", text, re.M))
    answers: dict[str, Any] = {
        "g_eval_steps": {"steps": ["Check the answer.", "Check the facts."]},
        "g_eval_score": {"reason": "It answers.", "score": 8},
        "faithfulness_truths": {"truths": ["The logo is red."]},
        "faithfulness_verdicts": {
            "claims": [{"claim": "It is red.", "verdict": "yes"}],
            "reason": "Supported.",
        },
        "answer_relevancy_verdicts": {
            "statements": [{"statement": "It is red.", "verdict": "yes"}],
            "images": [{"image": n, "verdict": "yes"} for n in range(1, images + 1)],
            "reason": "On topic.",
        },
        "contextual_precision_verdicts": {
            "verdicts": [{"verdict": "yes", "reason": "n"} for _ in range(count)],
            "reason": "Useful first.",
        },
        "contextual_recall_verdicts": {
            "verdicts": [{"verdict": "yes", "reason": "node 1"}],
            "reason": "Covered.",
        },
        "contextual_relevancy_verdicts": {
            "nodes": [
                {"node": n, "verdicts": [{"statement": "s", "verdict": "yes"}]}
                for n in range(1, count + 1)
            ],
            "reason": "Relevant.",
        },
        "text_to_image_semantic": {"reasoning": "Fits.", "score": [8]},
        "image_editing_semantic": {"reasoning": "Edited.", "score": [8, 7]},
        "image_perceptual": {"reasoning": "Natural.", "score": [8, 9]},
        "image_coherence": {"reasoning": "Fits.", "score": 7},
        "image_helpfulness": {"reasoning": "Helps.", "score": 7},
        "image_reference": {"reasoning": "Referred.", "score": 7},
        "pairwise_preference": {"reason": "Better.", "winner": "A"},
        "llm_accuracy": {"reasoning": "Same answer.", "verdict": "A"},
    }
    return answers[task]


def text_cases() -> list[dict]:
    # Two cases share a retrieval context: faithfulness makes its truths once for both.
    tag = uuid.uuid4().hex[:6]
    shared = [f"The logo {tag} is a red circle.", "It was drawn in 1999."]
    return [
        {
            "id": "a",
            "input": "What is the logo?",
            "actual_output": f"The logo {tag} is a red circle. It dates from 1999.",
            "expected_output": f"The logo {tag} is a red circle.",
            "retrieval_context": shared,
            "metadata": {"other": "A blue square."},
        },
        {
            "id": "b",
            "input": "When was it drawn?",
            "actual_output": "In 1999.",
            "expected_output": "It was drawn in 1999.",
            "retrieval_context": shared,
            "metadata": {"other": "In 2001."},
        },
        {
            "id": "c",
            "input": "What colour is it?",
            "actual_output": "Red, like a fire engine.",
            "expected_output": "Red.",
            "retrieval_context": [f"Notes {tag}: the logo is red.", [image(BLUE)]],
            "metadata": {"other": "Blue."},
        },
    ]


def image_cases(images: int) -> list[dict]:
    second = ["And its back:", image(BLUE)] if images == 2 else []
    return [
        {
            "input": ["Make the square red.", image(BLUE)],
            "actual_output": ["Here is a poster.", image(RED), *second],
        },
        {"input": ["Paint it red.", image(BLUE)], "actual_output": [image(CRIMSON), "A red one."]},
    ]


TEXT_METRICS = [
    {
        "type": "g_eval",
        "name": "generated_steps",
        "criteria": "Does it answer the input?",
        "evaluation_params": ["input", "actual_output"],
    },
    {
        "type": "g_eval",
        "name": "given_steps",
        "evaluation_steps": ["Check the answer.", "Check the facts."],
        "evaluation_params": ["input", "actual_output", "expected_output"],
    },
    {"type": "faithfulness"},
    # Without reasons: a verdict request of its own. With the same truths as `faithfulness`
    # (a one-sentence context) it asked the very request `faithfulness` did, which the cache
    # answered whenever that answer came first: fewer calls than planned, one run in eight.
    {
        "type": "faithfulness",
        "name": "faithfulness_limited",
        "truths_extraction_limit": 1,
        "include_reason": False,
    },
    {"type": "answer_relevancy"},
    {"type": "contextual_precision"},
    {"type": "contextual_recall"},
    {"type": "contextual_relevancy"},
    {"type": "pairwise", "criteria": "More precise.", "second_output": "metadata.other"},
    {"type": "llm_accuracy"},
    {"type": "exact_match"},
]
# Case a's output contains its reference: the rule decides it without a judge call. (Alone: its
# other calls are llm_accuracy's very requests, which the evaluation's cache may answer.)
RULE_FIRST = {"type": "llm_accuracy", "name": "rule_first", "rule_first": True}
# One image in and one out (VIEScore), then images in a document.
GENERATED_IMAGE_METRICS = [{"type": "text_to_image"}, {"type": "image_editing"}]
IMAGE_METRICS = [
    {"type": "image_coherence"},
    {"type": "image_helpfulness"},
    {"type": "image_reference", "max_context_size": 40},
    {"type": "answer_relevancy"},
]


def estimate_then_run(api: Api, judge: ScriptedJudge, body: dict) -> tuple[dict, dict]:
    judge.script(full_answer)
    client = api.tenant_client()
    response = client.post("/v1/evaluations/estimate", json=body)
    assert response.status_code == 200, response.text
    estimate = response.json()
    assert client.get("/v1/evaluations").json()["data"] == []
    assert judge.requests == []
    submitted = client.post("/v1/evaluations", json=body)
    assert submitted.status_code == 202, submitted.text
    final = api.wait(client, submitted.json()["id"])
    assert final["status"] == "completed", final
    assert judge.responder_errors == []
    return estimate, final


def repeated_requests(judge: ScriptedJudge) -> dict[str | None, int]:
    """The tasks of requests the judge was sent more than once, and how many times."""
    sent = Counter(
        json.dumps([request["messages"], request.get("model")], sort_keys=True)
        for request in judge.requests
    )
    tasks: Counter[str | None] = Counter()
    for key, times in sent.items():
        if times > 1:
            tasks[task_of({"messages": json.loads(key)[0]})] += times
    return dict(tasks)


def assert_calls_match(
    estimate: dict, final: dict, judge: ScriptedJudge, *, sampled: bool = False
) -> None:
    made = {summary["metric"]: summary["usage"]["calls"] for summary in final["per_metric"]}
    assert final["result_counts"]["errored"] == 0, final["per_metric"]
    if not sampled:
        # A request sent twice could as well have been answered by the evaluation's cache (when
        # the first answer came before the second asked): a count that holds only by timing.
        # Samples are never answered from the cache, so theirs may repeat.
        assert repeated_requests(judge) == {}
    planned = {metric["metric"]: metric["calls"] for metric in estimate["metrics"]}
    # What the judge was asked, by task: should the counts differ, where the calls went.
    asked = Counter(task_of(request) for request in judge.requests)
    assert planned == made, (dict(asked), final["per_metric"])
    assert estimate["calls"] == final["usage"]["calls"] == len(judge.requests)


class TestCallsExact:
    def test_every_text_metric(self, api: Api, judge: ScriptedJudge) -> None:
        body = {"test_cases": text_cases(), "metrics": TEXT_METRICS}
        estimate, final = estimate_then_run(api, judge, body)
        assert_calls_match(estimate, final, judge)
        calls = {metric["metric"]: metric["calls"] for metric in estimate["metrics"]}
        # Steps once, then a score per case; truths once per distinct context; the rule
        # decides case a; pairwise asks both orders.
        assert calls["generated_steps"] == 1 + 3
        assert calls["given_steps"] == 3
        assert calls["faithfulness"] == 2 + 3
        assert calls["pairwise"] == 6
        assert calls["exact_match"] == 0

    def test_rule_first(self, api: Api, judge: ScriptedJudge) -> None:
        body = {"test_cases": text_cases(), "metrics": [RULE_FIRST]}
        estimate, final = estimate_then_run(api, judge, body)
        assert_calls_match(estimate, final, judge)
        assert estimate["calls"] == 2

    @pytest.mark.parametrize("metric", GENERATED_IMAGE_METRICS, ids=lambda m: m["type"])
    def test_generated_images(self, api: Api, judge: ScriptedJudge, metric: dict) -> None:
        # One metric at a time: both ask the same perceptual question of the same image.
        body = {"test_cases": image_cases(1), "metrics": [metric]}
        estimate, final = estimate_then_run(api, judge, body)
        assert_calls_match(estimate, final, judge)
        # The semantic and the perceptual call for each case.
        assert estimate["calls"] == 4

    def test_images_in_a_document(self, api: Api, judge: ScriptedJudge) -> None:
        body = {"test_cases": image_cases(2), "metrics": IMAGE_METRICS}
        estimate, final = estimate_then_run(api, judge, body)
        assert_calls_match(estimate, final, judge)
        calls = {metric["metric"]: metric["calls"] for metric in estimate["metrics"]}
        # One call per image.
        assert calls["image_coherence"] == 2 + 1

    def test_samples_and_panel(self, api: Api, judge: ScriptedJudge) -> None:
        panel = {"panel": [{"model": "judge-model"}, {"model": "judge-b", "weight": 2}]}
        metrics = [
            {**TEXT_METRICS[0], "judge": {"samples": 3}},
            {"type": "faithfulness", "judge": {"samples": 2, **panel}},
            {"type": "pairwise", "criteria": "Better.", "judge": {"samples": 2}},
        ]
        cases = [{k: v for k, v in case.items() if k != "metadata"} for case in text_cases()]
        estimate, final = estimate_then_run(api, judge, {"test_cases": cases, "metrics": metrics})
        assert_calls_match(estimate, final, judge, sampled=True)
        by_name = {metric["metric"]: metric for metric in estimate["metrics"]}
        # Steps and truths are made once per judge; the rest by every sample of every judge.
        assert by_name["generated_steps"]["calls"] == 1 + 3 * 3
        assert by_name["generated_steps"]["multiplier"] == 3
        faithfulness = by_name["faithfulness"]
        assert (faithfulness["samples"], faithfulness["panel"]) == (2, 2)
        assert faithfulness["multiplier"] == 4
        assert [member["calls"] for member in faithfulness["judges"]] == [2 + 3 * 2] * 2
        assert by_name["pairwise"]["calls"] == 3 * 2 * 2


class TestFigures:
    def test_tokens_and_dollars(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        body = {"test_cases": text_cases()[:1], "metrics": [TEXT_METRICS[1]], "cache": False}
        estimate = client.post("/v1/evaluations/estimate", json=body).json()
        metric = estimate["metrics"][0]
        assert metric["calls"] == 1
        assert metric["prompt_tokens"] > 100
        assert metric["completion_tokens"] == 45
        # judge-model costs $2 in and $8 out per million tokens.
        expected = (metric["prompt_tokens"] * 2 + metric["completion_tokens"] * 8) / 1e6
        assert metric["usd"] == pytest.approx(expected)
        assert estimate["usd"] == pytest.approx(expected)
        assert metric["judges"][0]["encoding"] == "o200k_base"
        assert any("judge-model" in note for note in estimate["notes"])
        assert not any("cache" in note for note in estimate["notes"])

    def test_each_panel_member_at_its_own_price(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        panel = {"samples": 2, "panel": [{"model": "judge-model"}, {"model": "candidate-vlm"}]}
        body = {"test_cases": text_cases(), "metrics": [{**TEXT_METRICS[1], "judge": panel}]}
        metric = client.post("/v1/evaluations/estimate", json=body).json()["metrics"][0]
        # USD per million tokens: judge-model 2 in, 8 out; candidate-vlm 1 in, 4 out.
        prices = {"judge-model": (2, 8), "candidate-vlm": (1, 4)}
        for member in metric["judges"]:
            assert member["calls"] == 3 * 2
            inward, outward = prices[member["model"]]
            expected = member["prompt_tokens"] * inward + member["completion_tokens"] * outward
            assert member["usd"] == pytest.approx(expected / 1e6)
        assert metric["usd"] == pytest.approx(sum(member["usd"] for member in metric["judges"]))
        assert (metric["calls"], metric["multiplier"]) == (12, 4)

    def test_an_unpriced_panel_member_makes_the_price_unknown(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        panel = {"panel": [{"model": "judge-model"}, {"model": "gpt-4o-mini"}]}
        body = {
            "test_cases": text_cases()[:1],
            "metrics": [{**TEXT_METRICS[1], "judge": panel}],
        }
        estimate = client.post("/v1/evaluations/estimate", json=body).json()
        priced, unpriced = estimate["metrics"][0]["judges"]
        assert priced["usd"] > 0
        assert unpriced["usd"] is None
        assert estimate["usd"] is None
        assert any("upper bound" in note for note in estimate["notes"])
        # Why it is null, and where prices come from (it said nothing).
        assert any(
            note.startswith("no price is known for gpt-4o-mini:") and "LOUPE_MODEL_PRICES" in note
            for note in estimate["notes"]
        ), estimate["notes"]

    def test_a_repeated_request_is_an_upper_bound(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        case = text_cases()[0]
        body = {"test_cases": [case, {**case, "id": "again"}], "metrics": [TEXT_METRICS[1]]}
        estimate = client.post("/v1/evaluations/estimate", json=body).json()
        assert estimate["calls"] == 2
        assert any("repeat an identical request" in note for note in estimate["notes"])

    def test_images_by_tile(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()

        def prompt_tokens(case: dict) -> int:
            body = {"test_cases": [case], "metrics": [IMAGE_METRICS[0]]}
            response = client.post("/v1/evaluations/estimate", json=body)
            assert response.status_code == 200, response.text
            return response.json()["prompt_tokens"]

        small = prompt_tokens({"input": "x", "actual_output": ["Text.", image(BLUE)]})
        large = prompt_tokens({"input": "x", "actual_output": ["Text.", image(RED)]})
        # 600 x 300: 2 x 1 tiles; 1024 x 1024 scaled to 768 x 768: 2 x 2 tiles.
        assert large - small == 170 * 4 - 170 * 2


def stored_rows(api: Api) -> dict[str, int]:
    with api.served.runtime.session() as session:
        return {
            model.__tablename__: session.scalar(select(func.count()).select_from(model)) or 0
            for model in (Evaluation, StoredCase, Blob, BlobOwner, IdempotencyKey)
        }


class TestNothingStored:
    def test_no_evaluation_case_image_or_idempotency_row(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        client = api.tenant_client()
        body = {"test_cases": image_cases(2), "metrics": IMAGE_METRICS[:1]}
        before = stored_rows(api)
        headers = {"Idempotency-Key": f"estimate-{uuid.uuid4()}"}
        response = client.post("/v1/evaluations/estimate", json=body, headers=headers)
        assert response.status_code == 200, response.text
        assert stored_rows(api) == before
        assert judge.requests == []
        # The key was not taken: a submit with it is a submit, not a replay of the estimate.
        submitted = client.post("/v1/evaluations", json=body, headers=headers)
        assert submitted.status_code == 202
        # Scored before the next test: a job left queued would call the judge during it.
        assert api.wait(client, submitted.json()["id"])["status"] == "completed"


class TestValidation:
    def test_the_same_problem_as_a_submit(self, api: Api, judge: ScriptedJudge) -> None:
        client = api.tenant_client()
        body = {
            "test_cases": [{"input": "q", "actual_output": "a"}],
            "metrics": [
                {"type": "g_eval", "criteria": "c", "evaluation_params": ["input"]},
                {"type": "faithfulness"},
            ],
        }
        estimated = client.post("/v1/evaluations/estimate", json=body)
        submitted = client.post("/v1/evaluations", json=body)
        assert estimated.status_code == submitted.status_code == 422
        assert estimated.headers["content-type"].startswith("application/problem+json")
        fields = [error["loc"] for error in estimated.json()["errors"]]
        assert fields == [error["loc"] for error in submitted.json()["errors"]]
        assert len(fields) >= 2
        assert client.get("/v1/evaluations").json()["data"] == []
