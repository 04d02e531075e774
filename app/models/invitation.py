from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Invitation(Base):
    """A role a team admin granted by email, waiting for the next sign-in with that address (the
    provider's, not marked unverified): then it becomes a `granted` membership and goes. Granting
    by email answers the same whether or not anyone ever signed in with the address, so a team
    admin learns nothing of people outside their team."""

    __tablename__ = "invitation"
    __table_args__ = (UniqueConstraint("tenant_id", "email", name="uq_invitation_tenant_email"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(
        String(40), ForeignKey("tenant.id", ondelete="CASCADE"), index=True
    )
    # Lower-cased: addresses are matched without regard to case, as grants by email always were.
    email: Mapped[str] = mapped_column(String(320), index=True)
    role: Mapped[str] = mapped_column(String(20))
    # The actor who invited (`person:<id>`, `key:<id>`).
    invited_by: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
