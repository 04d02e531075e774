"""The console in a real browser (Debian's Chromium via Playwright), loopback only.

Few, focused tests (the machine is small): an evaluation completing live, a result with its
image, filters, sign out; a run's report and sample image; injected markup that must not run;
another tenant's pages and media; /docs and /redoc offline. Screenshots go to docs/screenshots/.
"""

import base64
import io
import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
from PIL import Image, ImageDraw
from playwright.sync_api import Page, expect

from tests.fixtures.api import Api
from tests.fixtures.judge import (
    JUDGED_METRICS,
    Reply,
    ScriptedJudge,
    plausible_answer,
    task_of,
)

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DATA = Path(__file__).resolve().parents[1] / "data"
XSS = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2">'


def picture(color: str, shape: str) -> str:
    """A small PNG data URL: a coloured shape on white."""
    image = Image.new("RGB", (160, 120), "white")
    draw = ImageDraw.Draw(image)
    box = (40, 20, 120, 100)
    (draw.ellipse if shape == "circle" else draw.rectangle)(box, fill=color)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def image(url: str) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url}}


def judged_evaluation(name: str, actual_outputs: list[str]) -> dict[str, Any]:
    """Image test cases scored by exact_match and the judged metrics."""
    return {
        "name": name,
        "test_cases": [
            {
                "id": f"logo-{index}",
                "input": ["What does the logo show?", image(picture("red", "circle"))],
                "actual_output": actual,
                "expected_output": "A red circle.",
                "retrieval_context": [
                    "The logo is a red circle.",
                    [image(picture("red", "circle"))],
                ],
            }
            for index, actual in enumerate(actual_outputs)
        ],
        "metrics": [{"type": "exact_match", "name": "exact"}, *JUDGED_METRICS[:3]],
    }


def submit(client: httpx.Client, body: dict[str, Any]) -> str:
    response = client.post("/v1/evaluations", json=body)
    assert response.status_code == 202, response.text
    return response.json()["id"]


def wait(api: Api, client: httpx.Client, path: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(path).json()
        if body["status"] in ("completed", "failed", "canceled"):
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.1)


def sign_in(page: Page, api: Api, key: str) -> None:
    page.goto(f"{api.base_url}/console/sign-in")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Evaluations", exact=True)).to_be_visible()


