from datetime import datetime

from sqlalchemy import BigInteger, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Tenant(Base):
    __tablename__ = "tenant"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Operator-set limits (`loupe tenants limits`); None: no limit.
    max_active_evaluations: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # USD a tenant may spend per UTC day (priced judge and candidate calls, LOUPE_MODEL_PRICES).
    daily_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    # Bytes its datasets, images and audio and uploaded files may occupy; None: the
    # LOUPE_TENANT_STORAGE_BYTES default.
    storage_bytes: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
