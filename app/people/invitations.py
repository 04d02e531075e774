"""Roles granted by email to someone not (yet) in the team: an invitation, taken up at the next
sign-in with that address (the caller commits).

A grant by email used to find anyone who had ever signed in to this Loupe, in any team, and
said so ("nobody has signed in as ...", or the people sharing it, with their ids), so a team
admin learned whether an address had signed in anywhere. Now an address no member of the team
has is always an invitation, with the same answer whether or not its person exists; a person
already signed in takes it up at their next sign-in, as a newcomer does at their first."""

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app import audit, problems
from app.db import insert_ignoring_duplicates, utcnow
from app.ids import new_id
from app.models import Invitation, Person
from app.people import keys, repository
from app.people.roles import GRANTED, actor, scopes_of
from app.problems import ProblemError
from app.tenants.scopes import Caller

# Where a membership came from on the audit trail when an invitation gave it.
FROM_INVITATION = "invitation"
# How long an invitation waits for its sign-in: one sent to a wrong or stale address must not
# hand the role to whoever holds that address a year later. Inviting again renews it.
LASTS = timedelta(days=30)


def expires_at(invitation: Invitation) -> datetime:
    """When the invitation stops being taken up."""
    return invitation.created_at + LASTS


def expired(invitation: Invitation, now: datetime | None = None) -> bool:
    return expires_at(invitation) <= (now or utcnow())


def normal(email: str) -> str:
    """An address as invitations keep and match it."""
    return email.strip().lower()


def invite(session: Session, by: Caller, email: str, role: str) -> Invitation:
    """Invite `email` to the caller's team with `role` (or change the role a waiting invitation
    gives), on the trail as `invitation.create` or `.change`. The caller's right to give the
    role is checked before (`service.grant`); one to change a waiting invitation here."""
    address = normal(email)
    if "@" not in address or len(address) > 320:
        raise ProblemError(
            400,
            "Bad Request",
            f"email: {email.strip()!r} is not an email address.",
            slug="invalid-member",
            field=["body", "email"],
        )
    waiting = repository.invitation(session, by.tenant.id, address)
    if waiting is not None:
        beyond = sorted(scopes_of(waiting.role) - by.scopes)
        if beyond:
            raise ProblemError(
                403,
                "Forbidden",
                f"email: the invitation of {address} gives {waiting.role}, which holds "
                f"{', '.join(beyond)} you do not hold; you can change only invitations giving "
                "no more than you hold.",
                slug="invalid-member",
                field=["body", "email"],
            )
        if waiting.role == role and not expired(waiting):
            return waiting
    if waiting is None:
        inserted = _inserted(session, by, address, role)
        if inserted is None:
            # Another admin invited the address between the read above and this insert (a
            # plain INSERT hit the unique (team, email): a 500): theirs stands, and this is
            # inviting it again, answered as one (a renewal, or its role changed).
            return invite(session, by, email, role)
        waiting, previous = inserted, None
    else:
        # An expired invitation invited again is a new one (and waits its whole time again).
        previous = None if expired(waiting) else waiting.role
        waiting.role, waiting.invited_by, waiting.created_at = role, by.actor, utcnow()
        session.flush()
    audit.record(
        session,
        by.actor,
        "invitation.create" if previous is None else "invitation.change",
        "invitation",
        waiting.id,
        tenant_id=by.tenant.id,
        email=address,
        role=role,
        previous_role=previous,
    )
    return waiting


def _inserted(session: Session, by: Caller, address: str, role: str) -> Invitation | None:
    """A new invitation of `address` to the caller's team, or None when the team has one
    already (stored by a request that committed after this one looked)."""
    row = {
        "id": new_id("inv"),
        "tenant_id": by.tenant.id,
        "email": address,
        "role": role,
        "invited_by": by.actor,
        "created_at": utcnow(),
    }
    if not insert_ignoring_duplicates(session, Invitation, [row], returning=Invitation.id):
        return None
    return repository.invitation(session, by.tenant.id, address)


def waiting(session: Session, tenant_id: str) -> list[Invitation]:
    """The team's invitations not yet taken up."""
    return repository.invitations(session, tenant_id)


def withdraw(session: Session, by: Caller, invitation_id: str) -> None:
    """Withdraw one of the team's invitations (404: none such), on the trail as
    `invitation.withdraw`; one giving a scope the caller lacks stays (403)."""
    found = repository.invitation_by_id(session, by.tenant.id, invitation_id)
    if found is None:
        raise problems.not_found("No such invitation in this team.")
    beyond = sorted(scopes_of(found.role) - by.scopes)
    if beyond:
        raise ProblemError(
            403,
            "Forbidden",
            f"invitation_id: this invitation gives {found.role}, which holds "
            f"{', '.join(beyond)} you do not hold.",
            slug="invalid-member",
            field=["body", "invitation_id"],
        )
    if not repository.delete_invitation(session, by.tenant.id, found.id):
        # Withdrawn (or taken up) by a request that committed after the read above: as for a
        # withdraw that came after it, there is no such invitation any more.
        raise problems.not_found("No such invitation in this team.")
    audit.record(
        session,
        by.actor,
        "invitation.withdraw",
        "invitation",
        found.id,
        tenant_id=by.tenant.id,
        email=found.email,
        role=found.role,
    )
    session.flush()


def take_up(session: Session, person: Person) -> None:
    """The invitations of the address `person` signed in with become their `granted`
    memberships (a role their groups already give stays the provider's, as a grant of it
    would), each a `membership.grant` or `.change` with `source: invitation`, by the person
    signing in and naming who invited them; then they go. Each is deleted before it is taken
    up, so of two sign-ins of one person at once only one takes it up; a membership an admin's
    grant stored meanwhile is kept and changed as one already there would be."""
    if not person.email:
        return
    now = utcnow()
    for invited in repository.invitations_of(session, normal(person.email)):
        if expired(invited, now):
            # Left listed as expired on its team's Members page until withdrawn or renewed.
            continue
        gives = scopes_of(invited.role)
        if keys.held_back(session, invited.tenant_id, invited.invited_by, gives)[1]:
            # Whoever invited can no longer give the role (demoted, removed): as their keys
            # do no more than their role now, their invitations give no more either.
            continue
        if not repository.delete_invitation(session, invited.tenant_id, invited.id):
            # Taken up by another sign-in of theirs at the same moment (or withdrawn) since
            # the read above: that one gave the role, on the trail once.
            continue
        # Left None when this take-up adds the membership (a grant, not a change).
        membership = repository.membership(session, person.id, invited.tenant_id)
        if membership is None and not repository.add_membership(
            session, person.id, invited.tenant_id, invited.role, GRANTED
        ):
            # An admin's grant (or another sign-in's sync) stored one since the read above:
            # that row is kept, and the invitation taken up as by someone already in the team
            # (its role given, as it would have been had the grant come a moment earlier).
            membership = repository.membership(session, person.id, invited.tenant_id)
            assert membership is not None  # the primary key refused ours: it is stored
        previous = None if membership is None else membership.role
        if membership is not None and membership.role != invited.role:
            membership.role, membership.source = invited.role, GRANTED
        if previous != invited.role:
            audit.record(
                session,
                actor(person.id),
                "membership.grant" if previous is None else "membership.change",
                "person",
                person.id,
                tenant_id=invited.tenant_id,
                source=FROM_INVITATION,
                invitation_id=invited.id,
                invited_by=invited.invited_by,
                email=person.email,
                subject=person.subject,
                role=invited.role,
                previous_role=previous,
            )
    session.flush()
