"""A team admin manages online rules in a real browser (Debian's Chromium via Playwright), signed
in through a real OpenID provider on loopback (issue 28 item 2): the Production page's New rule
form names the field at fault (metrics that are not JSON) and keeps what was typed, then makes
the rule; the rule's settings form changes its sampling; the rule is disabled, then deleted after
its confirmation page; the admin reads the team's limits. A member sees neither form nor button,
and a form they post anyway with the page's valid CSRF token gets the 403 page. The audit trail
(GET /v1/audit_events) has each change as the admin's. Retakes
docs/screenshots/online-rule-admin.png, online-rule-admin-new.png and online-rule-admin-limits.png.
"""

import json
import re
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from app.models import Person
from tests.console.conftest import LOOPBACK
from tests.console.test_browser import SHOTS
from tests.console.test_browser_oidc import ours, sign_in_at_provider, site
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.people.provider import Provider, provider, settings_for

METRICS = [{"type": "answer_relevancy", "threshold": 0.7}]


@pytest.fixture(scope="module")
def idp() -> Iterator[Provider]:
    with provider() as started:
        yield started


@pytest.fixture(scope="module")
def loupe(
    tmp_path_factory: pytest.TempPathFactory, idp: Provider, judge_server: ScriptedJudge
) -> Iterator[Api]:
    settings = settings_for(idp.issuer, judge_base_url=judge_server.base_url)
    with side_app(tmp_path_factory.mktemp("rules-admin-browser"), **settings) as app:
        app.new_key("ml")
        yield app


def person(idp: Provider, *groups: str) -> str:
    sub = f"p-{uuid.uuid4().hex[:8]}"
    idp.set_user(sub, email=f"{sub}@example.com", name=sub, groups=list(groups))
    return sub


def actor_of(loupe: Api, sub: str) -> str:
    with loupe.served.runtime.session() as session:
        return "person:" + session.query(Person).filter(Person.subject == sub).one().id


def fact(page: Page, term: str) -> str:
    """What a rule page's facts say for `term` (Sampling, Daily budget)."""
    return page.locator(f"dl.facts dt:text-is('{term}') + dd").inner_text()


