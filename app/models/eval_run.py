from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class EvalRun(Base):
    """An OpenAI Evals run: what an evaluation of kind `eval_run` (same id) was made from.

    Status, test cases (one per data-source row), results, recovery and webhooks are the
    evaluation's; a result is one criterion's grade of one row.
    """

    __tablename__ = "eval_run"
    __table_args__ = (Index("ix_eval_run_eval_id", "eval_id"),)

    id: Mapped[str] = mapped_column(
        ForeignKey("evaluation.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    eval_id: Mapped[str] = mapped_column(ForeignKey("eval_definition.id", ondelete="CASCADE"))
    # The data source as echoed (rows of `file_content` included, images as sent).
    data_source: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # The data source's model name (null for jsonl), and the candidate model it resolved to.
    model: Mapped[str | None] = mapped_column(String(256), nullable=True)
    model_id: Mapped[str | None] = mapped_column(
        ForeignKey("candidate_model.id", ondelete="SET NULL"), nullable=True
    )
