"""Signing people in through a real OpenID provider on loopback (oidc-provider-mock), driven
over HTTP: the groups claim maps to teams and roles, the console checks the role on every page
and action, team admins grant roles (on the audit trail as `person:<id>`), sign-out ends the
session, and a refused sign-in (expired token, replayed or forged callback, a provider whose
issuer is not the configured one, no mapped team) gets the sign-in error page."""

import re
from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from app.people import oidc
from tests.fixtures.api import Api, side_app
from tests.people.provider import (
    Provider,
    browser,
    csrf_of,
    person,
    provider,
    settings_for,
    sign_in,
    signed_in,
)


class TestSignIn:
    def test_groups_claim_gives_team_and_role(self, loupe: Api, idp: Provider) -> None:
        client, sub = signed_in(loupe, idp, "ml", "ml-read")
        page = client.get("/console/evaluations")
        assert page.status_code == 200
        # The highest of the groups' roles in ml: member, who may act but not administer.
        assert '<span class="tenant" title="Signed in as">ml</span>' in page.text
        assert 'href="/console/teams"' in page.text and 'href="/console/members"' in page.text
        # A member sees who is in the team; granting roles is for the team's admins.
        members = client.get("/console/members")
        assert members.status_code == 200 and "Grant a role" not in members.text
        grant = client.post(
            "/console/members",
            data={"email": f"{sub}@example.com", "role": "admin", "csrf_token": csrf_of(page.text)},
        )
        assert grant.status_code == 403 and "needs the `admin` scope" in grant.text
        assert "client-secret-never-shown" not in page.text

    def test_a_person_in_two_teams_switches(self, loupe: Api, idp: Provider) -> None:
        client, _ = signed_in(loupe, idp, "ml-review", "search")
        teams = client.get("/console/teams")
        assert teams.status_code == 200
        assert ">reviewer<" in teams.text and ">viewer<" in teams.text
        search_id = re.search(r'name="tenant_id" value="([^"]+)"', teams.text)
        assert search_id is not None
        switched = client.post(
            "/console/teams",
            data={"tenant_id": search_id.group(1), "csrf_token": csrf_of(teams.text)},
        )
        assert switched.status_code == 303
        page = client.get("/console/evaluations")
        assert 'title="Signed in as">search</span>' in page.text
        # A team the person is not in cannot be switched to.
        other = client.post(
            "/console/teams", data={"tenant_id": "ten_x", "csrf_token": csrf_of(page.text)}
        )
        assert other.status_code == 404

    def test_sign_out_ends_the_session_for_good(self, loupe: Api, idp: Provider) -> None:
        client, _ = signed_in(loupe, idp, "ml")
        page = client.get("/console/evaluations")
        kept = client.cookies.get("loupe_session")
        out = client.post("/console/sign-out", data={"csrf_token": csrf_of(page.text)})
        assert out.status_code == 303
        replay = browser(loupe)
        replay.cookies.set("loupe_session", kept or "")
        assert replay.get("/console/evaluations").status_code == 303

    def test_no_mapped_team_says_so(self, loupe: Api, idp: Provider) -> None:
        client = browser(loupe)
        done = sign_in(client, person(idp, "marketing"))
        assert done.status_code == 403
        assert "none of your groups gives you a team" in done.text
        assert "loupe_session" not in client.cookies


