"""Statistics of the meta-evaluation (Sakai, ACL-IJCNLP 2021 and CIKM 2021), numpy only.

* :data:`RANK_TIE_TOLERANCE` -- the tie rule of system rankings (tau itself, for agreement and consistency
  alike: :mod:`ordeval.stats.kendall`);
* the CI of Kendall's tau between two system rankings, three methods (:data:`CI_METHODS`, chosen by
  :func:`tau_interval`): :func:`tau_confidence_interval` (Fisher z with the Fieller et al. variance, on the
  exact tau or on tau rounded as printed) and :func:`long_cliff_interval` (Long and Cliff's consistent
  variance);
* :func:`residual_variance` -- VE2 of a two-way ANOVA without replication;
* :func:`pearson_with_ci` -- Pearson r with a Fisher-z interval.

The randomised Tukey HSD test, compiled with numba, is in :mod:`ordeval.stats.hsd`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from ordeval.stats import portable

#: Means closer than this (relative to their magnitude) are tied when ranking systems: identical
#: runs (the -C/-E baseline copies) can get means that differ in the last bit after a matrix product.
RANK_TIE_TOLERANCE = 1e-12

#: The interval methods of Kendall's tau (configuration key ``agreement.ci_method``), as captions name them.
CI_METHODS = {
    "fisher_z": "Fisher z with the Fieller et al. variance 0.437/(n \u2212 4)",
    "fisher_z_rounded": "Fisher z with the Fieller et al. variance 0.437/(n \u2212 4), on \u03c4 rounded to 3 "
    "decimals as in the papers' tables",
    "long_cliff": "Long and Cliff's consistent variance",
}

#: Decimals of the printed taus that ``fisher_z_rounded`` starts from (the papers' tables print 3).
PRINTED_DECIMALS = 3


def normal_quantile(probability: float) -> float:
    """z with Phi(z) = probability (the standard library's inverse normal CDF, accurate to ~1e-15)."""
    return NormalDist().inv_cdf(probability)


# --------------------------------------------------------------------------- Kendall's tau


@dataclass(frozen=True)
class ConfidenceInterval:
    low: float | np.ndarray
    high: float | np.ndarray


def tau_confidence_interval(tau, n: int, level: float = 0.95, decimals: int | None = None) -> ConfidenceInterval:
    """CI of Kendall's tau between two rankings of ``n`` systems, Fisher z with the Fieller, Hartley and
    Pearson (1957, Biometrika 44) variance of atanh(tau):

        tanh(atanh(t) -/+ z_{(1+level)/2} sqrt(0.437 / (n - 4)))

    with t = tau, or (``decimals`` given) t = tau rounded to ``decimals`` decimals as it is printed
    (``f"{tau:.3f}"``): the bounds of Sakai's tables (RNOD variants and DNKT, Table 3: all 72 at 3
    decimals) are this interval of the printed tau. t = +-1 gives [t, t]; NaN gives NaN.
    """
    if n <= 4:
        raise ValueError(f"the tau CI needs more than 4 systems, got {n}")
    tau = np.asarray(tau, dtype=float)
    if decimals is not None:
        tau = np.array([float(f"{value:.{decimals}f}") for value in tau.ravel()]).reshape(tau.shape)
    half_width = normal_quantile((1 + level) / 2) * np.sqrt(0.437 / (n - 4))
    centre = portable.arctanh(np.clip(tau, -1, 1))
    low, high = portable.tanh(centre - half_width), portable.tanh(centre + half_width)
    extreme = np.abs(tau) >= 1
    low, high = np.where(extreme, tau, low), np.where(extreme, tau, high)
    return ConfidenceInterval(low[()], high[()])


def tie_group_ranks(values: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """Ranks 0, 1, ... of every row of ``values`` by tie groups, the chain rule of :mod:`ordeval.stats.kendall`:
    sorted values whose gap is <= tolerance * max(1, max |row|) share a rank."""
    values = np.asarray(values, dtype=float)
    scale = np.maximum(1.0, np.abs(values).max(axis=-1, keepdims=True))
    order = np.argsort(values, axis=-1, kind="stable")
    steps = np.diff(np.take_along_axis(values, order, axis=-1), axis=-1) > tolerance * scale
    groups = np.concatenate([np.zeros(values.shape[:-1] + (1,), dtype=np.int64), np.cumsum(steps, axis=-1)], -1)
    ranks = np.empty_like(groups)
    np.put_along_axis(ranks, order, groups, axis=-1)
    return ranks


def long_cliff_variance(values: np.ndarray, variant: str = "a") -> tuple[np.ndarray, np.ndarray]:
    """Kendall's tau between the rankings of every pair of rows of ``values`` (rankers x n items) and
    its consistent variance estimate (Cliff and Charlin, 1991; Long and Cliff, 1997, BJMSP 50):

        t_ij = sign(x_i - x_j) sign(y_i - y_j)  (0 for a tie, :func:`tie_group_ranks`), i != j
        t = sum_{i!=j} t_ij / (n(n-1))  (tau-a),   t_i. = sum_{j!=i} t_ij / (n - 1)
        s2_i = sum_i (t_i. - t)^2 / (n - 1),   s2_ij = sum_{i!=j} (t_ij - t)^2 / (n(n-1) - 1)
        var(t) = (4 (n - 2) s2_i + 2 s2_ij) / (n(n-1))

    ``variant`` "b": tau-b = t n(n-1) / sqrt(N_x N_y), N_x the ordered pairs not tied in x, with the
    variance scaled by the square of that factor (the tie counts taken as fixed). Returns (tau, variance),
    rankers x rankers each; NaN for a row with NaN (and, tau-b, a row all ties).
    """
    values = np.asarray(values, dtype=float)
    rankers, n = values.shape
    if n < 3:
        raise ValueError(f"the consistent variance of tau needs at least 3 items, got {n}")
    missing = np.isnan(values).any(axis=1)
    ranks = tie_group_ranks(np.where(missing[:, None], 0.0, values))
    ranks = ranks.astype(np.float32)  # integers below 2^24: float32 sums of signs stay exact
    signs = np.sign(ranks[:, :, None] - ranks[:, None, :])  # rankers x n x n

    def row_sums(first, second):  # [i, a, b] = sum_j first[a, i, j] second[b, i, j], exact
        return np.matmul(first.transpose(1, 0, 2), second.transpose(1, 2, 0)).astype(float)  # exact: integers

    pairs = n * (n - 1)
    row = row_sums(signs, signs)  # row[i, a, b] = sum_j t_ij of rankers a and b
    untied = row_sums(np.abs(signs), np.abs(signs)).sum(axis=0)  # #{i != j: t_ij != 0}
    tau = row.sum(axis=0) / pairs
    spread = ((row / (n - 1) - tau) ** 2).sum(axis=0) / (n - 1)
    pair_spread = (untied - pairs * tau**2) / (pairs - 1)
    variance = np.maximum((4 * (n - 2) * spread + 2 * pair_spread) / pairs, 0.0)
    if variant == "b":
        own = np.diag(untied)
        with np.errstate(divide="ignore", invalid="ignore"):
            factor = pairs / np.sqrt(np.outer(own, own))
        tau, variance = tau * factor, variance * factor**2
    elif variant != "a":
        raise ValueError(f"unknown Kendall's tau variant {variant!r}; known: a, b")
    undefined = missing[:, None] | missing[None, :]
    return np.where(undefined, np.nan, tau), np.where(undefined, np.nan, variance)


def long_cliff_interval(values: np.ndarray, level: float = 0.95, variant: str = "a") -> ConfidenceInterval:
    """CI of Kendall's tau between every pair of rows of ``values`` (rankers x n items; two rankings x, y:
    ``np.stack([x, y])``, pair [0, 1]) with the consistent variance (:func:`long_cliff_variance`; Long and
    Cliff, 1997):

        t -/+ z_{(1+level)/2} sqrt(var(t)),  clipped to [-1, 1]

    (t = +-1 has variance 0: [t, t]). Rankers x rankers arrays ``low``, ``high``.
    """
    tau, variance = long_cliff_variance(values, variant)
    half_width = normal_quantile((1 + level) / 2) * np.sqrt(variance)
    return ConfidenceInterval(np.clip(tau - half_width, -1, 1), np.clip(tau + half_width, -1, 1))


def tau_interval(method: str, tau, values: np.ndarray, level: float = 0.95, variant: str = "b") -> ConfidenceInterval:
    """The ``method`` CI (:data:`CI_METHODS`) of the taus ``tau`` (rankers x rankers) between the rankings
    of the rows of ``values`` (rankers x n)."""
    if method == "long_cliff":
        return long_cliff_interval(values, level, variant)
    if method not in CI_METHODS:
        raise ValueError(f"unknown tau interval method {method!r}; known: {', '.join(CI_METHODS)}")
    decimals = PRINTED_DECIMALS if method == "fisher_z_rounded" else None
    return tau_confidence_interval(tau, np.shape(values)[-1], level, decimals)


# --------------------------------------------------------------------------- ANOVA and correlation


def residual_variance(matrix: np.ndarray) -> float:
    """VE2: residual variance of the two-way ANOVA without replication on rows x columns ``matrix``.

    VE2 = sum_ij (x_ij - row_i - col_j + grand)^2 / ((rows - 1)(columns - 1)).
    """
    matrix = np.asarray(matrix, dtype=float)
    rows, columns = matrix.shape
    residuals = matrix - matrix.mean(axis=1, keepdims=True) - matrix.mean(axis=0, keepdims=True) + matrix.mean()
    return float((residuals**2).sum() / ((rows - 1) * (columns - 1)))


@dataclass(frozen=True)
class Correlation:
    r: float
    low: float
    high: float
    n: int


def pearson_with_ci(x: np.ndarray, y: np.ndarray, level: float = 0.95) -> Correlation:
    """Pearson r with the Fisher-z CI tanh(atanh(r) -/+ z_{(1+level)/2} / sqrt(n - 3))."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = x.size
    if n < 4 or np.std(x) == 0 or np.std(y) == 0:
        return Correlation(float("nan"), float("nan"), float("nan"), n)
    r = min(1.0, max(-1.0, portable.pearson(x, y)))
    half_width = normal_quantile((1 + level) / 2) / math.sqrt(n - 3)
    centre = math.atanh(min(1 - 1e-15, max(-1 + 1e-15, r)))
    return Correlation(r, math.tanh(centre - half_width), math.tanh(centre + half_width), n)
