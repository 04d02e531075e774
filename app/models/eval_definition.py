from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class EvalDefinition(Base):
    """An OpenAI Evals `eval`: what its runs' rows look like and how each row is graded."""

    __tablename__ = "eval_definition"
    __table_args__ = (Index("ix_eval_definition_tenant_id_created_at", "tenant_id", "created_at"),)

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(256), default="")
    metadata_: Mapped[dict[str, str] | None] = mapped_column("metadata", JSONType, nullable=True)
    # The request's config as sent (item_schema, include_sample_schema); echoed as `schema`.
    data_source_config: Mapped[dict[str, Any]] = mapped_column(JSONType)
    # The criteria as echoed, each with its `id`; a run's metric specs are made from them.
    testing_criteria: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    # The metric spec grading each criterion, in order; a run's evaluation copies them.
    specs: Mapped[list[dict[str, Any]]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
