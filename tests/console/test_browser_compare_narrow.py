"""The Compare picker and a comparison page on a 420 px screen, in a real browser (Debian's
Chromium via Playwright), loopback only: nothing wider than the window (wide tables scroll in
their own box), every box inside its item card. Retakes docs/screenshots/comparison-narrow.png.
"""

from playwright.sync_api import Page, expect

from tests.console.test_browser import SHOTS, image_loaded, sign_in, submit, wait
from tests.console.test_browser_pages import judge_answer, logo_evaluation
from tests.fixtures.api import Api
from tests.fixtures.judge import ScriptedJudge

NARROW = {"width": 420, "height": 900}

# Every element outside a scrolling box whose right edge passes the window's or its item
# card's (1 px of rounding allowed): what sticks out, as "tag.class: right edge".
STICKING_OUT = """() => {
  const limit = document.documentElement.clientWidth + 1;
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('.table-scroll') && !el.classList.contains('table-scroll')) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const card = el.parentElement && el.parentElement.closest('.compare-item');
    const right = card ? card.getBoundingClientRect().right + 1 : limit;
    if (box.right > Math.min(limit, right)) {
      out.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(box.right)}`);
    }
  }
  return out;
}"""


def fits(page: Page) -> None:
    """The document is no wider than the window, and nothing sticks out of it or its card."""
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, window.innerWidth, "
        "document.querySelector('header, .top').getBoundingClientRect().width]"
    )
    scroll_width, viewport, header = widths
    sticking_out = page.evaluate(STICKING_OUT)
    assert scroll_width <= viewport, (widths, sticking_out)
    assert header == viewport, widths
    assert sticking_out == []


class TestComparisonAt420Px:
    def test_picker_and_page_fit_the_window(
        self,
        console: Api,
        judge: ScriptedJudge,
        page: Page,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        # The page was 971 px wide (its header stopped at 420), item cards' boxes stuck out,
        # and the Compare picker was 476 px wide.
        judge.script(judge_answer)
        key = console.new_key("acme")
        client = console.client(key)
        ids = []
        for name, answer, criteria in (
            ("logo captions, the first long-named version", "A red circle.", "Is it right?"),
            ("logo captions, the second long-named version", "A blue square.", "Is it short?"),
        ):
            ids.append(submit(client, logo_evaluation(name, answer, criteria)))
            wait(console, client, f"/v1/evaluations/{ids[-1]}")
        page.set_viewport_size(NARROW)
        sign_in(page, console, key)

        page.goto(f"{console.base_url}/console/compare?baseline={ids[0]}")
        fits(page)
        page.get_by_label("Candidate").select_option(ids[1])
        page.get_by_role("button", name="Compare").click()

        item = page.locator("article.compare-item")
        expect(item).to_have_count(1)
        image_loaded(page, "article.compare-item figure.media img")
        fits(page)
        # The per-metric table and each item's changes scroll inside their own boxes.
        for scroller in (
            page.locator(".table-scroll:has(table.comparison)"),
            item.locator(".table-scroll:has(table.changes)"),
        ):
            expect(scroller).to_have_count(1)
        page.screenshot(path=SHOTS / "comparison-narrow.png", full_page=True)
        assert errors == [] and off_loopback == []
