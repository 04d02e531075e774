"""A team admin's keys and the operator's view in a real browser (Debian's Chromium via
Playwright), signed in through a real OpenID provider on loopback: the admin makes a key through
the form (its secret shown once), finds it listed without its secret, revokes it; an operator
sees every team on the Operator page. Retakes docs/screenshots/keys.png and operator.png."""

import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect

from app.db import utcnow
from app.tenants.service import create_key
from tests.console.test_browser import SHOTS, sign_in
from tests.console.test_browser_oidc import ours, sign_in_at_provider
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.people.provider import Provider, provider, settings_for
from tests.usage.test_costs import JUDGE_CALL_USD, cases, judge_reply


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@pytest.fixture(scope="module")
def loupe(
    tmp_path_factory: pytest.TempPathFactory, idp: Provider, judge_server: ScriptedJudge
) -> Iterator[Api]:
    settings = settings_for(
        idp.issuer, oidc_operator_groups=["platform-ops"], judge_base_url=judge_server.base_url
    )
    with side_app(tmp_path_factory.mktemp("keys"), **settings) as app:
        app.new_key("search")
        yield app


def test_keys_and_the_operators_view(
    page: Page,
    loupe: Api,
    idp: Provider,
    judge: ScriptedJudge,
    errors: list[str],
    off_loopback: list[str],
) -> None:
    judge.script(judge_reply)
    with loupe.client(loupe.new_key("ml")) as ml:
        made = ml.post(
            "/v1/evaluations", json={"metrics": [{"type": "llm_accuracy"}], "test_cases": cases(2)}
        )
        assert made.status_code == 202, made.text
        loupe.wait(ml, made.json()["id"])
    sub = f"olga-{uuid.uuid4().hex[:6]}"
    idp.set_user(sub, email=f"{sub}@example.com", name="Olga", groups=["ml-admins", "platform-ops"])
    sign_in_at_provider(page, loupe, sub)
    expect(page.get_by_role("heading", name="Evaluations", exact=True)).to_be_visible()

    page.get_by_role("link", name="Keys").click()
    expect(page.get_by_role("heading", name="Keys", exact=True)).to_be_visible()
    page.get_by_label("Name").fill("ci ingest")
    page.get_by_label("ingest").check()
    page.get_by_label("Expires after").select_option("30d")
    page.get_by_role("button", name="Create key").click()
    expect(page.get_by_role("heading", name="Key created")).to_be_visible()
    secret = page.locator("#secret").inner_text()
    assert secret.startswith("lp_")
    page.get_by_role("link", name="Back to the keys").click()
    row = page.locator("table.keys tbody tr", has_text="ci ingest")
    expect(row).to_contain_text("read, ingest")
    expect(row).to_contain_text("live")
    assert secret not in page.content()
    page.screenshot(path=str(SHOTS / "keys.png"), full_page=True)
    row.get_by_role("button", name="Revoke ci ingest").click()
    expect(page.locator("table.keys tbody tr", has_text="ci ingest")).to_contain_text("revoked")
    with loupe.client(secret) as client:
        assert client.get("/v1/evaluations").status_code == 401

    page.get_by_role("link", name="Operator").click()
    expect(page.get_by_role("heading", name="Operator")).to_be_visible()
    ml_row = page.locator("table.operator tbody tr", has_text="ml")
    expect(ml_row.locator('[data-label="Spent today"]')).to_have_text(f"${2 * JUDGE_CALL_USD:.4f}")
    expect(page.locator("table.operator tbody tr", has_text="search")).to_be_visible()
    page.screenshot(path=str(SHOTS / "operator.png"), full_page=True)
    assert errors == [] and ours(off_loopback) == []


def test_a_key_signed_in_is_told_its_new_key_expires_with_it(
    page: Page, loupe: Api, errors: list[str], off_loopback: list[str]
) -> None:
    """Signed in with a key given for 40 days, an admin asks for a key that never expires: the
    answer page shows the earlier expiry and says why (a key makes no key that outlives it)."""
    ends = utcnow() + timedelta(days=40)
    with loupe.served.runtime.session() as session:
        _, expiring = create_key(session, "ml", scopes=["read", "admin"], expires_at=ends)
        session.commit()
    sign_in(page, loupe, expiring)
    page.goto(f"{loupe.base_url}/console/keys")
    page.get_by_label("Name").fill("made forever")
    page.get_by_label("Expires after").select_option("never")
    page.get_by_role("button", name="Create key").click()
    expect(page.get_by_role("heading", name="Key created")).to_be_visible()
    expires = page.locator("dd", has_text="UTC")
    expect(expires).to_contain_text(ends.strftime("%Y-%m-%d"))
    expect(expires).to_contain_text("does not outlive it")
    assert errors == [] and ours(off_loopback) == []
