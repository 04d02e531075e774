"""What a key may do now: no more than the person at the root of its makers may (a key made by a
person, or by a key a person made, and so on). Read on every request, so a demotion, a removal
or a role the groups claim changed at a sign-in applies to the person's keys at once."""

from dataclasses import replace

from sqlalchemy.orm import Session

from app.people import repository
from app.people.roles import scopes_of
from app.tenants import key_chain
from app.tenants.scopes import Caller


def held_back(
    session: Session, tenant_id: str, made_by: str | None, scopes: frozenset[str]
) -> tuple[frozenset[str], str | None]:
    """Of a key made by `made_by` holding `scopes`, those it may use now and, when some are
    held back, why (its root maker's role, its maker being out of the team, or a key it was
    made with revoked: none then)."""
    if made_by is None:
        return scopes, None
    chain = key_chain.root_maker(session, tenant_id, made_by)
    if chain.revoked is not None:
        return frozenset(), f"its maker {chain.revoked}, revoked,"
    root = chain.actor
    if root is not None and root.startswith("key:"):
        # The walk stopped at a key (a chain longer than it follows): a key that answers to
        # nobody would keep all it carries whatever its person's role became.
        return frozenset(), f"its makers, whose chain cannot be followed past {root} to a person,"
    if root is None or not root.startswith("person:"):
        return scopes, None
    membership = repository.membership(session, root.removeprefix("person:"), tenant_id)
    allowed = scopes_of(membership.role) if membership is not None else frozenset()
    if scopes <= allowed:
        return scopes, None
    why = (
        f"its maker {root}'s role ({membership.role})"
        if membership is not None
        else f"its maker {root}, no longer in the team,"
    )
    return scopes & allowed, why


def capped(session: Session, caller: Caller) -> Caller:
    """`caller` (a key's) with its scopes cut to those its root maker's role in the key's team
    gives now (none once they are out of it, when the walk to them stops at a key, or meets a
    revoked one); a key
    made by the operator, or from before keys had makers, keeps its own. Costs nothing for
    those, one membership read for a key a person made, and one key read more per key in
    between."""
    if caller.key_id is None or caller.made_by is None:
        return caller
    scopes, why = held_back(session, caller.tenant.id, caller.made_by, caller.scopes)
    if why is None:
        return caller
    return replace(caller, scopes=scopes, capped_by=why)
