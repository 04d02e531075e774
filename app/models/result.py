from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType, UTCDateTime, utcnow


class Result(Base):
    """One metric's verdict on one test case; unique so a retried job cannot duplicate it."""

    __tablename__ = "result"
    __table_args__ = (
        UniqueConstraint("evaluation_id", "test_case_index", "metric_index"),
        # Budget checks (every write of a job under `daily_usd`) and GET /v1/usage sum a time
        # range of results: today's, not every result the tenant ever stored.
        Index("ix_result_created_at", "created_at"),
        # Labels and agreement read a version's results.
        Index("ix_result_metric_version", "metric_version"),
        # An evaluation's results by score (`order=score_asc|score_desc`), a page at a time.
        Index(
            "ix_result_evaluation_id_score",
            "evaluation_id",
            "score",
            "test_case_index",
            "metric_index",
        ),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    evaluation_id: Mapped[str] = mapped_column(ForeignKey("evaluation.id", ondelete="CASCADE"))
    test_case_index: Mapped[int] = mapped_column(Integer)
    test_case_id: Mapped[str] = mapped_column(String(256))
    metric_index: Mapped[int] = mapped_column(Integer)
    metric: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(64))
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    passed: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    threshold: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    # Judge usage as columns so an evaluation's totals are one SUM.
    judge_calls: Mapped[int] = mapped_column(Integer, default=0)
    # Judge requests sent that got no answer (retries included): apart from the answered calls.
    judge_failed_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    # Of prompt_tokens, those the provider served from its prompt cache (priced apart; OpenAI
    # evals' `cached_tokens`), judge and candidate.
    cached_prompt_tokens: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    # USD of the judge calls above (LOUPE_MODEL_PRICES at scoring time); None: model unpriced.
    judge_cost_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The models the costs were priced by (GET /v1/usage?group_by=model).
    judge_model: Mapped[str | None] = mapped_column(String(256), nullable=True)
    candidate_model: Mapped[str | None] = mapped_column(String(256), nullable=True)
    # A run's candidate call for the case, counted on the first result of it each job stores
    # (the case's other results show it in logs["candidate"] but do not count it again).
    # (Server defaults only, so rows written by code that predates these columns still go in.)
    candidate_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_failed_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_prompt_tokens: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_completion_tokens: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_cached_prompt_tokens: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_cost_usd: Mapped[float | None] = mapped_column(Float, nullable=True)
    logs: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    # A metric judged more than once (samples, a panel): every judgment, their spread, and
    # `fragile` (they straddle the threshold), a column so results can be filtered by it.
    stability: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    fragile: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # The judged metric's version (MetricVersion.id; None: a metric with no judge, or a result
    # stored before versions): labels and agreement are bound to it.
    metric_version: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
