"""What a key may do now: no more than the person at the root of its makers may (a key made by a
person, or by a key a person made, and so on). Read on every request, so a demotion, a removal
or a role the groups claim changed at a sign-in applies to the person's keys at once."""

from dataclasses import replace

from sqlalchemy.orm import Session

from app.people import repository
from app.people.roles import scopes_of
from app.tenants import service as tenants
from app.tenants.scopes import Caller


def capped(session: Session, caller: Caller) -> Caller:
    """`caller` (a key's) with its scopes cut to those its root maker's role in the key's team
    gives now (none once they are out of it, or when the walk to them stops at a key); a key
    made by the operator, or from before keys had makers, keeps its own. Costs nothing for
    those, one membership read for a key a person made, and one key read more per key in
    between."""
    if caller.key_id is None or caller.made_by is None:
        return caller
    root = tenants.root_maker(session, caller.tenant.id, caller.made_by)
    if root is not None and root.startswith("key:"):
        # The walk stopped at a key (a chain longer than it follows): a key that answers to
        # nobody would keep all it carries whatever its person's role became.
        why = f"its makers, whose chain cannot be followed past {root} to a person,"
        return replace(caller, scopes=frozenset(), capped_by=why)
    if root is None or not root.startswith("person:"):
        return caller
    membership = repository.membership(session, root.removeprefix("person:"), caller.tenant.id)
    allowed = scopes_of(membership.role) if membership is not None else frozenset()
    if caller.scopes <= allowed:
        return caller
    why = (
        f"its maker {root}'s role ({membership.role})"
        if membership is not None
        else f"its maker {root}, no longer in the team,"
    )
    return replace(caller, scopes=caller.scopes & allowed, capped_by=why)
