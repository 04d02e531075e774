from datetime import datetime

from sqlalchemy import Boolean, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Person(Base):
    """Someone who signs in to the console through the identity provider (OIDC): known by the
    provider's issuer and subject, never by a password of Loupe's."""

    __tablename__ = "person"
    __table_args__ = (UniqueConstraint("issuer", "subject", name="uq_person_issuer_subject"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    issuer: Mapped[str] = mapped_column(String(500))
    subject: Mapped[str] = mapped_column(String(255))
    # As the provider last said at sign-in (shown, never used to identify).
    email: Mapped[str | None] = mapped_column(String(320), nullable=True)
    name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # In one of LOUPE_OIDC_OPERATOR_GROUPS at their last sign-in: sees every team's figures.
    operator: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
