"""Two sets of scores on the same items when the items come in clusters (several questions about
one image): the paired difference's test, interval and detectable effect count clusters, not
items.

Items of a cluster move together, so a paired t over items is sure of more than the pairs show:
simulated with 10 images of 5 questions each and no change at all (each image's questions
shifted alike by chance), it called a change 26% of the time at alpha 0.05, the cluster-robust
test 5% (Miller 2024, "Adding Error Bars to Evals", §4: analyse the paired differences with
clustered standard errors).
"""

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from statsmodels.regression.linear_model import OLS

from app.stats._aggregate import _cluster_label
from app.stats._bounded import BoundedInterval, Bounds, _cluster_bootstrap, _constant
from app.stats._paired import (
    SMALLEST_P,
    PairedMetric,
    _rounding,
    constant_difference_p,
    minimum_detectable_effect,
)

# A cluster-robust SE this small beside the plain one is the fit's rounding (every cluster's
# mean difference is the overall mean), not a measurement: it is 0.
_NOISE = 1e-9


@dataclass(frozen=True)
class ClusteredDifference:
    """The clustered paired figures that replace the per-item ones."""

    clusters: int
    p_value: float | None
    interval: BoundedInterval
    minimum_detectable_effect: float | None
    notes: tuple[str, ...]


def _p_value(differences: np.ndarray, codes: np.ndarray, clusters: int) -> tuple[float, float]:
    """The two-sided p of the mean difference (intercept-only OLS, cluster-robust covariance
    with the G/(G−1) correction, t with G − 1 df) and its cluster-robust SE."""
    mean = float(differences.mean())
    if _rounding(float(np.ptp(differences)), differences):
        # Every pair differs alike: no spread to scale by; the sign-flip test over clusters.
        return (1.0 if _rounding(abs(mean), differences) else constant_difference_p(clusters)), 0.0
    fit = OLS(differences, np.ones(len(differences))).fit(
        cov_type="cluster", cov_kwds={"groups": codes}, use_t=True
    )
    stderr = float(fit.bse[0])
    plain = float(differences.std(ddof=1)) / math.sqrt(len(differences))
    if not math.isfinite(stderr) or stderr <= _NOISE * plain:
        # Each cluster's mean difference is the overall mean: as sure as the clusters allow.
        return (1.0 if _rounding(abs(mean), differences) else constant_difference_p(clusters)), 0.0
    return max(SMALLEST_P, float(fit.pvalues[0])), stderr


def _interval(
    differences: np.ndarray, codes: np.ndarray, bounds: Bounds, plain: BoundedInterval
) -> BoundedInterval:
    """A BCa cluster bootstrap of the mean difference (whole clusters resampled), never
    narrower than the per-item interval: clustering never makes a difference surer."""
    if _constant(differences):
        # Every difference alike: resampling clusters cannot move the mean either.
        return plain
    width = bounds[1] - bounds[0]
    made = _cluster_bootstrap(differences, codes, (-width, width))
    if made.ci95 is None or plain.ci95 is None:
        return made
    low, high = made.ci95
    if low <= plain.ci95[0] and plain.ci95[1] <= high:
        return BoundedInterval((low, high), made.method)
    return BoundedInterval(
        (min(low, plain.ci95[0]), max(high, plain.ci95[1])),
        made.method,
        f"widened to hold the per-item interval [{plain.ci95[0]:.4g}, {plain.ci95[1]:.4g}]: "
        "the clusters' resamples gave a narrower one, and clustering never makes a difference "
        "surer",
    )


def clustered_difference(
    differences: np.ndarray,
    groups: Sequence[Any],
    alpha: float,
    bounds: Bounds,
    plain: BoundedInterval,
    cluster_by: str,
) -> ClusteredDifference:
    """The paired difference's p, 95% interval and minimum detectable effect over clusters.

    Args:
        groups: each pair's cluster, a JSON value (compared with its type).
        plain: the per-item interval (paired bootstrap or Newcombe), which the clustered one
            holds.
    """
    labels = [_cluster_label(group) for group in groups]
    index = {label: code for code, label in enumerate(dict.fromkeys(labels))}
    codes = np.asarray([index[label] for label in labels])
    clusters = len(index)
    said = (
        f"clustered by {cluster_by!r} ({clusters} cluster{'' if clusters == 1 else 's'} over "
        f"{len(differences)} pairs): the p-value, interval and minimum detectable effect count "
        "clusters, not items (the Wilcoxon and McNemar p-values do not)"
    )
    if clusters < 2:
        return ClusteredDifference(
            clusters,
            None,
            BoundedInterval(
                None,
                None,
                "no interval: every pair is in one cluster, so nothing tells a change from "
                "that cluster's chance",
            ),
            None,
            (said,),
        )
    p_value, stderr = _p_value(differences, codes, clusters)
    notes = [said]
    detectable = None
    if stderr == 0:
        notes.append(
            "no minimum detectable effect: every cluster's mean difference is the same, so "
            "there is no spread to scale it by"
        )
    else:
        # The clustered test is a one-sample t over the clusters with this SE: the spread of
        # a cluster's mean difference is SE·√clusters.
        detectable, why = minimum_detectable_effect(stderr * math.sqrt(clusters), clusters, alpha)
        notes.extend([why] if why else [])
    return ClusteredDifference(
        clusters, p_value, _interval(differences, codes, bounds, plain), detectable, tuple(notes)
    )


def with_clusters(
    compared: PairedMetric,
    baseline: Sequence[float],
    candidate: Sequence[float],
    groups: Sequence[Any],
    alpha: float,
    bounds: Bounds,
    cluster_by: str,
) -> PairedMetric:
    """`compared` (compare_metric's per-item figures of these pairs) with its p-value, 95%
    interval and minimum detectable effect made over the pairs' clusters instead.

    Args:
        groups: each pair's cluster (a JSON value), in the pairs' order.
        cluster_by: what the clusters are (the metadata key), for the note.
    """
    if compared.n < 2:
        return compared
    differences = np.asarray(candidate, dtype=float) - np.asarray(baseline, dtype=float)
    plain = BoundedInterval(compared.ci95, compared.ci_method)
    found = clustered_difference(differences, groups, alpha, bounds, plain, cluster_by)
    interval = found.interval
    return dataclasses.replace(
        compared,
        p_value=found.p_value,
        ci95=interval.ci95,
        ci_method=interval.method,
        minimum_detectable_effect=found.minimum_detectable_effect,
        notes=(*([interval.note] if interval.note else []), *found.notes),
        clusters=found.clusters,
    )
