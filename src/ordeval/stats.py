"""Statistics of the meta-evaluation (Sakai, ACL-IJCNLP 2021 and CIKM 2021), numpy only.

* :data:`RANK_TIE_TOLERANCE` and :func:`tau_confidence_interval` -- the tie rule and the CI of Kendall's
  tau between two system rankings (tau itself, for agreement and consistency alike: :mod:`ordeval.kendall`);
* :func:`residual_variance` -- VE2 of a two-way ANOVA without replication;
* :func:`pearson_with_ci` -- Pearson r with a Fisher-z interval.

The randomised Tukey HSD test, compiled with numba, is in :mod:`ordeval.hsd`.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

#: Means closer than this (relative to their magnitude) are tied when ranking systems: identical
#: runs (the -C/-E baseline copies) can get means that differ in the last bit after a matrix product.
RANK_TIE_TOLERANCE = 1e-12


def normal_quantile(probability: float) -> float:
    """z with Phi(z) = probability (the standard library's inverse normal CDF, accurate to ~1e-15)."""
    return NormalDist().inv_cdf(probability)


# --------------------------------------------------------------------------- Kendall's tau


@dataclass(frozen=True)
class ConfidenceInterval:
    low: float | np.ndarray
    high: float | np.ndarray


def tau_confidence_interval(tau, n: int, level: float = 0.95) -> ConfidenceInterval:
    """CI of Kendall's tau between two rankings of ``n`` systems (Long and Cliff, 1997):

        tanh(atanh(tau) -/+ z_{(1+level)/2} sqrt(0.437 / (n - 4)))

    (Fisher z with the Fieller et al. variance); tau = +-1 gives [tau, tau].
    """
    if n <= 4:
        raise ValueError(f"the tau CI needs more than 4 systems, got {n}")
    tau = np.asarray(tau, dtype=float)
    half_width = normal_quantile((1 + level) / 2) * np.sqrt(0.437 / (n - 4))
    with np.errstate(divide="ignore"):
        centre = np.arctanh(np.clip(tau, -1, 1))
    low, high = np.tanh(centre - half_width), np.tanh(centre + half_width)
    extreme = np.abs(tau) >= 1
    low, high = np.where(extreme, tau, low), np.where(extreme, tau, high)
    return ConfidenceInterval(low[()], high[()])


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
    r = float(np.corrcoef(x, y)[0, 1])
    half_width = normal_quantile((1 + level) / 2) / np.sqrt(n - 3)
    centre = np.arctanh(np.clip(r, -1 + 1e-15, 1 - 1e-15))
    return Correlation(r, float(np.tanh(centre - half_width)), float(np.tanh(centre + half_width)), n)
