"""Nobody acts on a person holding more than they do, and nothing given outlives its giver
(the fifth round's access audit), through the real provider and the console over HTTP:

- a key with `admin` (but not every scope) signed in to the console changed the role of an
  admin, removed one and revoked the keys one made: each is now the 403 page naming the field;
- a key that expires, signed in, granted roles, which never expire: it now grants none (a
  demotion, which gives nothing, is still taken);
- the navigation of a key's session shows the Members, Keys and Limits pages it may open."""

import re
from datetime import timedelta
from typing import Any

import httpx

from app.db import utcnow
from app.tenants import service
from tests.console.helpers import signed_in as key_session
from tests.fixtures.api import Api
from tests.people.provider import Provider, csrf_of, signed_in
from tests.people.test_keys_console import _admin_in_ml_making_a_key, person_id


def _row(members: str, person: str) -> str:
    return members.split(person)[1].split("</tr>")[0]


def _role_of(admin: httpx.Client, person: str) -> str:
    row = _row(admin.get("/console/members").text, person)
    found = re.search(r'data-label="Role">([a-z]+)</td>', row)
    assert found is not None, row
    return found.group(1)


def _key_session(loupe: Api, scopes: list[str], days: int | None = None) -> httpx.Client:
    ends = None if days is None else utcnow() + timedelta(days=days)
    with loupe.served.runtime.session() as session:
        _, key = service.create_key(session, "ml", scopes=scopes, expires_at=ends)
        session.commit()
    return key_session(loupe, key)


def _stored_key(loupe: Api, scopes: list[str] | None = None) -> tuple[Any, str]:
    """A key of team ml as the operator makes one (no person behind it): (its row, the key)."""
    with loupe.served.runtime.session() as session:
        _, key = service.create_key(session, "ml", scopes=scopes)
        session.commit()
        [made] = [k for k in service.keys_of(session, "ml") or [] if k.prefix == key[:10]]
    return made, key


class TestNobodyActsOnSomeoneHoldingMore:
    def test_a_key_with_admin_alone_leaves_an_admins_role_as_it_is(
        self, loupe: Api, idp: Provider
    ) -> None:
        _, sub = signed_in(loupe, idp, "ml-admins")
        target = person_id(loupe, sub)
        console = _key_session(loupe, ["read", "admin"])
        token = csrf_of(console.get("/console/members").text)
        demoted = console.post(
            "/console/members", data={"person_id": target, "role": "viewer", "csrf_token": token}
        )
        assert demoted.status_code == 403, demoted.text
        assert "person_id: this person&#39;s role (admin) holds" in demoted.text, demoted.text
        admin, _ = signed_in(loupe, idp, "ml-admins")
        assert _role_of(admin, target) == "admin"
        # A person with the admin role holds every scope: they may change a fellow admin's.
        token = csrf_of(admin.get("/console/members").text)
        changed = admin.post(
            "/console/members", data={"person_id": target, "role": "member", "csrf_token": token}
        )
        assert changed.status_code == 303, changed.text
        assert _role_of(admin, target) == "member"

    def test_nor_removes_an_admin_nor_revokes_the_keys_they_made(
        self, loupe: Api, idp: Provider
    ) -> None:
        admin, _ = signed_in(loupe, idp, "ml-admins")
        target, key = _admin_in_ml_making_a_key(loupe, idp, admin)
        console = _key_session(loupe, ["read", "admin"])
        keys = console.get("/console/keys").text
        token = csrf_of(keys)
        with loupe.served.runtime.session() as session:
            (made,) = [k for k in service.keys_of(session, "ml") or [] if k.prefix == key[:10]]
        revoked = console.post(
            "/console/keys/revoke", data={"key_id": made.id, "csrf_token": token}
        )
        assert revoked.status_code == 403, revoked.text
        assert "key_id: this key was made by" in revoked.text, revoked.text
        removed = console.post(
            "/console/members/remove",
            data={"person_id": target, "csrf_token": token, "revoke_keys": "on"},
        )
        assert removed.status_code == 403, removed.text
        assert "person_id: this person&#39;s role (admin) holds" in removed.text
        assert _role_of(admin, target) == "admin"
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200
        # A key holding every scope holds all an admin does.
        console = _key_session(loupe, ["read", "write", "ingest", "review", "admin"])
        token = csrf_of(console.get("/console/keys").text)
        revoked = console.post(
            "/console/keys/revoke", data={"key_id": made.id, "csrf_token": token}
        )
        assert revoked.status_code == 303, revoked.text
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 401

    def test_nor_revokes_an_operators_key_holding_more(self, loupe: Api, idp: Provider) -> None:
        # Made with the CLI (`loupe tenants key`): no person behind it, every scope.
        made, key = _stored_key(loupe)
        console = _key_session(loupe, ["read", "admin"])
        token = csrf_of(console.get("/console/keys").text)
        revoked = console.post(
            "/console/keys/revoke", data={"key_id": made.id, "csrf_token": token}
        )
        assert revoked.status_code == 403, revoked.text
        assert "key_id: this key holds ingest, review, write" in revoked.text, revoked.text
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200
        # A key of no more than the caller's own scopes is theirs to revoke.
        lesser, lesser_key = _stored_key(loupe, ["read"])
        revoked = console.post(
            "/console/keys/revoke", data={"key_id": lesser.id, "csrf_token": token}
        )
        assert revoked.status_code == 303, revoked.text
        with loupe.client(lesser_key) as client:
            assert client.get("/v1/evaluations").status_code == 401

    def test_nor_revokes_by_removal_what_a_demoted_persons_keys_hold(
        self, loupe: Api, idp: Provider
    ) -> None:
        # An admin made a key holding write, then was made a viewer: removing them (a viewer
        # holds no more than the caller) must not revoke, on the way, a key holding more.
        admin, _ = signed_in(loupe, idp, "ml-admins")
        target, _ = _admin_in_ml_making_a_key(loupe, idp, admin)
        with loupe.served.runtime.session() as session:
            _, key = service.create_key(session, "ml", scopes=["read", "write"])
            [made] = [k for k in service.keys_of(session, "ml") or [] if k.prefix == key[:10]]
            made.created_by = f"person:{target}"
            session.commit()
        token = csrf_of(admin.get("/console/members").text)
        demoted = admin.post(
            "/console/members", data={"person_id": target, "role": "viewer", "csrf_token": token}
        )
        assert demoted.status_code == 303, demoted.text
        console = _key_session(loupe, ["read", "admin"])
        token = csrf_of(console.get("/console/members").text)
        removed = console.post(
            "/console/members/remove",
            data={"person_id": target, "csrf_token": token, "revoke_keys": "on"},
        )
        assert removed.status_code == 403, removed.text
        assert "revoke_keys: this person made keys" in removed.text, removed.text
        assert _role_of(admin, target) == "viewer"
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200
        # Keeping their keys, the removal is the caller's to make.
        removed = console.post(
            "/console/members/remove", data={"person_id": target, "csrf_token": token}
        )
        assert removed.status_code == 303, removed.text
        with loupe.client(key) as client:
            assert client.get("/v1/evaluations").status_code == 200

    def test_the_page_offers_only_what_the_caller_may_do(self, loupe: Api, idp: Provider) -> None:
        _, admin_sub = signed_in(loupe, idp, "ml-admins")
        _, viewer_sub = signed_in(loupe, idp, "ml-read")
        console = _key_session(loupe, ["read", "admin", "review"])
        members = console.get("/console/members").text
        # The admin's row offers neither Change nor Remove; the viewer's offers Change.
        assert f'aria-label="Role of {admin_sub}@example.com"' not in members
        assert f'aria-label="Remove {admin_sub}@example.com"' not in members
        assert f'aria-label="Role of {viewer_sub}@example.com"' in members
        # Offered: the roles whose every scope the caller holds.
        grant = members.split('class="grant"')[1]
        offered = set(re.findall(r'<option value="([a-z]+)"', grant))
        assert offered == {"viewer", "reviewer"}, offered

    def test_a_viewer_is_still_theirs_to_change(self, loupe: Api, idp: Provider) -> None:
        _, sub = signed_in(loupe, idp, "ml-read")
        target = person_id(loupe, sub)
        console = _key_session(loupe, ["read", "admin"])
        token = csrf_of(console.get("/console/members").text)
        kept = console.post(
            "/console/members", data={"person_id": target, "role": "viewer", "csrf_token": token}
        )
        assert kept.status_code == 303, kept.text


