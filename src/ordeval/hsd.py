"""Randomised Tukey HSD test (SPEC 4.3), its trial loop compiled with numba.

Importing this module imports numba (~0.5 s): only the jobs that run the test do.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np


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
