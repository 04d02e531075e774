"""Browser fixtures: Debian's Chromium driven by Playwright (never `playwright install`), one
browser per test module, and an embedded Loupe for the browser tests of this package."""

import os
import shutil
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    Page,
    Playwright,
    sync_playwright,
)

from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
LOOPBACK = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (make test installs it)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM}


# pytest-playwright keeps one Playwright for the whole session, and its sync API leaves an event
# loop running in the main thread while it lives: every later test calling asyncio.run() would
# fail. Here it lives for one module of browser tests at a time, and stops with it.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="module")
def browser_context_args() -> dict[str, Any]:
    # No device emulation, video or base URL: pages are opened by absolute loopback URLs.
    return {}


@pytest.fixture(scope="module")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    return getattr(playwright, browser_name)


@pytest.fixture(scope="module")
def launch_browser(
    browser_type_launch_args: dict[str, Any], browser_type: BrowserType
) -> Callable[..., Browser]:
    return lambda **overrides: browser_type.launch(**{**browser_type_launch_args, **overrides})


@pytest.fixture(scope="module")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    launched = launch_browser()
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def base_url() -> str:
    # pytest-playwright's own base_url fixture warns under pytest 9; pages use absolute URLs.
    return ""


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory, judge_server: ScriptedJudge) -> Iterator[Api]:
    """Loupe on SQLite with its in-process worker; judge calls go to the scripted judge and may
    be held for a while (the live-progress test holds them)."""
    with side_app(
        tmp_path_factory.mktemp("console"),
        judge_base_url=judge_server.base_url,
        judge_timeout_seconds=60,
    ) as app:
        yield app


@pytest.fixture
def off_loopback(context: BrowserContext) -> list[str]:
    """Every request the page tried beyond loopback (each is refused): none is expected."""
    refused: list[str] = []

    def guard(route: Any) -> None:
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    return refused


@pytest.fixture
def errors(page: Page) -> list[str]:
    """Script errors and dialogs the page raised (an executed injection would open one)."""
    seen: list[str] = []
    page.on("pageerror", lambda error: seen.append(f"pageerror: {error}"))

    def dialog(d: Any) -> None:
        seen.append(f"dialog: {d.message}")
        d.dismiss()

    page.on("dialog", dialog)
    return seen
