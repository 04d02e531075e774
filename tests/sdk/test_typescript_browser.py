"""The TypeScript client as built (dist/) runs in Chromium too: the page is served at Loupe's own
origin (Playwright answers /__sdk__/* from sdk/typescript), so the API calls are same-origin."""

import json
import mimetypes
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Route, sync_playwright

from tests.fixtures.api import Api, side_app
from tests.sdk.conftest import TYPESCRIPT
from tests.sdk.helpers import RED

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"

SMOKE = """
import { Loupe, NotFoundError, imagePart, metric } from "/__sdk__/dist/src/index.js";
const { baseUrl, apiKey, image } = window.LOUPE;
const loupe = new Loupe({ baseUrl, apiKey });
try {
  const created = await loupe.evaluations.create({
    test_cases: [0, 1, 2].map((i) => ({
      input: ["What is shown?", imagePart(image)],
      actual_output: `answer ${i}`,
      expected_output: i === 2 ? "other" : `answer ${i}`,
    })),
    metrics: [metric("exact_match", {})],
  });
  const done = await loupe.waitForEvaluation(created.id, { timeoutMs: 60000 });
  const passed = [];
  for await (const result of loupe.evaluations.results(done.id, { limit: 1 })) {
    passed.push(result.passed);
  }
  let missing = null;
  try { await loupe.evaluations.get("eval_missing"); }
  catch (error) { missing = error instanceof NotFoundError ? error.status : String(error); }
  window.OUTCOME = { status: done.status, passed, missing };
} catch (error) {
  window.OUTCOME = { error: String(error) };
}
"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    with side_app(tmp_path_factory.mktemp("browser")) as app:
        yield app


class TestInChromium:
    def test_submit_wait_and_page_through_results(
        self,
        built: Path,
        served: Api,
    ) -> None:
        assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing (make test installs chromium)"
        settings = {"baseUrl": served.base_url, "apiKey": served.new_key(), "image": RED}
        page_html = (
            '<!doctype html><script type="importmap">'
            '{"imports": {"openapi-fetch": "/__sdk__/node_modules/openapi-fetch/dist/index.mjs"}}'
            f"</script><script>window.LOUPE = {json.dumps(settings)};</script>"
            '<script type="module" src="/__sdk__/smoke.js"></script>'
        )

        def answer(route: Route) -> None:
            path = route.request.url.split("/__sdk__/", 1)[1]
            if path == "index.html":
                route.fulfill(body=page_html, content_type="text/html")
            elif path == "smoke.js":
                route.fulfill(body=SMOKE, content_type="text/javascript")
            else:
                file = (TYPESCRIPT / path).resolve()
                assert file.is_relative_to(TYPESCRIPT) and file.is_file(), path
                kind = "text/javascript" if file.suffix in (".js", ".mjs") else None
                route.fulfill(
                    body=file.read_bytes(),
                    content_type=kind or mimetypes.guess_type(file.name)[0] or "text/plain",
                )

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            try:
                page = browser.new_page()
                page.route(f"{served.base_url}/__sdk__/**", answer)
                page.goto(f"{served.base_url}/__sdk__/index.html")
                page.wait_for_function("window.OUTCOME !== undefined", timeout=120_000)
                outcome = page.evaluate("window.OUTCOME")
            finally:
                browser.close()
        assert outcome == {"status": "completed", "passed": [True, True, False], "missing": 404}
