import bisect
from typing import Any

from sqlalchemy import BigInteger, Float, ForeignKey, Integer, text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONType


class MetricSummary(Base):
    """Running counts and sums of one metric's stored results in one evaluation.

    Added to in the transaction that stores the results it counts, so reading an evaluation
    (clients poll it) reads a row per metric, however many results it has.
    """

    __tablename__ = "metric_summary"

    evaluation_id: Mapped[str] = mapped_column(
        ForeignKey("evaluation.id", ondelete="CASCADE"), primary_key=True
    )
    metric_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    stored: Mapped[int] = mapped_column(Integer)
    passed: Mapped[int] = mapped_column(Integer)
    failed: Mapped[int] = mapped_column(Integer)
    errored: Mapped[int] = mapped_column(Integer)
    # The mean score is score_sum / scored (results without a score do not count).
    score_sum: Mapped[float] = mapped_column(Float)
    scored: Mapped[int] = mapped_column(Integer)
    # With score_sum and scored, the scores' variance: error bars without reading the results.
    score_sq_sum: Mapped[float] = mapped_column(Float, server_default=text("0"))
    calls: Mapped[int] = mapped_column(Integer)
    # Requests that got no answer (app.judges.JudgeUsage.failed_calls), judge and candidate.
    failed_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    candidate_failed_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    # Token sums are 64-bit: an evaluation's results together pass 2^31 (migration
    # summary_tokens_bigint).
    prompt_tokens: Mapped[int] = mapped_column(BigInteger)
    completion_tokens: Mapped[int] = mapped_column(BigInteger)
    cached_prompt_tokens: Mapped[int] = mapped_column(BigInteger, server_default=text("0"))
    # Judge cost of the results whose model has a price; `judge_unpriced` counts the results
    # with judge calls and no price (the cost is then unknown, shown as null).
    judge_cost_usd: Mapped[float] = mapped_column(Float, server_default=text("0"), default=0.0)
    judge_unpriced: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    candidate_calls: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    candidate_prompt_tokens: Mapped[int] = mapped_column(
        BigInteger, server_default=text("0"), default=0
    )
    candidate_completion_tokens: Mapped[int] = mapped_column(
        BigInteger, server_default=text("0"), default=0
    )
    candidate_cached_prompt_tokens: Mapped[int] = mapped_column(
        BigInteger, server_default=text("0")
    )
    candidate_cost_usd: Mapped[float] = mapped_column(Float, server_default=text("0"), default=0.0)
    candidate_unpriced: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    # Results judged more than once whose judgments straddle the threshold, and those whose
    # every judgment passed (pass^k).
    fragile: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    all_passed: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    # Results judged more than once some of whose judgments failed.
    incomplete: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    # How many scores fall in each tenth of [0, 1] (1.0 in the last; scores outside [0, 1] in
    # none, `score_bin`): the console's histogram without reading the results.
    score_bin_0: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_1: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_2: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_3: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_4: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_5: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_6: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_7: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_8: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    score_bin_9: Mapped[int] = mapped_column(Integer, server_default=text("0"), default=0)
    # A completed evaluation's 95% interval of the mean score, stored once it completed with
    # the sums and score range it was made for (`app/evaluations/intervals.py`): a read of it,
    # in any process, bootstraps no scores (seconds for 50,000 of them).
    interval: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)


# The histogram's bins: tenths of [0, 1], the last one closed.
HISTOGRAM_BINS = 10
BIN_EDGES = tuple(index / HISTOGRAM_BINS for index in range(HISTOGRAM_BINS + 1))
BIN_COLUMNS = tuple(f"score_bin_{index}" for index in range(HISTOGRAM_BINS))


def score_bin(score: float | None) -> int | None:
    """The bin a score counts in (None: no score, or outside [0, 1]); compared with the same
    edges as the migration that summed the scores stored before the bins existed."""
    if score is None or not BIN_EDGES[0] <= score <= BIN_EDGES[-1]:
        return None
    return min(bisect.bisect_right(BIN_EDGES, score) - 1, HISTOGRAM_BINS - 1)
