"""People's sign-ins and memberships: who a signed-in person is, which teams they are in with
which role, and a team admin's grants (the caller commits)."""

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app import audit, problems
from app.models import ApiKey, Invitation, Membership, Person, Tenant
from app.people import invitations, repository
from app.people.roles import FROM_OIDC, GRANTED, ROLES, actor, highest, scopes_of
from app.problems import ProblemError
from app.tenants import key_chain
from app.tenants.scopes import Caller, key_scopes

logger = logging.getLogger("loupe.people")


@dataclass(frozen=True)
class Team:
    tenant: Tenant
    role: str
    source: str


def roles_from_groups(
    groups: Iterable[str], role_map: Mapping[str, tuple[str, str]]
) -> dict[str, str]:
    """Team name → role for a person in `groups` (the highest when several groups map to one
    team); groups not in the map are ignored."""
    found: dict[str, list[str]] = {}
    for group in groups:
        if group in role_map:
            team, role = role_map[group]
            found.setdefault(team, []).append(role)
    return {team: highest(roles) for team, roles in found.items()}


def groups_of(claims: Mapping[str, object], claim: str) -> list[str]:
    """The groups a token's claims list (a list of strings, or one string)."""
    value = claims.get(claim)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(item) for item in value]
    return []


def signed_in(
    session: Session,
    issuer: str,
    claims: Mapping[str, object],
    groups_claim: str,
    role_map: Mapping[str, tuple[str, str]],
    operator_groups: Iterable[str] = (),
) -> Person:
    """The person an ID token names (created at their first sign-in), their name and email as
    the provider says now, whether they are an operator (in one of `operator_groups`), and their
    `oidc` memberships re-synced to the groups claim (a membership a team admin granted is kept
    as it is)."""
    subject = str(claims["sub"])
    person = repository.person_by_subject(session, issuer, subject)
    if person is None:
        person = repository.add_person(session, issuer, subject)
    email, name = claims.get("email"), claims.get("name")
    if claims.get("email_verified") is False:
        # An address the provider has not verified names nobody: it is not stored, so a team
        # admin cannot grant a role to whoever typed someone else's address there.
        person.email = None
    elif email:
        person.email = str(email)[:320]
    person.name = str(name)[:200] if name else person.name
    groups = groups_of(claims, groups_claim)
    # An operator (LOUPE_OIDC_OPERATOR_GROUPS) sees every team's figures; re-synced each time.
    person.operator = bool(set(groups) & set(operator_groups))
    wanted = roles_from_groups(groups, role_map)
    teams = repository.tenants_named(session, set(wanted))
    for missing in sorted(set(wanted) - set(teams)):
        logger.warning("LOUPE_OIDC_ROLE_MAP names team %r, which does not exist", missing)
    held = {m.tenant_id: m for m, _ in repository.memberships(session, person.id)}
    by = actor(person.id)
    for tenant_id, membership in held.items():
        if membership.source == FROM_OIDC and tenant_id not in {t.id for t in teams.values()}:
            session.delete(membership)
            _synced(session, by, person, "membership.remove", tenant_id, None, membership.role)
    for team_name, tenant in teams.items():
        membership = held.get(tenant.id)
        role = wanted[team_name]
        if membership is None:
            # None back: an admin's grant stored one meanwhile, and a grant outranks the claim.
            if repository.add_membership(session, person.id, tenant.id, role, FROM_OIDC):
                _synced(session, by, person, "membership.grant", tenant.id, role, None)
        elif membership.source == FROM_OIDC and membership.role != role:
            previous, membership.role = membership.role, role
            _synced(session, by, person, "membership.change", tenant.id, role, previous)
    session.flush()
    invitations.take_up(session, person)
    return person


def _synced(
    session: Session,
    by: str,
    person: Person,
    action: str,
    tenant_id: str,
    role: str | None,
    previous: str | None,
) -> None:
    """A membership the groups claim changed at a sign-in, on the team's audit trail (the
    person signing in acts; `source: oidc` tells it from a team admin's grant)."""
    audit.record(
        session,
        by,
        action,
        "person",
        person.id,
        tenant_id=tenant_id,
        source=FROM_OIDC,
        email=person.email,
        subject=person.subject,
        role=role,
        previous_role=previous,
    )


def teams(session: Session, person_id: str) -> list[Team]:
    """The teams a person is in, by name, with their role in each."""
    return [Team(t, m.role, m.source) for m, t in repository.memberships(session, person_id)]


def caller(session: Session, person_id: str, tenant_id: str) -> Caller | None:
    """A signed-in person acting in one team, with their role's scopes; None when they are not
    (or no longer) in it."""
    for team in teams(session, person_id):
        if team.tenant.id == tenant_id:
            return Caller(team.tenant, scopes_of(team.role), actor(person_id))
    return None


def person(session: Session, person_id: str) -> Person | None:
    return repository.get_person(session, person_id)


