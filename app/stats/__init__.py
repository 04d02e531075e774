"""Error bars and paired comparisons: pure functions of scores (scipy and statsmodels).

No FastAPI, SQLAlchemy or RQ imports: evaluations, runs and comparisons all call these with
plain numbers, and tests check them against textbook answers.
"""

from app.stats._aggregate import (
    ClusteredSpread,
    Spread,
    clustered_spread,
    spread_from_sums,
    wilson_interval,
)
from app.stats._paired import PairedMetric, compare_metric, holm_adjust

__all__ = [
    "ClusteredSpread",
    "PairedMetric",
    "Spread",
    "clustered_spread",
    "compare_metric",
    "holm_adjust",
    "spread_from_sums",
    "wilson_interval",
]
