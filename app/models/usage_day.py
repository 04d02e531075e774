from datetime import date

from sqlalchemy import BigInteger, Date, Float, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base

# The columns a write adds to a usage day already there (the rest are its key).
USAGE_SUMMED = (
    "calls",
    "failed_calls",
    "prompt_tokens",
    "completion_tokens",
    "cached_prompt_tokens",
    "cost_usd",
    "unpriced",
)


class UsageDay(Base):
    """Model calls of one evaluation's results stored on one UTC day, per role and model.

    Added to in the transaction that stores the results it counts (as `metric_summary` is), so
    `GET /v1/usage` and a job's daily-budget check read a row per evaluation, day and model,
    however many results the days hold. Only results that made or tried a call of the role
    count, as the sums over results did before this table (app/usage/repository.py). An
    alignment's rubric-notes call, made outside any result, is added under the alignment's id
    when it is created (`usage.service.count_calls`).

    The rows outlive their evaluation: its calls were made and billed, so deleting it (or
    retention) gives nothing back to the tenant's usage or to today's budget. They go with
    their tenant.
    """

    __tablename__ = "usage_day"
    __table_args__ = (Index("ix_usage_day_tenant_id_day", "tenant_id", "day"),)

    # No foreign key: the evaluation may have been deleted since.
    evaluation_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    # The UTC day the results were stored on.
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    # "judge" or "candidate".
    role: Mapped[str] = mapped_column(String(16), primary_key=True)
    # The model the results name; "" when they name none (shown as "unknown").
    model: Mapped[str] = mapped_column(String(256), primary_key=True)
    # The evaluation's tenant, so a tenant's days are read without the evaluations.
    tenant_id: Mapped[str] = mapped_column(ForeignKey("tenant.id", ondelete="CASCADE"))
    calls: Mapped[int] = mapped_column(BigInteger)
    failed_calls: Mapped[int] = mapped_column(BigInteger)
    prompt_tokens: Mapped[int] = mapped_column(BigInteger)
    completion_tokens: Mapped[int] = mapped_column(BigInteger)
    # Of prompt_tokens, those served from the provider's prompt cache.
    cached_prompt_tokens: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    # The cost of the results whose model has a price; `unpriced` counts those without one.
    cost_usd: Mapped[float] = mapped_column(Float)
    unpriced: Mapped[int] = mapped_column(Integer)