def members(session: Session, tenant_id: str) -> list[tuple[Membership, Person]]:
    """A team's members and who they are."""
    return repository.members(session, tenant_id)


def _member_error(detail: str, field: str, status: int = 400) -> ProblemError:
    title = "Forbidden" if status == 403 else "Bad Request"
    return ProblemError(status, title, detail, slug="invalid-member", field=["body", field])


def _target(session: Session, tenant_id: str, email: str, person_id: str) -> Person | None:
    """The person a grant names: by id, or by an email one member of the team signed in with
    (several are listed by id and issuer subject so the admin picks one by id); None for an
    email no member has, which is invited (`invitations.invite`) whoever it is."""
    if person_id.strip():
        found = repository.get_person(session, person_id.strip())
        if found is None:
            raise _member_error(f"No person has the id {person_id.strip()!r}.", "person_id")
        return found
    if not email.strip():
        raise _member_error("email: give the person's email (or their person id).", "email")
    people = repository.members_by_email(session, tenant_id, email.strip())
    if len(people) > 1:
        listed = "; ".join(f"{p.id} ({p.issuer} subject {p.subject})" for p in people)
        raise _member_error(
            f"{len(people)} members of this team signed in as {email.strip()!r}: {listed}. "
            "Change the role by person id instead.",
            "email",
        )
    return people[0] if people else None


def _check_not_above(by: Caller, role: str, field: str) -> None:
    """403 naming `field` when a person's `role` holds a scope `by` lacks: nobody changes the
    role of, removes or revokes the keys of someone holding more than they do (a key with
    `admin` alone signed in to the console demoted and removed the team's admins)."""
    beyond = sorted(scopes_of(role) - by.scopes)
    if beyond:
        raise _member_error(
            f"{field}: this person's role ({role}) holds {', '.join(beyond)}, which you do not "
            "hold; you can change, remove or revoke the keys of only people holding no more "
            "than you.",
            field,
            status=403,
        )


def _check_lasting(by: Caller, role: str, before: str | None) -> None:
    """403 naming `role` when a caller whose key expires would give someone a scope: a role
    never expires, so it would outlive the key (a lowered role gives nothing, and is taken)."""
    given = scopes_of(role) - (scopes_of(before) if before else frozenset())
    if by.expires_at is not None and given:
        raise _member_error(
            f"role: you are signed in with a key that expires ({by.expires_at:%Y-%m-%d %H:%M} "
            f"UTC, its expires_at), and a role granted here never does, so it would outlive "
            "the key. Sign in as a person, or with a key that does not expire, to grant it.",
            "role",
            status=403,
        )


def check_may_revoke(session: Session, by: Caller, api_key: ApiKey) -> None:
    """403 naming `key_id` when the key holds a scope `by` lacks (an operator's key has no
    person behind it), or was made by a person of the team holding more than `by`, or by a key
    such a person made (down the chain): revoking it is acting on them."""
    held = sorted(key_scopes(api_key.scopes) - by.scopes)
    if held:
        raise ProblemError(
            403,
            "Forbidden",
            f"key_id: this key holds {', '.join(held)}, which you do not hold; you can revoke "
            "only keys holding no more than you.",
            slug="invalid-key",
            field=["body", "key_id"],
        )
    # The person at the end of the chain of makers (a key from before keys had makers has
    # none: nobody stands behind it but its own scopes, checked above).
    makers = key_chain.makers_of(session, by.tenant.id, f"key:{api_key.id}")
    maker = makers[-1] if makers else ""
    if not maker.startswith("person:"):
        return
    membership = repository.membership(session, maker.removeprefix("person:"), by.tenant.id)
    beyond = ", ".join(sorted(scopes_of(membership.role) - by.scopes)) if membership else ""
    if not beyond:
        return
    raise ProblemError(
        403,
        "Forbidden",
        f"key_id: this key was made by {maker} (or by a key they made), whose role "
        f"({membership.role}) holds {beyond}, which you do not hold; you can revoke the keys "
        "of only people holding no more than you.",
        slug="invalid-key",
        field=["body", "key_id"],
    )


def _check_may_revoke_all(by: Caller, keys: Iterable[ApiKey]) -> None:
    """403 naming `revoke_keys` when a key a removal would revoke holds a scope `by` lacks (a
    person demoted since may have made keys holding more than their role now does)."""
    beyond = sorted(set().union(*(key_scopes(key.scopes) for key in keys)) - by.scopes)
    if beyond:
        raise _member_error(
            f"revoke_keys: this person made keys (or their keys did) holding "
            f"{', '.join(beyond)}, which you do not hold; untick revoking their keys, or ask "
            "someone holding them.",
            "revoke_keys",
            status=403,
        )