class TestNothingGivenOutlivesItsGiver:
    def test_an_expiring_key_grants_no_role(self, loupe: Api, idp: Provider) -> None:
        _, sub = signed_in(loupe, idp, "search")
        target = person_id(loupe, sub)
        console = _key_session(loupe, ["read", "write", "review", "admin"], days=40)
        token = csrf_of(console.get("/console/members").text)
        granted = console.post(
            "/console/members", data={"person_id": target, "role": "viewer", "csrf_token": token}
        )
        assert granted.status_code == 403, granted.text
        assert "role: you are signed in with a key that expires" in granted.text, granted.text
        admin, _ = signed_in(loupe, idp, "ml-admins")
        assert target not in admin.get("/console/members").text
        # Raising a role gives as much; lowering one gives nothing, and is taken.
        token = csrf_of(admin.get("/console/members").text)
        made = admin.post(
            "/console/members", data={"person_id": target, "role": "member", "csrf_token": token}
        )
        assert made.status_code == 303, made.text
        token = csrf_of(console.get("/console/members").text)
        for role, status in (("admin", 403), ("viewer", 303)):
            answer = console.post(
                "/console/members", data={"person_id": target, "role": role, "csrf_token": token}
            )
            assert answer.status_code == status, (role, answer.text)
        assert _role_of(admin, target) == "viewer"


def test_a_keys_navigation_shows_the_pages_it_may_open(loupe: Api) -> None:
    nav = re.compile(r'<nav aria-label="Main">(.*?)</nav>', re.S)
    links = re.compile(r'href="(/console/[a-z_]+)"')
    for scopes, shown in (
        (
            ["read", "admin"],
            {"/console/members", "/console/keys", "/console/limits", "/console/audit"},
        ),
        (["read"], {"/console/members"}),
        # The audit trail needs `admin` alone, as GET /v1/audit_events does.
        (["admin"], {"/console/keys", "/console/limits", "/console/audit"}),
    ):
        console = _key_session(loupe, scopes)
        landing = "/console/evaluations" if "read" in scopes else "/console/keys"
        page = console.get(landing)
        assert page.status_code == 200, page.text
        found = set(links.findall(nav.search(page.text).group(1)))
        admin_pages = {
            "/console/members",
            "/console/keys",
            "/console/limits",
            "/console/teams",
            "/console/audit",
        }
        assert found & admin_pages == shown, (scopes, found)
        for link in found:
            assert console.get(link).status_code == 200, (scopes, link)
