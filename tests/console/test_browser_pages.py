"""The test-case and comparison pages in a real browser (Debian's Chromium via Playwright).

A test case: each score with its scale, each image verdict with its image (loaded), "1 call",
and each result's `logs.media` (through the API) holding only what its metric was shown. A
comparison: both evaluations by name, a case's image once, a faithfulness change beside its
retrieval context, notes in plain words. They retake docs/screenshots/result.png and
comparison.png.
"""

import json
from typing import Any

from playwright.sync_api import Page, expect

from tests.console.test_browser import SHOTS, image, image_loaded, picture, sign_in, submit, wait
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge, plausible_answer, task_of

HELPFULNESS = {
    "type": "g_eval",
    "name": "helpfulness",
    "criteria": "Does the output answer the input?",
    "evaluation_params": ["input", "actual_output"],
}
CONTEXT = ["The logo is a red circle.", [image(picture("red", "circle"))]]


def judge_answer(request: dict) -> Any:
    """Plausible answers; the output's second image is off topic; a blue square is unfaithful."""
    task = task_of(request)
    if task == "answer_relevancy_verdicts":
        return {
            "statements": [{"statement": "The logo is a red circle.", "verdict": "yes"}],
            "images": [
                {"image": 1, "verdict": "yes"},
                {"image": 2, "verdict": "no", "reason": "A blue square is not the logo."},
            ],
            "reason": "The second picture is not the logo.",
        }
    if task == "faithfulness_verdicts" and "blue square" in json.dumps(request):
        return {
            "claims": [
                {"claim": "It is a blue square.", "verdict": "no", "reason": "A red circle."}
            ],
            "reason": "The retrieval context says the logo is a red circle.",
        }
    return plausible_answer(request)


def media_fields(client: Any, evaluation_id: str) -> dict[str, list[str]]:
    results = client.get(f"/v1/evaluations/{evaluation_id}/results", params={"limit": 100})
    assert results.status_code == 200, results.text
    return {
        r["metric"]: [entry["field"] for entry in r["logs"].get("media", [])]
        for r in results.json()["data"]
    }


class TestCasePage:
    def test_scales_image_verdicts_calls_and_media_per_metric(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(judge_answer)
        key = console.new_key("acme")
        client = console.client(key)
        evaluation_id = submit(
            client,
            {
                "name": "logo answers",
                "test_cases": [
                    {
                        "id": "logo",
                        "input": ["What does the logo show?", image(picture("red", "circle"))],
                        "actual_output": [
                            "The logo is a red circle.",
                            image(picture("red", "circle")),
                            "Also, a blue square:",
                            image(picture("blue", "square")),
                        ],
                        "expected_output": "A red circle.",
                        "retrieval_context": CONTEXT,
                    }
                ],
                "metrics": [
                    HELPFULNESS,
                    {"type": "answer_relevancy"},
                    {"type": "faithfulness"},
                    {"type": "exact_match", "name": "exact"},
                ],
            },
        )
        assert wait(console, client, f"/v1/evaluations/{evaluation_id}")["status"] == "completed"

        # Each result lists only the images its metric was shown.
        assert media_fields(client, evaluation_id) == {
            "helpfulness": ["input[1]", "actual_output[1]", "actual_output[3]"],
            "answer_relevancy": ["input[1]", "actual_output[1]", "actual_output[3]"],
            "faithfulness": ["actual_output[1]", "actual_output[3]", "retrieval_context[1][0]"],
            "exact": ["actual_output[1]", "actual_output[3]"],
        }

        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}/cases/0")
        expect(page.get_by_role("heading", name="Test case logo")).to_be_visible()

        helpfulness = page.locator("article.result-card", has_text="helpfulness")
        expect(helpfulness.locator(".score")).to_contain_text("score 0.85 of 0–1")
        expect(helpfulness.locator(".judge-scale")).to_have_text(
            "judge 8 of 0–10 (probability-weighted 8.5) → score 0.85 of 0–1"
        )
        exact = page.locator("article.result-card", has_text="exact_match")
        expect(exact.locator(".score")).to_contain_text("score 0 of 0–1")

        relevancy = page.locator("article.result-card", has_text="answer_relevancy")
        rows = relevancy.locator("table.verdicts tbody tr")
        expect(rows).to_have_count(3)
        expect(relevancy.locator("table.verdicts thead")).to_contain_text("Statement or image")
        expect(rows.nth(0)).to_contain_text("The logo is a red circle.")
        second = rows.nth(2)
        expect(second).to_contain_text("image 2 of 2 in the actual output")
        expect(second).to_contain_text("A blue square is not the logo.")
        thumb = second.locator("img.thumb")
        expect(thumb).to_have_attribute("alt", "Image 2 of 2 in the actual output")
        page.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=thumb.element_handle())
        # The thumbnail is the output's second image, as the case shows it above.
        shown = page.locator("img[alt='Image 2 of the actual output']")
        assert thumb.get_attribute("src") == shown.get_attribute("src")

        expect(relevancy.locator(".usage")).to_contain_text("1 call ·")
        expect(page.locator("body")).not_to_contain_text("1 calls")
        image_loaded(page, "figure.media img")
        relevancy.scroll_into_view_if_needed()
        page.screenshot(path=SHOTS / "result.png", full_page=True)
        assert errors == [] and off_loopback == []