def grant(
    session: Session, by: Caller, email: str, role: str, person_id: str = ""
) -> Membership | Invitation:
    """A team admin gives a person (by id, or by the email a member signed in with) a role in
    the admin's team, or changes it: the membership becomes `granted`, kept across sign-ins. An
    email no member has is invited (taken up at the next sign-in with it)."""
    if role not in ROLES:
        raise _member_error(f"role: {role!r} is not one of {', '.join(ROLES)}", "role")
    beyond = sorted(scopes_of(role) - by.scopes)
    if beyond:
        # Nobody grants more than they hold (a key with `admin` alone signed in to the console
        # must not make an admin, who holds every scope).
        raise _member_error(
            f"role: {role} holds {', '.join(beyond)}, which you do not hold; you can grant "
            "only a role whose scopes you have.",
            "role",
            status=403,
        )
    target = _target(session, by.tenant.id, email, person_id)
    if target is None:
        # An address no member has: invited, with the same answer whether or not anyone ever
        # signed in with it, so a team admin learns nothing of people outside the team.
        _check_lasting(by, role, None)
        return invitations.invite(session, by, email, role)
    named = "person_id" if person_id.strip() else "email"
    if actor(target.id) == by.actor:
        raise _member_error("You cannot change your own role.", named)
    if actor(target.id) in key_chain.makers_of(session, by.tenant.id, by.actor):
        # A key acting for the person who made it (or made the key that made it): a demoted or
        # removed admin would give themselves back the role through a key they kept.
        raise _member_error(
            f"{named}: you are signed in with a key this person made (or a key of theirs made): "
            "a key changes no role of the person behind it, as nobody changes their own.",
            named,
            status=403,
        )
    membership = repository.membership(session, target.id, by.tenant.id)
    if membership is None:
        _check_lasting(by, role, None)
        added = repository.add_membership(session, target.id, by.tenant.id, role, GRANTED)
        if added is not None:
            _record_grant(session, by, target, role, None)
            return added
        # Another admin's grant or the person's sign-in stored one meanwhile: this grant
        # changes it, as if it had been there when the request came.
        membership = repository.membership(session, target.id, by.tenant.id)
        assert membership is not None  # the unique key refused ours: it is stored
    _check_not_above(by, membership.role, named)
    if membership.role == role:
        # Nothing changes: a role the groups claim gives stays the provider's (granting it
        # again would pin it past the person's next sign-in without the admin meaning to).
        return membership
    before = membership.role
    _check_lasting(by, role, before)
    membership.role, membership.source = role, GRANTED
    session.flush()
    _record_grant(session, by, target, role, before)
    return membership


def _record_grant(
    session: Session, by: Caller, target: Person, role: str, before: str | None
) -> None:
    audit.record(
        session,
        by.actor,
        "membership.grant" if before is None else "membership.change",
        "person",
        target.id,
        tenant_id=by.tenant.id,
        email=target.email,
        subject=target.subject,
        role=role,
        previous_role=before,
    )


def remove(session: Session, by: Caller, person_id: str, *, revoke_keys: bool = False) -> int:
    """A team admin removes a membership from their team: the person's open sessions in it end
    at once. One from the groups claim comes back at their next sign-in while their groups still
    give it (for good, the groups change at the provider), but an admin must be able to end an
    access now: a sign-in's sessions otherwise kept it for LOUPE_CONSOLE_SESSION_HOURS after the
    groups changed. With `revoke_keys`, the team's keys the person made stop working too (and
    the keys those made); without, the caller becomes their maker. Returns how many stopped."""
    membership = repository.membership(session, person_id, by.tenant.id)
    if membership is None:
        raise problems.not_found("That person is not in this team.")
    if actor(person_id) == by.actor:
        raise _member_error("You cannot remove yourself.", "person_id")
    if actor(person_id) in key_chain.makers_of(session, by.tenant.id, by.actor):
        # Their kept keys would be handed to the key removing them, which is theirs.
        raise _member_error(
            "person_id: you are signed in with a key this person made (or a key of theirs "
            "made): a key does not remove the person behind it, as nobody removes themselves.",
            "person_id",
            status=403,
        )
    _check_not_above(by, membership.role, "person_id")
    if revoke_keys:
        _check_may_revoke_all(by, key_chain.keys_made_by(session, by.tenant.id, actor(person_id)))
    removed = repository.get_person(session, person_id)
    session.delete(membership)
    audit.record(
        session,
        by.actor,
        "membership.remove",
        "person",
        person_id,
        tenant_id=by.tenant.id,
        # Who it was, as a grant names them: the person's row may be gone by the time it is read.
        email=removed.email if removed is not None else None,
        subject=removed.subject if removed is not None else None,
        role=membership.role,
        source=membership.source,
    )
    if not revoke_keys:
        # Kept keys answer to whoever kept them: left to a person out of the team, they would
        # hold nothing (app/people/keys.py).
        key_chain.hand_over_keys(session, by.tenant.id, actor(person_id), by.actor)
        session.flush()
        return 0
    revoked = key_chain.revoke_keys_made_by(session, by.tenant.id, actor(person_id), by.actor)
    session.flush()
    return len(revoked)