def test_an_admin_creates_changes_disables_and_deletes_a_rule(
    page: Page,
    browser: Browser,
    loupe: Api,
    idp: Provider,
    errors: list[str],
    off_loopback: list[str],
) -> None:
    admin = person(idp, "ml-admins")
    sign_in_at_provider(page, loupe, admin)
    expect(page.get_by_role("heading", name="Evaluations", exact=True)).to_be_visible()

    page.get_by_role("link", name="Production").click()
    expect(page.get_by_role("heading", name="New rule")).to_be_visible()
    page.get_by_label("Name", exact=True).fill("support answers")
    page.get_by_label("Attribute").fill("service.name")
    page.get_by_label("Condition").select_option("eq")
    page.get_by_label("Value", exact=True).fill("support-bot")
    page.get_by_label("Sampling rate").fill("0.2")
    page.get_by_label("Metrics").fill('[{"type": "answer_relevancy", threshold: 0.7}]')
    page.get_by_label("Daily budget in USD").fill("3")
    page.get_by_role("button", name="Create rule").click()
    refused = page.locator(".form-errors")
    expect(refused).to_contain_text("metrics: not JSON")
    # What was typed is still there, to be fixed rather than typed again.
    expect(page.get_by_label("Name", exact=True)).to_have_value("support answers")
    expect(page.get_by_label("Daily budget in USD")).to_have_value("3")
    page.screenshot(path=str(SHOTS / "online-rule-admin-new.png"), full_page=True)

    page.get_by_label("Metrics").fill(json.dumps(METRICS))
    page.get_by_role("button", name="Create rule").click()
    expect(page.get_by_role("heading", name="support answers")).to_be_visible()
    rule_id = page.url.rsplit("/", 1)[1]
    assert re.fullmatch(r"rule_\w+", rule_id), page.url
    assert fact(page, "Sampling") == "20% of matching traces"
    assert fact(page, "Daily budget") == "$3.00 a UTC day"

    page.get_by_label("Sampling rate").fill("0.5")
    page.get_by_label("Daily budget in USD").fill("")
    page.get_by_role("button", name="Save settings").click()
    expect(page.locator("dl.facts dt:text-is('Sampling') + dd")).to_have_text(
        "50% of matching traces"
    )
    assert fact(page, "Daily budget") == "no cap"
    page.screenshot(path=str(SHOTS / "online-rule-admin.png"), full_page=True)

    page.get_by_role("button", name="Disable rule").click()
    expect(page.locator("h1 .status")).to_have_text("disabled")
    expect(page.get_by_role("button", name="Enable rule")).to_be_visible()

    member_sees_no_form_and_is_refused(browser, loupe, idp, rule_id)

    page.get_by_role("link", name="Limits").click()
    expect(page.get_by_role("heading", name="Limits")).to_be_visible()
    expect(page.locator("main")).to_contain_text("loupe tenants limits --tenant ml")
    page.screenshot(path=str(SHOTS / "online-rule-admin-limits.png"), full_page=True)

    page.goto(f"{site(loupe)}/console/online_rules/{rule_id}")
    page.get_by_role("link", name="Delete rule").click()
    expect(page.get_by_role("heading", name="Delete rule support answers?")).to_be_visible()
    page.get_by_role("button", name="Delete support answers").click()
    expect(page.get_by_role("heading", name="Production")).to_be_visible()
    expect(page.get_by_role("link", name="support answers")).to_have_count(0)

    with loupe.client(loupe.new_key("ml")) as client:
        assert client.get(f"/v1/online_rules/{rule_id}").status_code == 404
        events = client.get("/v1/audit_events", params={"object_id": rule_id}).json()["data"]
    actor = actor_of(loupe, admin)
    assert [(e["action"], e["actor"]) for e in reversed(events)] == [
        ("online_rule.create", actor),
        ("online_rule.update", actor),
        ("online_rule.disable", actor),
        ("online_rule.delete", actor),
    ]
    assert errors == [] and ours(off_loopback) == []


def member_sees_no_form_and_is_refused(
    browser: Browser, loupe: Api, idp: Provider, rule_id: str
) -> None:
    """A member, in a browser of their own, sees the rule without its forms; a form they build
    with the page's valid CSRF token gets the 403 page, and the rule stays disabled."""
    context = browser.new_context()
    # Loopback only, as the `off_loopback` fixture keeps the admin's browser.
    context.route(
        "**/*",
        lambda route: (
            route.continue_() if urlsplit(route.request.url).hostname in LOOPBACK else route.abort()
        ),
    )
    try:
        page = context.new_page()
        sign_in_at_provider(page, loupe, person(idp, "ml"))
        expect(page.get_by_role("heading", name="Evaluations", exact=True)).to_be_visible()
        expect(page.get_by_role("link", name="Limits")).to_have_count(0)
        page.get_by_role("link", name="Production").click()
        expect(page.get_by_role("link", name="support answers")).to_be_visible()
        expect(page.get_by_role("heading", name="New rule")).to_have_count(0)
        page.get_by_role("link", name="support answers").click()
        expect(page.get_by_role("heading", name="support answers")).to_be_visible()
        for hidden in ("Save settings", "Enable rule", "Disable rule"):
            expect(page.get_by_role("button", name=hidden)).to_have_count(0)
        expect(page.get_by_role("link", name="Delete rule")).to_have_count(0)
        # Posting anyway: a form like the admin's, with this page's own valid token.
        page.evaluate(
            """id => {
                const form = document.createElement('form');
                form.method = 'post';
                form.action = `/console/online_rules/${id}/enable`;
                const token = document.querySelector('input[name=csrf_token]').cloneNode();
                form.appendChild(token);
                document.body.appendChild(form);
                form.submit();
            }""",
            rule_id,
        )
        expect(page.locator("main")).to_contain_text("needs the `admin` scope")
    finally:
        context.close()
    with loupe.client(loupe.new_key("ml")) as client:
        assert client.get(f"/v1/online_rules/{rule_id}").json()["enabled"] is False
