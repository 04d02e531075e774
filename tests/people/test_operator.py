"""The operator's view across teams (/console/operator): people in one of
LOUPE_OIDC_OPERATOR_GROUPS, signed in through the real provider, see every team's spend (as
GET /v1/usage counts it), limits, active jobs, live keys and members; a team admin who is no
operator, and an API key's session, get the 403 page."""

import re
from collections.abc import Iterator

import httpx
import pytest

from app.tenants import repository
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api, side_app
from tests.fixtures.judge import ScriptedJudge
from tests.people.provider import Provider, browser, settings_for, sign_in, signed_in
from tests.usage.test_costs import JUDGE_CALL_USD, cases, judge_reply

OPERATORS = "platform-ops"


@pytest.fixture(scope="module")
def loupe(
    tmp_path_factory: pytest.TempPathFactory, idp: Provider, judge_server: ScriptedJudge
) -> Iterator[Api]:
    settings = settings_for(
        idp.issuer, oidc_operator_groups=[OPERATORS], judge_base_url=judge_server.base_url
    )
    with side_app(tmp_path_factory.mktemp("operator"), **settings) as app:
        # The teams the groups map to, whichever of this module's tests an xdist worker runs.
        app.new_key("ml")
        app.new_key("search")
        yield app


def submit(client: httpx.Client, count: int, tag: str = "") -> str:
    # `tag`: questions the judge cache has not seen, so the judge is asked.
    test_cases = [{**case, "input": case["input"] + tag} for case in cases(count)]
    answer = client.post(
        "/v1/evaluations", json={"metrics": [{"type": "llm_accuracy"}], "test_cases": test_cases}
    )
    assert answer.status_code == 202, answer.text
    return answer.json()["id"]


def row_of(html: str, team: str) -> dict[str, str]:
    """The Operator page's row for a team: column label -> text."""
    found = re.search(rf'<td class="card-title">{team}</td>(.*?)</tr>', html, re.S)
    assert found, html
    cells = re.findall(r'<td data-label="([^"]+)">(.*?)</td>', found.group(1), re.S)
    return {label: re.sub(r"<[^>]+>", "", text).strip() for label, text in cells}


def test_an_operator_sees_every_team(loupe: Api, idp: Provider, judge: ScriptedJudge) -> None:
    judge.script(judge_reply)
    # With the module's own key of each team: two of ml's, three of search's.
    ml_key, search_key = loupe.new_key("ml"), loupe.new_key("search")
    loupe.new_key("search")
    with loupe.client(ml_key) as ml, loupe.client(search_key) as search:
        loupe.wait(ml, submit(ml, 3))
        loupe.wait(search, submit(search, 1))
        ml_usage = ml.get("/v1/usage").json()["cost_usd"]
        assert ml_usage == pytest.approx(3 * JUDGE_CALL_USD)
        # One of search's evaluations waits on the judge: an active job.
        judge.hold()
        held = submit(search, 1, " (held)")
        try:
            operator, _ = signed_in(loupe, idp, OPERATORS, "ml")
            member, _ = signed_in(loupe, idp, "ml")
            signed_in(loupe, idp, "search")
            page = operator.get("/console/operator")
            assert page.status_code == 200, page.text
            assert page.headers["cache-control"] == "no-store"
            assert 'href="/console/operator"' in page.text
            ml_row, search_row = row_of(page.text, "ml"), row_of(page.text, "search")
            assert ml_row["Spent today"] == f"${3 * JUDGE_CALL_USD:.4f}"
            assert ml_row["Last 30 days"] == f"${3 * JUDGE_CALL_USD:.4f}"
            assert search_row["Spent today"] == f"${JUDGE_CALL_USD:.4f}"
            assert ml_row["Active jobs"] == "0" and search_row["Active jobs"] == "1"
            assert ml_row["Live keys"] == "2" and search_row["Live keys"] == "3"
            # ml: the operator and the member; search: the viewer.
            assert ml_row["Members"] == "2" and search_row["Members"] == "1"
            assert ml_row["Max active"] == "no limit" and ml_row["Daily USD"] == "no limit"
            assert "(default)" in ml_row["Storage"]

            # A member of ml is no operator: no link, and the 403 page.
            assert 'href="/console/operator"' not in member.get("/console/evaluations").text
            refused = member.get("/console/operator")
            assert refused.status_code == 403
            assert "LOUPE_OIDC_OPERATOR_GROUPS" in refused.text
        finally:
            judge.release()
        loupe.wait(search, held)


def test_the_limits_a_team_has_are_shown(loupe: Api, idp: Provider) -> None:
    with loupe.served.runtime.session() as session:
        tenant = repository.tenant_by_name(session, "ml")
        assert tenant is not None
        tenant.max_active_evaluations, tenant.daily_usd, tenant.storage_bytes = 4, 2.5, 2048
        session.commit()
    operator, _ = signed_in(loupe, idp, OPERATORS, "ml")
    row = row_of(operator.get("/console/operator").text, "ml")
    assert row["Max active"] == "4" and row["Daily USD"] == "$2.50"
    assert row["Storage"] == "2.0 KiB"


def test_an_admin_who_is_no_operator_and_a_key_get_403(loupe: Api, idp: Provider) -> None:
    admin, _ = signed_in(loupe, idp, "ml-admins")
    assert admin.get("/console/operator").status_code == 403
    client = key_session(loupe, loupe.new_key("ml"))
    refused = client.get("/console/operator")
    assert refused.status_code == 403


def test_leaving_the_operator_group_ends_the_view_at_the_next_sign_in(
    loupe: Api, idp: Provider
) -> None:
    client, sub = signed_in(loupe, idp, OPERATORS, "ml")
    assert client.get("/console/operator").status_code == 200
    idp.set_user(sub, email=f"{sub}@example.com", groups=["ml"])
    again = browser(loupe)
    assert sign_in(again, sub).status_code == 200
    assert again.get("/console/operator").status_code == 403
