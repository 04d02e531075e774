from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class TestCase(Base):
    """One submitted test case; fields hold the content exactly as validated."""

    __tablename__ = "test_case"
    __table_args__ = (
        UniqueConstraint("evaluation_id", "index"),
        Index("ix_test_case_evaluation_id_context_hash", "evaluation_id", "context_hash"),
        # A batch appended to an open evaluation is checked for ids its earlier batches hold.
        Index("ix_test_case_evaluation_id_client_id", "evaluation_id", "client_id"),
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
    # A single-turn case's tool calls; the calls the case (or conversation) should make.
    tools_called: Mapped[Any] = mapped_column(JSONType, nullable=True)
    expected_tools: Mapped[Any] = mapped_column(JSONType, nullable=True)
    # A conversation (app/evaluations/case_schemas.py Turn) and the fields about it; a case
    # with turns has no input or outputs of its own.
    turns: Mapped[Any] = mapped_column(JSONType, nullable=True)
    scenario: Mapped[Any] = mapped_column(JSONType, nullable=True)
    expected_outcome: Mapped[Any] = mapped_column(JSONType, nullable=True)
    chatbot_role: Mapped[str | None] = mapped_column(Text, nullable=True)
    user_description: Mapped[str | None] = mapped_column(Text, nullable=True)
    metadata_: Mapped[dict[str, Any] | None] = mapped_column("metadata", JSONType, nullable=True)
