from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class ApiKey(Base):
    """An API key, stored only as the SHA-256 of the secret (keys carry 256 random bits)."""

    __tablename__ = "api_key"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The first characters of the key, so an operator can tell keys apart.
    prefix: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Refreshed at most once a minute per key (`loupe keys list`).
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # What the key may do (a list of app.tenants.scopes.KEY_SCOPES); NULL, as for every key
    # made before scopes existed: every scope.
    scopes: Mapped[list[Any] | None] = mapped_column(JSONType, nullable=True)
    # A name the operator gave it (`--name ci`), to tell keys apart.
    name: Mapped[str | None] = mapped_column(String(200), nullable=True)
    # Past this instant the key answers 401 (NULL: never).
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # Who made it: `operator` (the CLI) or an actor such as `person:<id>`.
    created_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
