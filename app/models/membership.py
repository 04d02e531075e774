from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Membership(Base):
    """A person's role in a team (tenant): `admin`, `member`, `reviewer` or `viewer`.

    `source` says where it comes from: `oidc` (the provider's groups claim through
    LOUPE_OIDC_ROLE_MAP, re-synced at each sign-in) or `granted` (by a team admin in the
    console; kept across sign-ins, and taking precedence over the groups' role)."""

    __tablename__ = "membership"

    person_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("person.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("tenant.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    role: Mapped[str] = mapped_column(String(20))
    source: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
