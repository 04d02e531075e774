"""The console's lists on a 420 px screen (Debian's Chromium via Playwright), loopback only:
the evaluations, runs and datasets lists reflow so every status badge, progress count and pass
rate is on screen, not cut off at the window's edge or hidden in a sideways scroll. Screenshot:
docs/screenshots/evaluations-narrow.png."""

from typing import Any

from playwright.sync_api import Page, expect

from tests.console.test_browser import (
    SHOTS,
    judged_evaluation,
    sign_in,
    submit,
    vqa_dataset,
    wait,
)
from tests.fixtures.api import Api
from tests.fixtures.judge import Reply, ScriptedJudge, plausible_answer

NARROW = {"width": 420, "height": 900}

# Each element's box against the window, and whether a box around it clips or scrolls it.
_PLACES = """selector => [...document.querySelectorAll(selector)].map(e => {
    const box = e.getBoundingClientRect();
    let hidden = false;
    for (let p = e.parentElement; p; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== 'visible' && p.scrollWidth > p.clientWidth + 1) hidden = true;
    }
    return {text: e.innerText, left: box.left, right: box.right, width: box.width,
            clipped: e.scrollWidth > e.clientWidth + 1, hidden};
})"""


def on_screen(page: Page, selector: str, expected: int | None = None) -> list[dict[str, Any]]:
    """Every element matching `selector` (`expected` of them, or at least one), asserted whole
    inside the 420 px window."""
    places = page.evaluate(_PLACES, selector)
    assert len(places) == expected if expected is not None else places, (selector, places)
    for place in places:
        assert place["width"] > 0 and place["left"] >= 0 and place["right"] <= 420, place
        assert not place["clipped"] and not place["hidden"], place
    return places


def page_fits(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 420


def errored_for_broken(request: dict) -> Reply | dict:
    """The judge refuses requests about the "broken" evaluation's outputs."""
    if "Broken answer" in str(request):
        return Reply(status=400)
    return plausible_answer(request)


class TestNarrowLists:
    def test_evaluations_runs_and_datasets_lists_read_at_420_px(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        judge.script(errored_for_broken)
        key = console.new_key("narrow team")
        client = console.client(key)
        clean = submit(
            client, judged_evaluation("logo captions, nightly", ["A red circle.", "A square."])
        )
        broken = submit(
            client, judged_evaluation("broken judge", ["Broken answer.", "Broken answer!"])
        )
        assert wait(console, client, f"/v1/evaluations/{clean}")["status"] == "completed"
        done = wait(console, client, f"/v1/evaluations/{broken}")
        assert done["completed_with_errors"] is True
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
        wait(console, client, f"/v1/runs/{response.json()['id']}")

        page.set_viewport_size(NARROW)
        sign_in(page, console, key)
        expect(page.locator("table.list tbody tr")).to_have_count(2)
        page_fits(page)
        badges = on_screen(page, "table.list .status", 2)
        assert sorted(b["text"] for b in badges) == ["completed", "completed with errors"]
        on_screen(page, "table.list progress", 2)
        counts = on_screen(page, "table.list .progress-count", 2)
        assert all(c["text"] == "8 / 8" for c in counts), counts
        # Four metrics each: every name and every pass rate on screen.
        on_screen(page, "table.list .rates .metric", 8)
        on_screen(page, "table.list .rates .rate", 8)
        # The judge refused the broken outputs: helpfulness and faithfulness errored there.
        on_screen(page, "table.list .rates .errored", 2)
        on_screen(page, "table.list time", 2)
        page.screenshot(path=SHOTS / "evaluations-narrow.png", full_page=True)

        page.goto(f"{console.base_url}/console/runs")
        expect(page.locator("table.list tbody tr")).to_have_count(1)
        page_fits(page)
        on_screen(page, "table.list .status", 1)
        on_screen(page, "table.list .progress-count", 1)
        on_screen(page, "table.list td a.mono", 1)  # the dataset id
        on_screen(page, "table.list td.headline", 1)

        page.goto(f"{console.base_url}/console/datasets")
        expect(page.locator("table.list tbody tr")).to_have_count(1)
        page_fits(page)
        on_screen(page, "table.list td", 6)
        assert errors == [] and off_loopback == []