def logo_evaluation(name: str, answer: str, criteria: str) -> dict[str, Any]:
    return {
        "name": name,
        "test_cases": [
            {
                "id": f"logo-{index}",
                "input": ["What does the logo show?", image(picture("red", "circle"))],
                "actual_output": answer if index == 0 else "A red circle.",
                "expected_output": "A red circle.",
                "retrieval_context": CONTEXT,
            }
            for index in range(3)
        ],
        "metrics": [
            {"type": "exact_match", "name": "exact"},
            {"type": "faithfulness"},
            {**HELPFULNESS, "criteria": criteria},
        ],
    }


class TestComparisonPage:
    def test_names_an_image_once_context_beside_faithfulness_and_plain_notes(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(judge_answer)
        key = console.new_key("acme")
        client = console.client(key)
        ids = {}
        for name, answer, criteria in (
            ("logo captions v1", "A red circle.", "Does the output answer the input?"),
            ("logo captions v2", "A blue square.", "Is the output short and correct?"),
        ):
            ids[name] = submit(client, logo_evaluation(name, answer, criteria))
            wait(console, client, f"/v1/evaluations/{ids[name]}")
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/compare?baseline={ids['logo captions v1']}")
        page.get_by_label("Candidate").select_option(ids["logo captions v2"])
        page.get_by_role("button", name="Compare").click()

        sides = page.locator("dl.sides")
        expect(sides.locator(".baseline-name")).to_have_text(
            f"logo captions v1 {ids['logo captions v1']}"
        )
        expect(sides.locator(".candidate-name")).to_have_text(
            f"logo captions v2 {ids['logo captions v2']}"
        )
        expect(page).to_have_title("Comparison: logo captions v2 vs logo captions v1 · Loupe")

        # One case moved on two metrics: it is shown once, its image once.
        item = page.locator("article.compare-item")
        expect(item).to_have_count(1)
        expect(item.locator("h3")).to_have_text("logo-0")
        expect(item.locator("tr.change")).to_have_count(2)
        expect(item.locator("img[alt='Image 1 of the input']")).to_have_count(1)
        expect(item.locator(".side").nth(0)).to_contain_text("A red circle.")
        expect(item.locator(".side").nth(1)).to_contain_text("A blue square.")

        # The faithfulness change, with the retrieval context it was judged against.
        context = item.get_by_role("region", name="Retrieval context")
        expect(context).to_contain_text("what faithfulness judged against")
        expect(context).to_contain_text("The logo is a red circle.")
        faithfulness = item.locator("tr.change", has_text="faithfulness")
        expect(faithfulness).to_contain_text("-1.000")
        expect(faithfulness).to_contain_text("The retrieval context says the logo is a red circle.")
        image_loaded(page, "article.compare-item section.retrieval-context figure.media img")
        image_loaded(page, "article.compare-item figure.media img")

        notes = page.get_by_role("region", name="Read with care")
        expect(notes).to_contain_text(
            "The two evaluations judged helpfulness with different criteria, so their scores "
            "may not be comparable."
        )
        expect(notes).not_to_contain_text("settings differ")
        page.screenshot(path=SHOTS / "comparison.png", full_page=True)
        assert errors == [] and off_loopback == []
