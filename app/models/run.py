from typing import Any

from sqlalchemy import ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class Run(Base):
    """A dataset run: what an evaluation of kind `run` (same id) was made from.

    Status, test cases (one per sample), results, recovery and webhooks are the evaluation's.
    """

    __tablename__ = "run"

    id: Mapped[str] = mapped_column(
        ForeignKey("evaluation.id", ondelete="CASCADE"), primary_key=True
    )
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    dataset_id: Mapped[str] = mapped_column(ForeignKey("dataset.id", ondelete="CASCADE"))
    model_id: Mapped[str | None] = mapped_column(
        ForeignKey("candidate_model.id", ondelete="SET NULL"), nullable=True
    )
    # The request's options as validated: subsets, limit, generation, judge.
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
