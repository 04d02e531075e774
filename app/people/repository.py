"""All SQL about people and their memberships."""

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.ids import new_id
from app.models import Membership, Person, Tenant


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


def people_by_email(session: Session, email: str) -> list[Person]:
    """Everyone who signed in with this email (any case), oldest first."""
    return list(
        session.scalars(
            select(Person)
            .where(func.lower(Person.email) == email.lower())
            .order_by(Person.created_at, Person.id)
        )
    )