class TestRoles:
    def test_a_viewer_cannot_act_and_a_member_can(self, loupe: Api, idp: Provider) -> None:
        viewer, _ = signed_in(loupe, idp, "ml-read")
        member, _ = signed_in(loupe, idp, "ml")
        for client, status in ((viewer, 403), (member, 400)):
            page = client.get("/console/evaluations")
            assert page.status_code == 200
            # Cancelling needs `write`: a viewer gets the 403 page before the id is looked at;
            # a member's request reaches the action (an unknown evaluation).
            answer = client.post(
                "/console/evaluations/evn_missing/cancel",
                data={"csrf_token": csrf_of(page.text)},
            )
            assert answer.status_code in ((403,) if status == 403 else (404, 400)), answer.text
            if status == 403:
                assert "your role in team ml gives read" in answer.text

    def test_the_audit_trail_is_for_team_admins(self, loupe: Api, idp: Provider) -> None:
        member, _ = signed_in(loupe, idp, "ml")
        admin, _ = signed_in(loupe, idp, "ml-admins")
        refused = member.get("/console/audit")
        assert refused.status_code == 403
        assert "The audit trail is for a team" in refused.text and "admins" in refused.text
        assert admin.get("/console/audit").status_code == 200

    def test_a_team_admin_grants_changes_and_removes(self, loupe: Api, idp: Provider) -> None:
        admin, admin_sub = signed_in(loupe, idp, "ml-admins")
        _, other_sub = signed_in(loupe, idp, "search")
        members = admin.get("/console/members")
        assert members.status_code == 200 and f"{admin_sub}@example.com" in members.text
        token = csrf_of(members.text)
        email = f"{other_sub}@example.com"
        assert (
            admin.post(
                "/console/members", data={"email": email, "role": "reviewer", "csrf_token": token}
            ).status_code
            == 303
        )
        assert (
            admin.post(
                "/console/members", data={"email": email, "role": "member", "csrf_token": token}
            ).status_code
            == 303
        )
        # Not in team ml, the person is invited: the role waits for their next sign-in.
        listed = admin.get("/console/members").text
        assert "<h2>Invited</h2>" in listed, listed[-3000:]
        invited = listed.split("<h2>Invited</h2>")[1]
        assert (
            '<td data-label="Role">member <span class="muted">until '
            in invited.split(email)[1].split("</tr>")[0]
        )
        bad = admin.post(
            "/console/members", data={"email": email, "role": "owner", "csrf_token": token}
        )
        assert bad.status_code == 400 and "is not one of" in bad.text
        # Their next sign-in takes it up, and keeps it across the ones after.
        for _ in range(2):
            again = browser(loupe)
            sign_in(again, other_sub)
            teams = again.get("/console/teams").text
            assert ">member<" in teams and ">viewer<" in teams
        listed = admin.get("/console/members").text
        assert "Invited" not in listed
        row = listed.split(email)[1].split("</tr>")[0]
        assert '<td data-label="Role">member</td>' in row and ">granted<" in row
        person_id = re.search(r'name="person_id" value="(per_[0-9a-f]+)"', row)
        assert person_id is not None
        removed = admin.post(
            "/console/members/remove", data={"person_id": person_id.group(1), "csrf_token": token}
        )
        assert removed.status_code == 303
        audit = admin.get("/console/audit").text
        for action in ("invitation.create", "invitation.change", "membership.grant"):
            assert action in audit
        for action in ("membership.remove",):
            assert action in audit
        assert "person:per_" in audit
        # A member (not admin) gets the 403 page on the Members page's actions.
        member, _ = signed_in(loupe, idp, "ml")
        kept = member.post(
            "/console/members/remove", data={"person_id": person_id.group(1), "csrf_token": token}
        )
        assert kept.status_code == 403
        assert (
            member.post(
                "/console/members", data={"email": email, "role": "admin", "csrf_token": token}
            ).status_code
            == 403
        )


