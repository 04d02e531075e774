"""Statistics of many item resamples at once, each the same formula as the library that names
it (scikit-learn's cohen_kappa_score, scipy's spearmanr and rankdata, Krippendorff's interval
alpha), over rows of item indices: a library call per resample costs about a millisecond, and
Krippendorff's package far more on continuous scores. tests/stats checks them equal.
"""

import numpy as np

# Per item: pairable ratings, their sum, sum of squares, and within-item disagreement.
AlphaParts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def kappa(confusion: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """scikit-learn's cohen_kappa_score over a stack of confusion matrices (NaN: undefined)."""
    total = confusion.sum(axis=(1, 2))
    expected = (
        confusion.sum(axis=1)[:, :, None] * confusion.sum(axis=2)[:, None, :] / total[:, None, None]
    )
    observed = np.sum(weights * confusion, axis=(1, 2))
    chance = np.sum(weights * expected, axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(chance > 0, 1 - observed / np.where(chance > 0, chance, 1), np.nan)


def confusions(rows: np.ndarray, columns: np.ndarray, size: int) -> np.ndarray:
    """Confusion matrices (rows × columns codes) of each resample, via one bincount."""
    resamples = rows.shape[0]
    codes = rows * size + columns + (np.arange(resamples) * size * size)[:, None]
    return np.bincount(codes.ravel(), minlength=resamples * size * size).reshape(
        resamples, size, size
    )


def alpha_parts(ratings: np.ndarray) -> AlphaParts:
    """Per item: pairable values m, their sum and sum of squares (centred), and the item's
    Σ_{i≠j} δ²/(m − 1); zero for items with fewer than two ratings (they pair with nothing)."""
    m = np.sum(~np.isnan(ratings), axis=0).astype(float)
    pairable = m >= 2
    centre = np.nanmean(ratings[:, pairable]) if pairable.any() else 0.0
    values = np.where(np.isnan(ratings), 0.0, ratings - centre)
    s1 = values.sum(axis=0)
    s2 = (values * values).sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        within = np.where(pairable, 2 * (m * s2 - s1 * s1) / np.where(pairable, m - 1, 1), 0.0)
    keep = pairable.astype(float)
    return m * keep, s1 * keep, s2 * keep, within


def alpha(parts: AlphaParts, idx: np.ndarray) -> np.ndarray:
    """Interval alpha (nominal on 0/1) of each resample from the per-item parts (interval_alpha
    in app/stats/_agreement.py, summed over resampled items)."""
    m, s1, s2, within = (part[idx].sum(axis=1) for part in parts)
    pooled = 2 * (m * s2 - s1 * s1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(pooled > 1e-12 * m * m, 1 - (m - 1) * within / pooled, np.nan)


def ranks(values: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """scipy's rankdata (average ranks of ties) of values[idx] along each row, counting how
    many resampled items take each distinct value instead of sorting every row."""
    distinct, dense = np.unique(values, return_inverse=True)
    size = distinct.size
    codes = dense[idx]
    counts = np.bincount(
        (codes + (np.arange(idx.shape[0]) * size)[:, None]).ravel(), minlength=idx.shape[0] * size
    ).reshape(idx.shape[0], size)
    below = np.cumsum(counts, axis=1) - counts
    return np.take_along_axis(below + (counts + 1) / 2, codes, axis=1)


def spearman(x: np.ndarray, y: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """scipy's spearmanr of x[idx] and y[idx], row by row: Pearson's r of average ranks (NaN:
    a constant row)."""
    rx = ranks(x, idx)
    ry = ranks(y, idx)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    spread = np.sqrt(np.sum(rx * rx, axis=1) * np.sum(ry * ry, axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(spread > 0, np.sum(rx * ry, axis=1) / spread, np.nan)
