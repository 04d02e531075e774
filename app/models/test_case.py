from typing import Any

from sqlalchemy import ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class TestCase(Base):
    """One submitted test case; fields hold the content exactly as validated."""

    __tablename__ = "test_case"
    __table_args__ = (UniqueConstraint("evaluation_id", "index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    evaluation_id: Mapped[str] = mapped_column(ForeignKey("evaluation.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str] = mapped_column(String(256))
    input: Mapped[Any] = mapped_column(JSONType, nullable=True)
    actual_output: Mapped[Any] = mapped_column(JSONType, nullable=True)
    expected_output: Mapped[Any] = mapped_column(JSONType, nullable=True)
    context: Mapped[Any] = mapped_column(JSONType, nullable=True)
    retrieval_context: Mapped[Any] = mapped_column(JSONType, nullable=True)
    # Runs only: the chat messages the candidate model is sent (blob references for media).
    messages: Mapped[Any] = mapped_column(JSONType, nullable=True)
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType, nullable=True)
