"""Statistics of the meta-evaluation (SPEC sections 4.1, 4.2 and 4.6), numpy only.

* :func:`kendall_tau` (tau-a or tau-b), :func:`kendall_tau_a`, :func:`kendall_tau_b` and
  :func:`tau_confidence_interval` -- agreement of two system rankings (small inputs: O(n^2) pairs; the
  batched O(n log n) numba version is :mod:`ordeval.kendall`);
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


def _pair_signs(values: np.ndarray, tolerance: float) -> np.ndarray:
    """sign(x_i - x_j) over the pairs i < j of the last axis; 0 for ties."""
    first, second = np.triu_indices(values.shape[-1], k=1)
    difference = values[..., first] - values[..., second]
    scale = np.maximum(1.0, np.abs(values).max(axis=-1, keepdims=True))
    return np.where(np.abs(difference) <= tolerance * scale, 0, np.sign(difference))


def kendall_tau(x: np.ndarray, y: np.ndarray, variant: str = "b", tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """Kendall's tau between the rankings that ``x`` and ``y`` induce (last axis), batched; O(n^2) pairs.

    With C and D the concordant and discordant pairs, n0 = n(n-1)/2 and T_x, T_y the pairs tied in x, y:

    * ``variant="b"``: tau_b = (C - D) / sqrt((n0 - T_x)(n0 - T_y)); NaN where one ranking is all ties;
    * ``variant="a"``: tau_a = (C - D) / n0: tied pairs count as neither concordant nor discordant but
      stay in the denominator (the papers' NTCIR tables: multiples of 1/171 or 1/231).

    Without ties both equal (C - D) / n0. A pair is tied when its values differ by at most ``tolerance``
    x max(1, max |value|) (pairwise rule). Leading axes broadcast (e.g. trials x measures); NaN for n < 2.
    For large batches or long rankings use :func:`ordeval.kendall.kendall_tau` (numba, O(n log n)).
    """
    if variant not in ("a", "b"):
        raise ValueError(f"unknown Kendall's tau variant {variant!r}; known: a, b")
    x_signs = _pair_signs(np.asarray(x, dtype=float), tolerance)
    y_signs = _pair_signs(np.asarray(y, dtype=float), tolerance)
    numerator = (x_signs * y_signs).sum(axis=-1)
    if variant == "a":
        denominator = np.full(numerator.shape, x_signs.shape[-1], dtype=float)
    else:
        denominator = np.sqrt(np.count_nonzero(x_signs, axis=-1) * np.count_nonzero(y_signs, axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)[()]


def kendall_tau_a(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-a, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "a", tolerance)


def kendall_tau_b(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-b, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "b", tolerance)


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
