from sqlalchemy import Float, ForeignKey, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base


class RunScore(Base):
    """The running sum of one report key over one subset of a run.

    Added to in the transaction that stores the results it counts, so the report is a read of
    a few rows however many samples the run has.
    """

    __tablename__ = "run_score"

    run_id: Mapped[str] = mapped_column(ForeignKey("run.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(32), primary_key=True)
    subset: Mapped[str] = mapped_column(String(256), primary_key=True)
    total: Mapped[float] = mapped_column(Float)
    num: Mapped[int] = mapped_column(Integer)
    # Σ value², for the report row's standard error.
    total_sq: Mapped[float] = mapped_column(Float, server_default=text("0"))
    # The run's own metrics' verdicts against their threshold, for the row's pass-rate interval
    # (the scorers' pass/fail keys are read from their 0/1 values instead).
    passed: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    failed: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
