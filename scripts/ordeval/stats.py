"""Statistics of the meta-evaluation (SPEC sections 4.1-4.3 and 4.6), vectorised over trials.

* :func:`kendall_tau_b` and :func:`tau_confidence_interval` -- agreement of two system rankings;
* :func:`randomised_tukey_hsd` -- paired multiple comparisons by permutation;
* :func:`residual_variance` -- VE2 of a two-way ANOVA without replication;
* :func:`pearson_with_ci` -- Pearson r with a Fisher-z interval.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
from scipy.special import ndtri  # the normal quantile; scipy.stats takes seconds to import

#: Means closer than this (relative to their magnitude) are tied when ranking systems: identical
#: runs (the -C/-E baseline copies) can get means that differ in the last bit after a matrix product.
RANK_TIE_TOLERANCE = 1e-12


# --------------------------------------------------------------------------- Kendall's tau


def _pair_signs(values: np.ndarray, tolerance: float) -> np.ndarray:
    """sign(x_i - x_j) over the pairs i < j of the last axis; 0 for ties."""
    first, second = np.triu_indices(values.shape[-1], k=1)
    difference = values[..., first] - values[..., second]
    scale = np.maximum(1.0, np.abs(values).max(axis=-1, keepdims=True))
    return np.where(np.abs(difference) <= tolerance * scale, 0, np.sign(difference))


def kendall_tau_b(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """Kendall's tau-b between the rankings that ``x`` and ``y`` induce (last axis), batched.

    tau_b = (C - D) / sqrt((n0 - T_x)(n0 - T_y)), n0 = n(n-1)/2, T_x the pairs tied in x;
    without ties it equals tau-a. Values within ``tolerance`` (relative) of each other are tied.
    Returns NaN where one ranking is all ties. Leading axes broadcast (e.g. trials x measures).
    """
    x_signs = _pair_signs(np.asarray(x, dtype=float), tolerance)
    y_signs = _pair_signs(np.asarray(y, dtype=float), tolerance)
    numerator = (x_signs * y_signs).sum(axis=-1)
    denominator = np.sqrt(np.count_nonzero(x_signs, axis=-1) * np.count_nonzero(y_signs, axis=-1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / np.where(denominator > 0, denominator, 1), np.nan)


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
    half_width = ndtri((1 + level) / 2) * np.sqrt(0.437 / (n - 4))
    with np.errstate(divide="ignore"):
        centre = np.arctanh(np.clip(tau, -1, 1))
    low, high = np.tanh(centre - half_width), np.tanh(centre + half_width)
    extreme = np.abs(tau) >= 1
    low, high = np.where(extreme, tau, low), np.where(extreme, tau, high)
    return ConfidenceInterval(low[()], high[()])


# --------------------------------------------------------------------------- randomised Tukey HSD

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@numba.njit(cache=True, inline="always")
def _splitmix64(state):
    """Next (state, 64 random bits) of the SplitMix64 generator."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def _below(state, bits32, bound):
    """(state, uniform integer in [0, bound)) from the 32 random bits ``bits32``, by Lemire's
    multiply-and-reject method: unbiased, and the division runs only in the rare rejection zone."""
    bound = np.uint64(bound)
    product = bits32 * bound
    low = product & _LOW32
    if low < bound:
        threshold = ((_LOW32 + np.uint64(1)) - bound) % bound
        while low < threshold:
            state, bits = _splitmix64(state)
            product = (bits >> np.uint64(32)) * bound
            low = product & _LOW32
    return state, np.int64(product >> np.uint64(32))


