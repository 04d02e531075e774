"""The test-case and comparison pages over HTTP (both backends): scores with their scales, each
verdict with what it judged (an image by the image), counted words, comparisons that name both
sides, show a case's image once, faithfulness changes beside their retrieval context, and notes
in plain words."""

import re
from html import unescape
from typing import Any

from tests.console.helpers import signed_in
from tests.evaluations.test_reading import image, png
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of

GEVAL = {
    "type": "g_eval",
    "name": "helpfulness",
    "criteria": "Does the output answer the input?",
    "evaluation_params": ["input", "actual_output"],
}


def judge_answer(request: dict) -> Any:
    """Plausible answers, with a verdict on each of the output's two images."""
    task = task_of(request)
    if task == "answer_relevancy_verdicts":
        return {
            "statements": [{"statement": "Here is the logo.", "verdict": "yes"}],
            "images": [
                {"image": 1, "verdict": "yes"},
                {"image": 2, "verdict": "no", "reason": "A cat is not the logo."},
            ],
            "reason": "The second picture is off topic.",
        }
    if task == "image_coherence":
        return {"reasoning": "It fits the text around it.", "score": 7}
    return plausible_answer(request)


def text_of(html: str) -> str:
    """The page's words as a reader sees them: tags dropped, spaces collapsed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def images_case() -> dict[str, Any]:
    return {
        "id": "logo",
        "input": ["Which logo is ours?", image(png("red"))],
        "actual_output": [
            "Here is the logo.",
            image(png("green")),
            "And a cat:",
            image(png("blue")),
        ],
        "expected_output": "The red one.",
        "retrieval_context": ["The logo is red.", [image(png("yellow"))]],
    }


def evaluate(api: Api, key: str, body: dict[str, Any]) -> dict[str, Any]:
    client = api.client(key)
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return api.wait(client, response.json()["id"])


class TestCasePage:
    def test_scales_image_verdicts_and_counted_calls(self, api: Api, judge: ScriptedJudge) -> None:
        judge.script(judge_answer)
        key = api.new_key()
        evaluation = evaluate(
            api,
            key,
            {
                "test_cases": [images_case()],
                "metrics": [
                    GEVAL,
                    {"type": "answer_relevancy"},
                    {"type": "contextual_precision"},
                    {"type": "image_coherence"},
                    {"type": "exact_match"},
                ],
            },
        )
        assert evaluation["result_counts"]["errored"] == 0
        html = signed_in(api, key).get(f"/console/evaluations/{evaluation['id']}/cases/0").text
        words = text_of(html)

        # G-Eval: the judge's raw 0–10 score, its probability-weighted value, the stored 0–1.
        assert re.search(
            r"judge 8 of 0–10 \(probability-weighted 8\.5\) → score 0\.85 of 0–1", words
        ), words
        assert "score 0.85 of 0–1" in words and "score 0 of 0–1" in words  # exact_match

        # answer_relevancy: the statement, then each image by its thumbnail and place.
        relevancy = html[html.index(">answer_relevancy<") :]
        relevancy = relevancy[: relevancy.index("</article>")]
        digests = re.findall(r'<img class="thumb" src="/console/media/([0-9a-f]{64})"', relevancy)
        output_images = re.findall(
            r'<img src="/console/media/([0-9a-f]{64})"[^>]*alt="Image \d of the actual output"',
            html,
        )
        assert len(output_images) == 2 and digests == output_images
        assert "Statement or image" in relevancy
        assert "image 1 of 2 in the actual output" in text_of(relevancy)
        assert "image 2 of 2 in the actual output" in text_of(relevancy)
        assert 'alt="Image 2 of 2 in the actual output"' in relevancy

        # contextual_precision: node 2 is the context's image.
        precision = html[html.index(">contextual_precision<") :]
        precision = text_of(precision[: precision.index("</article>")])
        assert "The logo is red." in precision
        assert "image 1 of 1 in the retrieval context" in precision

        # image_coherence: each image of the output with the judge's 0–10 score.
        coherence = html[html.index(">image_coherence<") :]
        coherence = coherence[: coherence.index("</article>")]
        assert text_of(coherence).count("7 of 0–10") == 2
        assert re.findall(r'class="thumb" src="/console/media/([0-9a-f]{64})"', coherence) == (
            output_images
        )

        # One call is "1 call"; never "1 calls".
        assert "1 call ·" in words and "1 calls" not in words
