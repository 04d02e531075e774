from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class TestCase(Base):
    """One submitted test case; fields hold the content exactly as validated."""

    __tablename__ = "test_case"
    __table_args__ = (
        UniqueConstraint("evaluation_id", "index"),
        Index("ix_test_case_evaluation_id_context_hash", "evaluation_id", "context_hash"),
    )

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
    # sha256 of the stored retrieval_context (None: none given, or stored before the column):
    # jobs learn which contexts other jobs score too, so only those answers are coordinated.
    context_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType, nullable=True)
