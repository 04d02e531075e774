"""Signing in through the company's identity provider, in a real browser (Debian's Chromium via
Playwright) against a real OpenID provider on loopback (oidc-provider-mock): the person lands in
the team and role their groups claim maps to, switches teams, is refused a page their role does
not allow, signs out (the old cookie no longer works), and a denied sign-in gets the error page.

The browser reaches Loupe as `localhost` and the provider as `127.0.0.1`, two different sites:
the provider's redirect back is cross-site, as in production, so the SameSite=Strict session
cookie and the Lax sign-in cookie are exercised as they are meant to be. Retakes
docs/screenshots/members.png."""

import uuid
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.console.test_browser import SHOTS
from tests.fixtures.api import Api, side_app
from tests.people.provider import Provider, provider, settings_for


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@pytest.fixture(scope="module")
def loupe(tmp_path_factory: pytest.TempPathFactory, idp: Provider) -> Iterator[Api]:
    with side_app(tmp_path_factory.mktemp("oidc"), **settings_for(idp.issuer)) as app:
        app.new_key("ml")
        app.new_key("search")
        yield app


def site(api: Api) -> str:
    """Loupe as the browser reaches it: another site than the provider's 127.0.0.1."""
    return api.base_url.replace("127.0.0.1", "localhost")


def ours(refused: list[str]) -> list[str]:
    """The off-loopback requests, less the provider page's own stylesheet (oidc-provider-mock
    links Pico CSS from a CDN; refused here, and no part of Loupe)."""
    return [url for url in refused if "/@picocss/" not in url]


def sign_in_at_provider(page: Page, api: Api, sub: str) -> None:
    page.goto(f"{site(api)}/console/sign-in")
    page.get_by_role("link", name="Sign in with your identity provider").click()
    expect(page.get_by_role("heading", name="Authorize Client")).to_be_visible()
    page.get_by_placeholder("sub").fill(sub)
    page.get_by_role("button", name="Authorize", exact=True).click()


class TestOidcSignIn:
    def test_sign_in_switch_teams_and_sign_out(
        self,
        page: Page,
        context: BrowserContext,
        browser: Browser,
        loupe: Api,
        idp: Provider,
        errors: list[str],
        off_loopback: list[str],
    ) -> None:
        sub = f"alice-{uuid.uuid4().hex[:6]}"
        idp.set_user(sub, email=f"{sub}@example.com", name="Alice", groups=["ml-admins", "search"])
        sign_in_at_provider(page, loupe, sub)
        # Landed in ml (the first of the person's teams) as its admin.
        expect(page.get_by_role("heading", name="Evaluations", exact=True)).to_be_visible()
        assert page.url == f"{site(loupe)}/console/evaluations"
        expect(page.locator(".tenant")).to_have_text("ml")
        cookies = {c["name"]: c for c in context.cookies()}
        session = cookies["loupe_session"]
        assert session["httpOnly"] and session["sameSite"] == "Strict"
        assert "loupe_oidc" not in cookies

        page.get_by_role("link", name="Members").click()
        expect(page.get_by_role("heading", name="Members")).to_be_visible()
        row = page.locator("table.members tbody tr", has_text=f"{sub}@example.com")
        expect(row.locator("td[data-label=Role]")).to_have_text("admin")
        expect(row.locator("td[data-label=From]")).to_have_text("identity provider")
        page.screenshot(path=str(SHOTS / "members.png"), full_page=True)

        page.get_by_role("link", name="Teams").click()
        page.get_by_role("button", name="Switch to search").click()
        expect(page.locator(".tenant")).to_have_text("search")
        # A viewer in search sees the team's members but no form to change them, and an
        # action posted anyway (with the session's own CSRF token) gets the 403 page.
        page.get_by_role("link", name="Members").click()
        expect(page.get_by_role("heading", name="Members")).to_be_visible()
        expect(page.get_by_role("button", name="Grant")).to_have_count(0)
        token = page.locator("form.signout input[name=csrf_token]").input_value()
        refused = context.request.post(
            f"{site(loupe)}/console/members",
            form={"email": f"{sub}@example.com", "role": "admin", "csrf_token": token},
        )
        assert refused.status == 403
        assert "your role in team search gives read" in refused.text()

        kept = context.cookies()
        page.goto(f"{site(loupe)}/console/evaluations")
        page.get_by_role("button", name="Sign out").click()
        expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
        # The cookie from before signing out, in a fresh browser: back to the sign-in page.
        other = browser.new_context()
        other.add_cookies(kept)  # type: ignore[arg-type]
        stale = other.new_page()
        stale.goto(f"{site(loupe)}/console/evaluations")
        expect(stale.get_by_role("heading", name="Sign in")).to_be_visible()
        other.close()
        assert errors == [] and ours(off_loopback) == []

    def test_a_denied_sign_in_gets_the_error_page(
        self, page: Page, loupe: Api, errors: list[str], off_loopback: list[str]
    ) -> None:
        page.goto(f"{site(loupe)}/console/sign-in")
        page.get_by_role("link", name="Sign in with your identity provider").click()
        page.get_by_role("button", name="Deny").click()
        expect(page.get_by_role("heading", name="Sign-in refused")).to_be_visible()
        expect(page.get_by_role("alert")).to_contain_text("access_denied")
        assert errors == [] and ours(off_loopback) == []