@numba.njit(cache=True, parallel=True)
def _null_ranges(scores, seeds, ranges):
    """For trial b (seeded by seeds[b]), permute every topic's row of ``scores`` (topics x systems x
    measures) across systems (Fisher-Yates), sum per system and store max - min per measure."""
    num_topics, num_systems, num_measures = scores.shape
    for trial in numba.prange(seeds.shape[0]):
        state = seeds[trial]
        permutation = np.arange(num_systems)
        sums = np.zeros((num_systems, num_measures))
        for topic in range(num_topics):
            # Shuffling the previous arrangement again gives a fresh uniform permutation.
            # Fisher-Yates; each 64-bit draw serves two swaps (32 bits each).
            for last in range(num_systems - 1, 0, -2):
                state, bits = _splitmix64(state)
                state, other = _below(state, bits >> np.uint64(32), last + 1)
                permutation[last], permutation[other] = permutation[other], permutation[last]
                if last > 1:
                    state, other = _below(state, bits & _LOW32, last)
                    permutation[last - 1], permutation[other] = permutation[other], permutation[last - 1]
            for system in range(num_systems):
                source = permutation[system]
                for measure in range(num_measures):
                    sums[system, measure] += scores[topic, source, measure]
        for measure in range(num_measures):
            highest = sums[0, measure]
            lowest = sums[0, measure]
            for system in range(1, num_systems):
                highest = max(highest, sums[system, measure])
                lowest = min(lowest, sums[system, measure])
            ranges[trial, measure] = (highest - lowest) / num_topics


@dataclass(frozen=True)
class TukeyHSDResult:
    """Result of :func:`randomised_tukey_hsd` for a stack of score matrices."""

    means: np.ndarray  # measures x systems
    p_values: np.ndarray  # measures x systems x systems, symmetric, 1 on the diagonal
    null_ranges: np.ndarray  # measures x trials: max - min of the permuted means

    def significant(self, alpha: float = 0.05) -> np.ndarray:
        """Boolean measures x systems x systems: the pair differs at level ``alpha`` (p < alpha)."""
        return self.p_values < alpha


def randomised_tukey_hsd(
    scores: np.ndarray, trials: int, rng: np.random.Generator, threads: int | None = None
) -> TukeyHSDResult:
    """Randomised Tukey HSD test (SPEC 4.3) for every pair of systems, for several measures at once.

    ``scores`` is a topics x systems matrix or a measures x topics x systems stack. In each of
    ``trials`` trials every topic's row is permuted independently across systems -- the same
    permutation for every measure -- and the range max_s - min_s of the permuted system means is
    recorded. The p-value of systems (s, t) is the fraction of trials whose range is >= |mean_s - mean_t|.

    The trial loop runs compiled (numba) and in parallel over ``threads``; each trial draws its own
    random stream from a seed taken from ``rng``, so the result depends on ``rng`` only, not on the
    number of threads. Memory is O(trials x measures).
    """
    scores = np.asarray(scores, dtype=float)
    single = scores.ndim == 2
    stack = scores[None] if single else scores
    if stack.ndim != 3 or stack.shape[2] < 2:
        raise ValueError(f"expected topics x systems or measures x topics x systems, got shape {scores.shape}")
    if not np.isfinite(stack).all():
        raise ValueError("scores contain NaN or infinite values")
    seeds = rng.integers(0, np.iinfo(np.uint64).max, size=trials, dtype=np.uint64, endpoint=True)
    ranges = np.empty((trials, stack.shape[0]))
    previous_threads = numba.get_num_threads()
    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        _null_ranges(np.ascontiguousarray(stack.transpose(1, 2, 0)), seeds, ranges)
    finally:
        numba.set_num_threads(previous_threads)
    means = stack.mean(axis=1)
    differences = np.abs(means[:, :, None] - means[:, None, :])
    sorted_ranges = np.sort(ranges.T, axis=1)
    # Trials whose range reaches the difference; the slack absorbs rounding between the two sums.
    slack = 1e-12 * np.maximum(1.0, np.abs(means).max(axis=1))
    p_values = np.empty_like(differences)
    for measure in range(stack.shape[0]):  # a loop over measures, not trials
        below = np.searchsorted(sorted_ranges[measure], differences[measure] - slack[measure], side="left")
        p_values[measure] = (trials - below) / trials
    if single:
        return TukeyHSDResult(means[0], p_values[0], ranges.T[0])
    return TukeyHSDResult(means, p_values, ranges.T)


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
    half_width = ndtri((1 + level) / 2) / np.sqrt(n - 3)
    centre = np.arctanh(np.clip(r, -1 + 1e-15, 1 - 1e-15))
    return Correlation(r, float(np.tanh(centre - half_width)), float(np.tanh(centre + half_width)), n)
