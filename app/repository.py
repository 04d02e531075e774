"""The tenant-scoped base every repository of tenant-owned rows builds on.

A repository is made for one tenant (`tenant_id` at construction) and every read starts from
`get_base_statement`, which already filters on it: a caller cannot forget the tenant. Child
rows (test cases, results, dataset rows) are read through their parent, which the repository
checks is its tenant's (`owned`). Reads by bare id, for jobs and authentication, live apart
in `app/unscoped/`, whose names say so.
"""

from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from sqlalchemy import Select, select
from sqlalchemy.orm import Session


class TenantOwned(Protocol):
    """A row that names its tenant."""

    id: Any
    tenant_id: Any


Model = TypeVar("Model", bound=TenantOwned)
Parent = TypeVar("Parent", bound=TenantOwned)


class NotTenantsRow(LookupError):
    """A parent row handed to a tenant's repository belongs to another tenant."""


class TenantScopedRepository(Generic[Model]):
    """Reads of one tenant's `model` rows, all starting from the tenant-filtered base."""

    model: type[Model]

    def __init__(self, session: Session, tenant_id: str) -> None:
        self.session = session
        self.tenant_id = tenant_id

    def get_base_statement(self) -> Select[Any]:
        """Every `model` row of the tenant; subclasses narrow it (kinds) or join to it."""
        return select(self.model).where(self.model.tenant_id == self.tenant_id)

    def get_by_id(self, row_id: str) -> Model | None:
        return self.session.scalars(
            self.get_base_statement().where(self.model.id == row_id)
        ).one_or_none()

    def keyset_page(
        self, statement: Select[Any], key: Any, after: Any | None, limit: int, *, descending: bool
    ) -> Sequence[Any]:
        """`limit + 1` rows of `statement` past the cursor `after` in `key` order, so the caller
        can tell whether more follow (no offsets: a page costs the same at any depth)."""
        if after is not None:
            statement = statement.where(key < after if descending else key > after)
        ordered = statement.order_by(key.desc() if descending else key.asc()).limit(limit + 1)
        return self.session.scalars(ordered).all()

    def owned(self, parent: Parent) -> Parent:
        """`parent` itself, once checked to be this tenant's: child reads go through it."""
        if parent.tenant_id != self.tenant_id:
            raise NotTenantsRow(f"{type(parent).__name__} {parent.id!r} is another tenant's")
        return parent
