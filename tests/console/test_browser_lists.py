"""The console's lists in a real browser (Debian's Chromium via Playwright), loopback only: the
results table grouped by test case with thumbnails, readable on a 420 px screen; OpenAI eval runs
listed and named by their eval and criteria. Screenshots go to docs/screenshots/."""

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.console.test_browser import (
    SHOTS,
    image_loaded,
    judged_evaluation,
    sign_in,
    submit,
    wait,
)
from tests.evals.helpers import CRITERIA, ROWS, grading, texts
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
NARROW = {"width": 420, "height": 900}


def graders_or_metrics(request: dict) -> Reply | dict:
    """The eval's graders as tests/evals script them; Loupe's own metrics plausibly."""
    if "LABEL-GRADER" in texts(request) or "SCORE-GRADER" in texts(request):
        return grading(request)
    return plausible_answer(request)


def thumbnails_loaded(page: Page) -> int:
    """Scroll each thumbnail into view (they load lazily) and wait until it has decoded;
    returns how many there are."""
    thumbs = page.locator("table.results img.thumb")
    for index in range(thumbs.count()):
        thumbs.nth(index).scroll_into_view_if_needed()
        page.wait_for_function(
            "i => i.complete && i.naturalWidth > 0", arg=thumbs.nth(index).element_handle()
        )
    page.evaluate("window.scrollTo(0, 0)")
    return thumbs.count()


def no_repeated_words(texts_seen: list[str]) -> None:
    for text in texts_seen:
        words = text.split()
        assert all(a != b for a, b in zip(words, words[1:], strict=False)), f"repeated in {text!r}"


def eval_run(client: httpx.Client, api: Api) -> tuple[str, str]:
    """The eval "chart qa" (criteria `exact`: string_check, `judge`: label_model seeing the
    row's image) and a completed run of it named "nightly": (eval id, run id)."""
    created = client.post(
        "/v1/evals",
        json={
            "name": "chart qa",
            "data_source_config": {
                "type": "custom",
                "item_schema": {"type": "object"},
                "include_sample_schema": True,
            },
            "testing_criteria": [CRITERIA[0], CRITERIA[2]],
        },
    )
    assert created.status_code in (200, 201), created.text
    eval_id = created.json()["id"]
    run = client.post(
        f"/v1/evals/{eval_id}/runs",
        json={
            "name": "nightly",
            "data_source": {
                "type": "jsonl",
                "source": {"type": "file_content", "content": ROWS[:3]},
            },
        },
    )
    assert run.status_code in (200, 201), run.text
    run_id = run.json()["id"]
    finished = wait(api, client, f"/v1/evals/{eval_id}/runs/{run_id}")
    assert finished["status"] == "completed", finished
    return eval_id, run_id