def image_loaded(page: Page, selector: str) -> None:
    """Wait until the first image matching `selector` has decoded (naturalWidth > 0), scrolled
    into view first: the console's images load lazily, and one below the fold never would."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function(
        "s => { const i = document.querySelector(s); "
        "return i && i.complete && i.naturalWidth > 0 }",
        arg=selector,
    )


class TestEvaluation:
    def test_completes_live_then_results_filter_open_and_sign_out(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(plausible_answer)
        key = console.new_key("acme")
        client = console.client(key)
        body = judged_evaluation(
            "logo captions", ["A red circle.", "A blue square.", "Two red circles."]
        )
        judge.hold()
        try:
            evaluation_id = submit(client, body)
            sign_in(page, console, key)
            page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
            status = page.locator("[data-status]")
            expect(status).to_have_attribute("data-status", re.compile("queued|in_progress"))
            expect(page.get_by_role("button", name="Cancel evaluation")).to_be_visible()
        finally:
            judge.release()
        # No reload by the test: the page polls, then reloads itself once it is finished.
        expect(status).to_have_attribute("data-status", "completed", timeout=60_000)
        expect(page.locator("tr.result")).to_have_count(12)
        expect(page.get_by_role("button", name="Cancel evaluation")).to_have_count(0)
        page.screenshot(path=SHOTS / "evaluation.png", full_page=True)

        page.get_by_label("Outcome").select_option("failed")
        page.get_by_role("button", name="Apply").click()
        rows = page.locator("tr.result")
        expect(rows).to_have_count(2)
        expect(rows.locator(".badge")).to_have_text(["failed", "failed"])

        rows.first.get_by_role("link").click()
        expect(page.get_by_role("heading", name="Test case logo-1")).to_be_visible()
        image_loaded(page, "figure.media img")
        # Images are numbered among images (the text before it is not one) in plain words.
        expect(page.locator("img[alt='Image 1 of the input']")).to_be_visible()
        expect(
            page.locator("img[alt='Image 1 of the retrieval context, passage 2']")
        ).to_be_attached()
        helpfulness = page.locator("article.result-card", has_text="helpfulness")
        expect(helpfulness.locator(".reason")).to_have_text("It names the shape correctly.")
        expect(helpfulness).to_contain_text("Check the shape.")  # G-Eval steps
        faithfulness = page.locator("article.result-card", has_text="faithfulness")
        expect(faithfulness.locator("table.verdicts")).to_contain_text("It is number 3.")
        # docs/screenshots/result.png is taken by test_browser_pages.py.

        page.goto(f"{console.base_url}/console/evaluations")
        page.screenshot(path=SHOTS / "evaluations.png", full_page=True)
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        expect(page).to_have_url(re.compile(r"/console/sign-in\?next="))
        assert errors == [] and off_loopback == []


class TestErroredResult:
    def test_a_result_the_judge_broke_reads_in_plain_words(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        def garbled_for_one_case(request: dict) -> Reply | dict:
            # Not JSON, for the original request and the repair request alike.
            if "GARBLE-ME" in json.dumps(request):
                return Reply(content="{the verdict is: good")
            return plausible_answer(request)

        judge.script(garbled_for_one_case)
        key = console.new_key("acme")
        client = console.client(key)
        evaluation_id = submit(
            client,
            {
                "name": "one garbled verdict",
                "test_cases": [
                    {"id": "fine", "input": "2+2?", "actual_output": "4"},
                    {"id": "broken", "input": "3+3?", "actual_output": "6 GARBLE-ME"},
                ],
                "metrics": JUDGED_METRICS[:1],
            },
        )
        assert wait(console, client, f"/v1/evaluations/{evaluation_id}")["status"] == "completed"
        plain = "The judge model answered with something Loupe could not use"

        sign_in(page, console, key)
        response = page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")
        assert response is not None and response.status == 200
        errored = page.locator("tr.result", has_text="broken")
        expect(errored.locator(".badge")).to_have_text("errored")
        expect(errored.locator(".reason")).to_contain_text(plain)

        page.get_by_label("Outcome").select_option("errored")
        page.get_by_role("button", name="Apply").click()
        expect(page).to_have_url(re.compile(r"status=errored"))
        rows = page.locator("tr.result")
        expect(rows).to_have_count(1)
        expect(rows.locator(".badge")).to_have_text("errored")

        rows.get_by_role("link", name="broken").click()
        expect(page.get_by_role("heading", name="Test case broken")).to_be_visible()
        card = page.locator("article.result-card", has_text="helpfulness")
        expect(card.get_by_role("alert")).to_contain_text(plain)
        # The stored message beneath the words, its type beside it.
        expect(card.locator(".error-message")).to_contain_text("the judge at 127.0.0.1")
        expect(card.locator(".error-message")).to_contain_text("(judge_malformed)")
        assert errors == [] and off_loopback == []


def vqa_dataset(client: httpx.Client, question: str, answer: str) -> str:
    rows = [
        {
            "messages": [
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": question},
                        image(picture(color, shape)),
                    ],
                }
            ],
            "answer": answer_for,
        }
        for color, shape, answer_for in (("red", "circle", answer), ("green", "square", "square"))
    ]
    data = "\n".join(json.dumps(row) for row in rows).encode()
    response = client.post(
        "/v1/datasets",
        files={"file": ("shapes.jsonl", data)},
        data={"format": "general_vqa", "name": "shapes"},
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


class TestRun:
    def test_report_and_sample_image(
        self, console: Api, page: Page, errors: list[str], off_loopback: list[str]
    ) -> None:
        key = console.new_key("acme")
        client = console.client(key)
        dataset_id = vqa_dataset(client, "Which shape is drawn?", "circle")
        response = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset_id,
                "name": "shapes, given answers",
                "predictions": [
                    {"index": 0, "prediction": "a circle"},
                    {"index": 1, "prediction": "circle"},
                ],
            },
        )
        assert response.status_code == 202, response.text
        run_id = response.json()["id"]
        wait(console, client, f"/v1/runs/{run_id}")
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/runs")
        page.get_by_role("link", name="shapes, given answers").click()
        report = page.locator("table.report")
        expect(report).to_contain_text("Rouge-L-R")
        expect(report.locator("tr.overall").first).to_contain_text("OVERALL")
        image_loaded(page, "#sample-0 figure.media img")
        expect(page.locator("#sample-0")).to_contain_text("a circle")
        page.screenshot(path=SHOTS / "run.png", full_page=True)
        page.get_by_role("link", name=dataset_id).first.click()
        image_loaded(page, "article.row figure.media img")
        page.screenshot(path=SHOTS / "dataset.png", full_page=True)
        assert errors == [] and off_loopback == []

    def test_a_sample_plays_its_audio_and_names_its_speakers(
        self, console: Api, page: Page, errors: list[str], off_loopback: list[str]
    ) -> None:
        wav = (DATA / "evalscope_examples/audio/beep_440hz.wav").read_bytes()
        row = {
            "messages": [
                {"role": "system", "content": "Answer in one word."},
                {
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "What is heard?"},
                        {
                            "type": "input_audio",
                            "input_audio": {
                                "data": "data:audio/wav;base64," + base64.b64encode(wav).decode(),
                                "format": "wav",
                            },
                        },
                    ],
                },
            ],
            "answer": "beep",
        }
        key = console.new_key("acme")
        client = console.client(key)
        dataset = client.post(
            "/v1/datasets",
            files={"file": ("sounds.jsonl", json.dumps(row).encode())},
            data={"format": "general_vqa", "name": "sounds"},
        )
        assert dataset.status_code == 201, dataset.text
        response = client.post(
            "/v1/runs",
            json={
                "dataset_id": dataset.json()["id"],
                "name": "sounds, given answers",
                "predictions": [{"index": 0, "prediction": "beep"}],
            },
        )
        assert response.status_code == 202, response.text
        run_id = response.json()["id"]
        wait(console, client, f"/v1/runs/{run_id}")
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/runs/{run_id}")

        question = page.locator("#sample-0 .question")
        expect(question.locator(".speaker")).to_have_text(["System", "User"])
        expect(question).to_contain_text("Answer in one word.")
        expect(question).to_contain_text("What is heard?")
        expect(question).not_to_contain_text("**")
        expect(question).not_to_contain_text("[an audio clip]")
        audio = question.locator("audio")
        expect(audio).to_have_count(1)
        expect(audio).to_have_attribute("aria-label", "Audio 1 of the user message")
        src = audio.get_attribute("src")
        assert src is not None and src.startswith("/console/media/")
        served = page.request.get(console.base_url + src)
        assert served.status == 200 and served.headers["content-type"] == "audio/wav"
        # The browser decodes the clip: it knows its length (the beep lasts a moment).
        audio.evaluate("a => { a.preload = 'auto'; a.load(); }")
        page.wait_for_function(
            "a => a.readyState >= 1 && a.duration > 0", arg=audio.element_handle()
        )
        assert errors == [] and off_loopback == []


class TestCompare:
    def test_two_evaluations_side_by_side(
        self, console: Api, page: Page, errors: list[str], off_loopback: list[str]
    ) -> None:
        key = console.new_key("acme")
        client = console.client(key)
        answers = ["A red circle."] * 6
        ids = []
        for name, outputs in (("before", answers), ("after", ["A blue square.", *answers[1:]])):
            body = judged_evaluation(name, outputs)
            body["metrics"] = body["metrics"][:1]
            ids.append(submit(client, body))
            wait(console, client, f"/v1/evaluations/{ids[-1]}")
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{ids[0]}")
        page.get_by_role("link", name="compare with…").click()
        page.get_by_label("Candidate").select_option(ids[1])
        page.get_by_role("button", name="Compare").click()
        row = page.locator("table.comparison tbody tr", has_text="exact")
        expect(row).to_contain_text("−0.167".replace("−", "-"))
        expect(row.locator(".verdict-badge")).to_have_text(
            # Six pairs make no interval: the verdict is undecided, never "no detectable change".
            re.compile("undecided")
        )
        item = page.locator("article.compare-item")
        expect(item).to_have_count(1)
        expect(item).to_contain_text("logo-0")
        expect(item.locator(".side").nth(0)).to_contain_text("A red circle.")
        expect(item.locator(".side").nth(1)).to_contain_text("A blue square.")
        expect(item.locator("figure.media img")).to_have_count(1)  # the image once
        image_loaded(page, "article.compare-item figure.media img")
        # docs/screenshots/comparison.png is taken by test_browser_pages.py.
        assert errors == [] and off_loopback == []

    def test_notes_errors_and_what_was_not_compared(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        # The judge refuses the candidate's first case, so its g_eval result errors.
        def answer(request: dict) -> Any:
            if "[refused]" in json.dumps(request):
                return Reply(status=400)
            return plausible_answer(request)

        judge.script(answer)
        key = console.new_key("acme")
        client = console.client(key)
        acc = {
            "type": "g_eval",
            "name": "acc",
            "evaluation_steps": ["Check the answer."],
            "evaluation_params": ["input", "actual_output"],
        }

        def body(refused: bool, threshold: float, shape: str, cases: int) -> dict[str, Any]:
            return {
                "test_cases": [
                    {
                        "id": f"c{index}",
                        "input": f"question {index}"
                        + (" [refused]" if refused and not index else ""),
                        "actual_output": "same",
                        "expected_output": "same",
                    }
                    for index in range(cases)
                ],
                "metrics": [
                    {"type": "exact_match", "name": "exact", "threshold": threshold},
                    {"type": shape, "name": "shape"},
                    acc,
                ],
                "cache": False,
            }

        baseline = submit(client, body(False, 1.0, "exact_match", 5))
        candidate = submit(client, body(True, 0.5, "bleu", 4))
        for evaluation_id in (baseline, candidate):
            wait(console, client, f"/v1/evaluations/{evaluation_id}")
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/compare?baseline={baseline}")
        page.get_by_label("Candidate").select_option(candidate)
        page.get_by_role("button", name="Compare").click()

        acc_row = page.locator("table.comparison tbody tr", has_text="acc")
        expect(acc_row.locator("td.errored-items")).to_have_text("0 → 1 more")
        exact_row = page.locator("table.comparison tbody tr", has_text="exact")
        expect(exact_row.locator("td.errored-items")).to_have_text("0 → 0")
        notes = page.get_by_role("region", name="Read with care")
        expect(notes).to_contain_text(
            "The two evaluations pass exact at different thresholds (1.0 on the baseline, 0.5 on "
            "the candidate)"
        )
        # Identical scores: no spread, so the interval and the detectable effect are explained.
        expect(notes.locator("li", has_text="acc:")).not_to_have_count(0)
        unmatched = page.get_by_role("region", name="Not compared")
        expect(unmatched).to_contain_text(
            "1 test case only in the baseline, 0 only in the candidate"
        )
        expect(unmatched).to_contain_text(
            "shape: exact_match on the baseline, bleu on the candidate"
        )
        assert errors == [] and off_loopback == []


class TestUntrustedContent:
    def test_injected_markup_never_runs(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        def hostile(request: dict) -> Any:
            if task_of(request) == "g_eval_score":
                return {"reason": f"Looks fine {XSS}", "score": 3}
            return plausible_answer(request)

        judge.script(hostile)
        key = console.new_key("mallory")
        client = console.client(key)
        body = judged_evaluation(XSS, [XSS])
        body["test_cases"][0]["input"][0] = f"Question {XSS}"
        evaluation_id = submit(client, body)
        wait(console, client, f"/v1/evaluations/{evaluation_id}")
        dataset_id = vqa_dataset(client, f"Which shape? {XSS}", XSS)
        sign_in(page, console, key)
        for path in (
            "/console/evaluations",
            f"/console/evaluations/{evaluation_id}",
            f"/console/evaluations/{evaluation_id}/cases/0",
            f"/console/datasets/{dataset_id}",
        ):
            page.goto(console.base_url + path)
            page.wait_for_load_state("load")
            # The markup is shown as text ...
            expect(page.get_by_text("<script>window.__pwned=1</script>").first).to_be_visible()
            # ... and nothing in it ran.
            assert page.evaluate("window.__pwned") is None, path
        reason = page.locator("article.result-card", has_text="helpfulness")
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}/cases/0")
        expect(reason.locator(".reason")).to_contain_text("Looks fine <script>")
        assert errors == [] and off_loopback == []


class TestTenants:
    def test_another_tenants_pages_and_media_are_404(self, console: Api, page: Page) -> None:
        owner = console.client(console.new_key("owner"))
        body = judged_evaluation("private", ["A red circle."])
        body["metrics"] = body["metrics"][:1]
        evaluation_id = submit(owner, body)
        wait(console, owner, f"/v1/evaluations/{evaluation_id}")
        (case,) = owner.get(f"/v1/evaluations/{evaluation_id}/test_cases").json()["data"]
        digest = case["input"][1]["image_url"]["url"].rsplit("/", 1)[1]

        sign_in(page, console, console.new_key("stranger"))
        for path in (
            f"/console/evaluations/{evaluation_id}",
            f"/console/evaluations/{evaluation_id}/cases/0",
            f"/console/media/{digest}",
        ):
            response = page.goto(console.base_url + path)
            assert response is not None and response.status == 404, path
            expect(page.get_by_role("heading", name="Not found")).to_be_visible()


class TestDocs:
    def test_swagger_ui_and_redoc_render_offline(
        self, console: Api, page: Page, errors: list[str], off_loopback: list[str]
    ) -> None:
        page.goto(f"{console.base_url}/docs")
        expect(page.locator(".opblock").first).to_be_visible(timeout=30_000)
        expect(page.locator(".opblock-summary-path", has_text="/v1/media/{sha256}")).to_be_visible()
        page.goto(f"{console.base_url}/redoc")
        expect(page.get_by_role("heading", name=re.compile("^Loupe")).first).to_be_visible(
            timeout=30_000
        )
        assert errors == [] and off_loopback == []
