"""Error bars, paired comparisons and agreement with people: pure functions of scores (scipy,
statsmodels, scikit-learn, krippendorff, ppi_py).

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
from app.stats._agreement import LOW_AGREEMENT, Agreement, panel_agreement
from app.stats._bounded import (
    MIN_BOOTSTRAP_N,
    MIN_WILSON_N,
    BoundedInterval,
    Bounds,
    at_bounds,
    bootstrap_mean,
    mean_interval,
    snap_into,
)
from app.stats._calibrated import CalibratedMean, calibrated_mean
from app.stats._clustered_paired import with_clusters
from app.stats._human import (
    Disagreement,
    HumanAgreement,
    LabelledItem,
    Statistic,
    human_agreement,
)
from app.stats._kappa_change import kappa_change
from app.stats._paired import PairedMetric, compare_metric, holm_adjust
from app.stats._samples import (
    Aggregate,
    Judgment,
    Verdict,
    exact_mean,
    verdict,
    weighted_median,
)

__all__ = [
    "CalibratedMean",
    "Disagreement",
    "HumanAgreement",
    "LabelledItem",
    "Statistic",
    "calibrated_mean",
    "exact_mean",
    "snap_into",
    "human_agreement",
    "kappa_change",
    "LOW_AGREEMENT",
    "Aggregate",
    "Agreement",
    "Judgment",
    "Verdict",
    "panel_agreement",
    "verdict",
    "weighted_median",
    "MIN_BOOTSTRAP_N",
    "MIN_WILSON_N",
    "BoundedInterval",
    "Bounds",
    "at_bounds",
    "ClusteredSpread",
    "PairedMetric",
    "Spread",
    "bootstrap_mean",
    "clustered_spread",
    "compare_metric",
    "holm_adjust",
    "mean_interval",
    "spread_from_sums",
    "wilson_interval",
    "with_clusters",
]