class TestResultsTable:
    def test_grouped_by_case_with_thumbnails_and_readable_at_420_px(
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
        evaluation_id = submit(client, body)
        assert wait(console, client, f"/v1/evaluations/{evaluation_id}")["status"] == "completed"
        sign_in(page, console, key)
        page.goto(f"{console.base_url}/console/evaluations/{evaluation_id}")

        groups = page.locator("table.results tbody.case-group")
        expect(groups).to_have_count(3)
        for index in range(3):
            group = groups.nth(index)
            # The case once (its link, its thumbnail), its four metrics under it.
            expect(group.locator("a[href*='/cases/']")).to_have_count(1)
            expect(group.get_by_role("link")).to_have_text(f"logo-{index}")
            expect(group.locator("tr.result")).to_have_count(4)
            expect(group.locator("img.thumb")).to_have_count(1)
            expect(group.locator("img.thumb")).to_have_attribute(
                "alt", f"First image of test case logo-{index}"
            )
            expect(group.locator("img.thumb")).to_have_attribute("loading", "lazy")
        assert thumbnails_loaded(page) == 3
        sizes = page.locator("img.thumb").evaluate_all(
            "imgs => imgs.map(i => [i.naturalWidth, i.getBoundingClientRect().width])"
        )
        assert all(natural > 0 and 0 < shown <= 64 for natural, shown in sizes), sizes

        # "faithfulness" (named as its type) once, "helpfulness" with its type g_eval.
        summary_names = page.locator("table.summary tbody th[scope=row]").all_inner_texts()
        result_names = page.locator("table.results td.metric-name").all_inner_texts()
        no_repeated_words(summary_names + result_names)
        assert "faithfulness" in summary_names and "helpfulness g_eval" in summary_names
        assert result_names.count("faithfulness") == 3
        page.screenshot(path=SHOTS / "evaluation.png", full_page=True)

        page.set_viewport_size(NARROW)
        page.reload()
        thumbnails_loaded(page)
        widths = page.evaluate(
            """() => ({
                page: document.documentElement.scrollWidth,
                viewport: window.innerWidth,
                box: document.querySelector('#progress .table-scroll')
                    .getBoundingClientRect().right,
                boxClient: document.querySelector('#progress .table-scroll').clientWidth,
                summary: document.querySelector('table.summary').scrollWidth,
                groups: [...document.querySelectorAll('tbody.case-group')]
                    .map(g => g.getBoundingClientRect().right),
            })"""
        )
        assert widths["viewport"] == 420
        # Nothing widens the page; the summary scrolls inside its box instead of being cut.
        assert widths["page"] <= 420, widths
        assert widths["box"] <= 420 and widths["boxClient"] < widths["summary"], widths
        assert all(right <= 420 for right in widths["groups"]), widths
        page.screenshot(path=SHOTS / "evaluation-narrow.png", full_page=True)
        assert errors == [] and off_loopback == []


class TestEvalRuns:
    def test_listed_with_their_eval_and_titled_with_criteria_names(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(graders_or_metrics)
        key = console.new_key("vision team")
        client = console.client(key)
        body: dict[str, Any] = judged_evaluation("logo captions", ["A red circle.", "A square."])
        evaluation_id = submit(client, body)
        wait(console, client, f"/v1/evaluations/{evaluation_id}")
        eval_id, run_id = eval_run(client, console)

        sign_in(page, console, key)
        rows = page.locator("table.list tbody tr")
        expect(rows).to_have_count(2)
        run_row = rows.filter(has_text="OpenAI eval run")
        expect(run_row.get_by_role("link")).to_have_text("chart qa · nightly")
        expect(run_row.locator(".rates .metric")).to_have_text(["exact", "judge"])
        assert not UUID.search(page.locator("main").inner_text())
        page.screenshot(path=SHOTS / "evaluations.png", full_page=True)

        page.get_by_label("Kind").select_option("eval_run")
        page.get_by_role("button", name="Filter").click()
        expect(page).to_have_url(re.compile(r"kind=eval_run"))
        expect(rows).to_have_count(1)
        rows.get_by_role("link", name="chart qa · nightly").click()

        expect(page).to_have_title("chart qa · nightly · Loupe")
        expect(page.get_by_role("heading", level=1)).to_have_text("chart qa · nightly")
        summary_names = page.locator("table.summary tbody th[scope=row]").all_inner_texts()
        assert summary_names == ["exact string_check", "judge label_model"]
        expect(page.locator("table.results tbody.case-group")).to_have_count(3)
        result_names = page.locator("table.results td.metric-name").all_inner_texts()
        assert result_names == ["exact string_check", "judge label_model"] * 3
        options = page.get_by_label("Metric").locator("option").all_inner_texts()
        assert options == ["all", "exact", "judge"]
        assert thumbnails_loaded(page) == 3
        assert not UUID.search(page.locator("main").inner_text())
        page.screenshot(path=SHOTS / "eval_run.png", full_page=True)

        # Filtering by a criterion, then its test case: names there too, never ids.
        page.get_by_label("Metric").select_option(label="judge")
        page.get_by_role("button", name="Apply").click()
        expect(page.locator("table.results tr.result")).to_have_count(3)
        page.locator("table.results tbody.case-group").first.get_by_role("link").click()
        expect(page.get_by_role("heading", level=3)).to_have_text(
            [re.compile(r"^exact\b"), re.compile(r"^judge\b")]
        )
        image_loaded(page, "figure.media img")
        assert not UUID.search(page.locator("main").inner_text())
        assert eval_id
        assert errors == [] and off_loopback == []