class TestRefused:
    def test_an_expired_id_token_is_refused(self, tmp_path: Path) -> None:
        with (
            provider(token_max_age=timedelta(minutes=-5)) as stale,
            side_app(tmp_path, **settings_for(stale.issuer)) as app,
        ):
            app.new_key("ml")
            client = browser(app)
            done = sign_in(client, person(stale, "ml"))
            assert done.status_code == 401
            assert "Sign-in refused" in done.text and "expired" in done.text
            assert "loupe_session" not in client.cookies

    def test_a_replayed_or_forged_callback_is_refused(self, loupe: Api, idp: Provider) -> None:
        client = browser(loupe)
        start = client.get("/console/oidc/start")
        with httpx.Client(trust_env=False) as other:
            callback = other.post(start.headers["location"], data={"sub": person(idp, "ml")})
        target = callback.headers["location"]
        # Another browser (no sign-in cookie) or a changed state: refused.
        assert browser(loupe).get(target).status_code == 400
        forged = re.sub(r"state=[^&]+", "state=forged", target)
        assert client.get(forged).status_code == 400
        assert client.get(target).status_code == 200
        # The code is spent, and the sign-in cookie gone: the same callback again is refused.
        assert client.get(target).status_code == 400

    def test_an_issuer_other_than_the_configured_one_is_refused(
        self, tmp_path: Path, idp: Provider
    ) -> None:
        wrong = idp.issuer.replace("127.0.0.1", "127.0.0.2")
        with side_app(tmp_path, **settings_for(wrong)) as app:
            answer = browser(app).get("/console/oidc/start")
            # 127.0.0.2 is loopback too, but the provider names itself 127.0.0.1.
            assert answer.status_code in (502,), answer.text
            assert "Sign-in refused" in answer.text

    def test_key_sign_in_can_be_turned_off(self, tmp_path: Path, idp: Provider) -> None:
        with side_app(tmp_path, **settings_for(idp.issuer), console_key_sign_in=False) as app:
            key = app.new_key("ml")
            client = browser(app)
            form = client.get("/console/sign-in")
            assert "Sign in with your identity provider" in form.text
            assert 'name="api_key"' not in form.text
            answer = client.post(
                "/console/sign-in",
                data={"api_key": key, "csrf_token": "", "next": ""},
            )
            assert answer.status_code == 403 and "turned off" in answer.text


class TestAddressPolicy:
    def test_a_private_issuer_is_refused_unless_allowed(self, loupe: Api) -> None:
        settings = loupe.settings.model_copy(
            update={"allow_private_urls": False, "fetch_allowlist": [], "oidc_allow": []}
        )
        with pytest.raises(oidc.SignInError, match="LOUPE_OIDC_ALLOW"):
            oidc.check_url(settings, "http://127.0.0.1:9/.well-known/openid-configuration")
        with pytest.raises(oidc.SignInError, match="LOUPE_OIDC_ALLOW"):
            oidc.check_url(settings, "http://10.0.0.8/x")
        allowed = settings.model_copy(update={"oidc_allow": ["127.0.0.0/8"]})
        oidc.check_url(allowed, "http://127.0.0.1:9/.well-known/openid-configuration")
        with pytest.raises(oidc.SignInError, match="http"):
            oidc.check_url(allowed, "file:///etc/passwd")


class TestResync:
    def test_groups_are_re_synced_and_granted_roles_kept(self, loupe: Api, idp: Provider) -> None:
        sub = person(idp, "ml", "search")
        client = browser(loupe)
        sign_in(client, sub)
        teams = client.get("/console/teams").text
        assert ">member<" in teams and ">viewer<" in teams
        search_id = re.search(r'name="tenant_id" value="([^"]+)"', teams)
        assert search_id is not None
        client.post(
            "/console/teams", data={"tenant_id": search_id.group(1), "csrf_token": csrf_of(teams)}
        )
        admin, _ = signed_in(loupe, idp, "ml-admins")
        members = admin.get("/console/members").text
        # The admin grants reviewer in ml: the membership is `granted` from now on.
        assert (
            admin.post(
                "/console/members",
                data={
                    "email": f"{sub}@example.com",
                    "role": "reviewer",
                    "csrf_token": csrf_of(members),
                },
            ).status_code
            == 303
        )
        # The person leaves both groups at the provider: at the next sign-in the team from the
        # groups (search) is gone, the granted role in ml stays.
        idp.set_user(sub, email=f"{sub}@example.com", groups=[])
        again = browser(loupe)
        assert sign_in(again, sub).status_code == 200
        teams = again.get("/console/teams").text
        assert ">reviewer<" in teams and "search" not in teams
        # The old session in search ends at once: its membership is gone.
        assert client.get("/console/evaluations").status_code == 303
