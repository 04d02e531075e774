"""All SQL about people and their memberships."""

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.ids import new_id
from app.models import Invitation, Membership, Person, Tenant


def person_by_subject(session: Session, issuer: str, subject: str) -> Person | None:
    return session.scalars(
        select(Person).where(Person.issuer == issuer, Person.subject == subject)
    ).one_or_none()


def add_person(session: Session, issuer: str, subject: str) -> Person:
    person = Person(id=new_id("per"), issuer=issuer, subject=subject)
    session.add(person)
    session.flush()
    return person


def get_person(session: Session, person_id: str) -> Person | None:
    return session.get(Person, person_id)


def memberships(session: Session, person_id: str) -> list[tuple[Membership, Tenant]]:
    """A person's memberships with their teams, by team name."""
    rows = session.execute(
        select(Membership, Tenant)
        .join(Tenant, Tenant.id == Membership.tenant_id)
        .where(Membership.person_id == person_id)
        .order_by(Tenant.name)
    )
    return [(membership, tenant) for membership, tenant in rows.tuples()]


def membership(session: Session, person_id: str, tenant_id: str) -> Membership | None:
    return session.get(Membership, (person_id, tenant_id))


def add_membership(
    session: Session, person_id: str, tenant_id: str, role: str, source: str
) -> Membership | None:
    """A new membership, or None when one was stored meanwhile (another admin's grant, the
    person's sign-in: the unique key refused this one, in a savepoint the rest outlives)."""
    added = Membership(person_id=person_id, tenant_id=tenant_id, role=role, source=source)
    try:
        with session.begin_nested():
            session.add(added)
    except IntegrityError:
        return None
    return added


def members(session: Session, tenant_id: str) -> list[tuple[Membership, Person]]:
    """A team's members with who they are, by email then id."""
    rows = session.execute(
        select(Membership, Person)
        .join(Person, Person.id == Membership.person_id)
        .where(Membership.tenant_id == tenant_id)
        .order_by(Person.email, Person.id)
    )
    return [(membership, person) for membership, person in rows.tuples()]


def tenants_named(session: Session, names: set[str]) -> dict[str, Tenant]:
    if not names:
        return {}
    return {t.name: t for t in session.scalars(select(Tenant).where(Tenant.name.in_(names)))}


def members_by_email(session: Session, tenant_id: str, email: str) -> list[Person]:
    """The team's members who signed in with this email (any case), oldest first: a grant by
    email looks no further than the team."""
    return list(
        session.scalars(
            select(Person)
            .join(Membership, Membership.person_id == Person.id)
            .where(Membership.tenant_id == tenant_id, func.lower(Person.email) == email.lower())
            .order_by(Person.created_at, Person.id)
        )
    )


def invitation(session: Session, tenant_id: str, email: str) -> Invitation | None:
    """The team's invitation of this (lower-cased) email."""
    return session.scalars(
        select(Invitation).where(Invitation.tenant_id == tenant_id, Invitation.email == email)
    ).one_or_none()


def invitation_by_id(session: Session, tenant_id: str, invitation_id: str) -> Invitation | None:
    return session.scalars(
        select(Invitation).where(Invitation.tenant_id == tenant_id, Invitation.id == invitation_id)
    ).one_or_none()


def invitations(session: Session, tenant_id: str) -> list[Invitation]:
    """The team's invitations waiting for a sign-in, by email."""
    return list(
        session.scalars(
            select(Invitation).where(Invitation.tenant_id == tenant_id).order_by(Invitation.email)
        )
    )


def invitations_of(session: Session, email: str) -> list[Invitation]:
    """Every team's invitation of this (lower-cased) email: what a sign-in with it takes up."""
    return list(
        session.scalars(
            select(Invitation).where(Invitation.email == email).order_by(Invitation.created_at)
        )
    )


def delete_invitation(session: Session, tenant_id: str, invitation_id: str) -> bool:
    """Delete one of the team's invitations; False when it was gone already (taken up or
    withdrawn by a request that committed after this one read it: on PostgreSQL this waits for
    that request's transaction, so only one of two ever deletes it)."""
    result = session.execute(
        delete(Invitation).where(Invitation.tenant_id == tenant_id, Invitation.id == invitation_id)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]
