from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime


class SignedOutSession(Base):
    """A console session signed out before its cookie expired: every API process refuses the
    cookie (its nonce) until then; the ticker deletes the row once the cookie is dead anyway."""

    __tablename__ = "signed_out_session"

    nonce: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
