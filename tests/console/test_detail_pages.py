"""The test-case and comparison pages over HTTP (both backends): scores with their scales, each
verdict with what it judged (an image by the image), counted words, comparisons that name both
sides, show a case's image once, faithfulness changes beside their retrieval context, and notes
in plain words."""

import json
import re
from html import unescape
from types import SimpleNamespace
from typing import Any

from app.console.reading import judge_scale, plain_notes, plural, score_scale
from tests.console.helpers import csrf_of, signed_in
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


def compare_answer(request: dict) -> Any:
    """The candidate's answer (a blue square) contradicts the retrieval context."""
    if task_of(request) == "faithfulness_verdicts" and "blue square" in json.dumps(request):
        return {
            "claims": [{"claim": "It is a blue square.", "verdict": "no", "reason": "Red circle."}],
            "reason": "The context says a red circle.",
        }
    return plausible_answer(request)


def logo_evaluation(name: str, answer: str, criteria: str) -> dict[str, Any]:
    return {
        "name": name,
        "test_cases": [
            {
                "id": "logo",
                "input": ["What does the logo show?", image(png("red", (16, 12)))],
                "actual_output": answer,
                "expected_output": "A red circle.",
                "retrieval_context": ["The logo is a red circle.", [image(png("red", (16, 12)))]],
            }
        ],
        "metrics": [
            {"type": "exact_match", "name": "exact"},
            {"type": "faithfulness"},
            {**GEVAL, "criteria": criteria},
        ],
    }


def compared(api: Api, key: str, baseline: str, candidate: str) -> str:
    """The comparison page of two evaluations, made through the console's form."""
    client = signed_in(api, key)
    form = client.get("/console/compare", params={"baseline": baseline})
    created = client.post(
        "/console/compare",
        data={"baseline_id": baseline, "candidate_id": candidate, "csrf_token": csrf_of(form.text)},
    )
    assert created.status_code == 303, created.text
    return client.get(created.headers["location"]).text


class TestComparisonPage:
    def test_names_sides_shows_a_case_once_with_its_context_and_plain_notes(
        self, api: Api, judge: ScriptedJudge
    ) -> None:
        judge.script(compare_answer)
        key = api.new_key()
        before = evaluate(api, key, logo_evaluation("before", "A red circle.", "Is it right?"))
        after = evaluate(api, key, logo_evaluation("after", "A blue square.", "Is it short?"))
        html = compared(api, key, before["id"], after["id"])
        words = text_of(html)

        # Both sides by name, each with its id.
        assert f"Baseline before {before['id']}" in words
        assert f"Candidate after {after['id']}" in words
        assert "<title>Comparison: after vs before" in html

        # One article for the case, though two of its metrics moved; its input image once.
        articles = re.findall(r'<article class="compare-item[^"]*" data-test-case="logo">', html)
        assert len(articles) == 1
        article = html[html.index('data-test-case="logo"') :]
        article = article[: article.index("</article>")]
        assert len(re.findall(r'<img src="/console/media/[0-9a-f]{64}"', article)) == 2
        assert article.count('alt="Image 1 of the input"') == 1
        assert re.findall(r'data-metric="([^"]+)"', article) == ["exact", "faithfulness"]

        # Faithfulness moved: the retrieval context it judged against is shown with it.
        context = article[article.index('aria-label="Retrieval context"') :]
        assert "(what faithfulness judged against)" in text_of(context)
        assert "The logo is a red circle." in context
        assert 'alt="Image 1 of the retrieval context, passage 2"' in context
        assert "The context says a red circle." in article  # the candidate's reason

        # The API's note on differing settings, said for a person.
        assert (
            "The two evaluations judged helpfulness with different criteria, so their scores "
            "may not be comparable." in words
        )
        assert "settings differ (criteria" not in words


class TestPlainWords:
    def test_counted_words(self) -> None:
        assert [plural(n, "call") for n in (0, 1, 2)] == ["0 calls", "1 call", "2 calls"]
        assert plural(1, "test case") == "1 test case"

    def test_notes_for_a_person(self) -> None:
        compared = SimpleNamespace(
            metric="acc",
            settings_differ=["criteria", "evaluation_params"],
            notes=[
                "thresholds differ (baseline 1.0, candidate 0.5): a pass on one side is not a "
                "pass on the other, so the pass-rate figures are null; the score statistics stand",
                "the metric's settings differ (criteria, evaluation_params): the two sides' "
                "scores may not measure the same thing",
                "something new",
            ],
        )
        assert plain_notes(compared) == [
            "The two evaluations pass acc at different thresholds (1.0 on the baseline, 0.5 on "
            "the candidate), so their pass rates are not compared; the scores are.",
            "The two evaluations judged acc with different criteria and test-case fields shown "
            "to the judge, so their scores may not be comparable.",
            "Something new.",
        ]

    def test_scales(self) -> None:
        assert score_scale("faithfulness", {}) == "0–1"
        assert score_scale("psnr", {"max_db": 60}) == "0–60 dB"
        assert score_scale("score_model", {"range": [1, 7]}) == "1–7"
        assert judge_scale({"rubric": [{"score_range": [1, 3]}, {"score_range": [4, 10]}]}) == (
            "1–10"
        )
        assert judge_scale({}) == "0–10"
