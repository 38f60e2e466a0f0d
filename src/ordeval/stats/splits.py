"""Random topic splits and the taus between the run rankings on their two halves (docs/methods.md 4.2).

In trial b the topics are split at random into two disjoint sets T1_b and T2_b (halves of sizes
floor(n/2) and ceil(n/2), or two subsets of a fixed size); for every measure m the runs are ranked by
their mean score on T1_b and on T2_b, and tau_bm = tau(ranking on T1_b, ranking on T2_b) (tau-b by
default, or tau-a). All measures share each trial's split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ordeval.stats import portable
from ordeval.stats.kendall import kendall_tau

#: The two conditions: halves of the topics, and two disjoint subsets of ``subset_size`` topics.
CONDITIONS = ("half", "10v10")


@dataclass(frozen=True)
class Splits:
    """Boolean trials x topics masks of the two disjoint topic sets of every trial."""

    first: np.ndarray
    second: np.ndarray

    @property
    def trials(self) -> int:
        return self.first.shape[0]


def random_splits(num_topics: int, trials: int, first_size: int, second_size: int, rng: np.random.Generator) -> Splits:
    """Two disjoint random topic sets per trial, all trials at once.

    Row b of argsort(U), U a trials x topics matrix of uniform numbers, is a uniformly random
    permutation pi_b of the topics; T1_b = pi_b[:first_size], T2_b = pi_b[first_size:first_size + second_size].
    """
    if first_size < 1 or second_size < 1 or first_size + second_size > num_topics:
        raise ValueError(
            f"cannot draw disjoint topic sets of {first_size} and {second_size} topics from {num_topics} topics"
        )
    order = rng.random((trials, num_topics)).argsort(axis=1)
    first = np.zeros((trials, num_topics), dtype=bool)
    second = np.zeros((trials, num_topics), dtype=bool)
    np.put_along_axis(first, order[:, :first_size], True, axis=1)
    np.put_along_axis(second, order[:, first_size : first_size + second_size], True, axis=1)
    return Splits(first, second)


def condition_splits(
    condition: str, num_topics: int, trials: int, subset_size: int, rng: np.random.Generator
) -> Splits:
    """``half``: sizes floor(n/2) and ceil(n/2); ``10v10``: two subsets of ``subset_size`` topics."""
    if condition == "half":
        return random_splits(num_topics, trials, num_topics // 2, num_topics - num_topics // 2, rng)
    if condition == "10v10":
        return random_splits(num_topics, trials, subset_size, subset_size, rng)
    raise ValueError(f"unknown consistency condition {condition!r}; known: {', '.join(CONDITIONS)}")


def split_means(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean score of every run over the topics of each trial's mask: trials x measures x runs.

    mean[b, m, r] = sum_t mask[b, t] values[m, t, r] / sum_t mask[b, t]; one matrix product for all.
    """
    values = np.asarray(values, dtype=float)
    measures, _, runs = values.shape
    return _means(_topics_first(values), mask, measures, runs)


def _topics_first(values: np.ndarray) -> np.ndarray:
    """The measures x topics x runs stack as a topics x (measures * runs) matrix (one copy)."""
    measures, topics, runs = values.shape
    return values.transpose(1, 0, 2).reshape(topics, measures * runs)


def _means(flat: np.ndarray, mask: np.ndarray, measures: int, runs: int) -> np.ndarray:
    weights = mask / mask.sum(axis=1, keepdims=True)
    return portable.matmul(weights, flat).reshape(mask.shape[0], measures, runs)  # no BLAS: same bits on any CPU


#: Default number of doubles in one chunk's trials x measures x runs array of means (32 MiB).
CHUNK_ELEMENTS = 1 << 22


def split_taus(
    values: np.ndarray,
    splits: Splits,
    variant: str = "b",
    chunk: int | None = None,
    threads: int | None = None,
) -> np.ndarray:
    """Kendall's tau (``variant`` "b" or "a") between the run rankings on the two topic sets of every
    trial: trials x measures.

    ``values`` is the measures x topics x runs score stack. NaN where one ranking is all ties (tau-b).
    The trials are processed ``chunk`` at a time (default: as many as make 2^22 means per topic set):
    per chunk, the means on both topic sets (one matrix product each) and their taus (:mod:`ordeval.stats.kendall`),
    so memory is O(chunk x measures x runs + values) (the taus of short rankings count their pairs in chunks of
    their own), not O(trials x measures x runs^2). Values within a relative 1e-12 of each other are tied
    (:data:`ordeval.stats.intervals.RANK_TIE_TOLERANCE`, chain rule).
    """
    values = np.asarray(values, dtype=float)
    if values.ndim != 3:
        raise ValueError(f"expected a measures x topics x runs stack, got shape {values.shape}")
    measures, topics, runs = values.shape
    if splits.first.shape[1] != topics or splits.second.shape[1] != topics:
        raise ValueError(f"the splits are over {splits.first.shape[1]} topics, the scores have {topics}")
    if chunk is None:
        chunk = max(1, CHUNK_ELEMENTS // max(1, measures * runs))
    if chunk < 1:
        raise ValueError(f"chunk must be a positive number of trials, got {chunk}")
    flat = _topics_first(values)
    taus = np.empty((splits.trials, measures))
    for start in range(0, splits.trials, chunk):
        stop = min(start + chunk, splits.trials)
        first = _means(flat, splits.first[start:stop], measures, runs)
        second = _means(flat, splits.second[start:stop], measures, runs)
        taus[start:stop] = kendall_tau(first, second, variant, threads=threads)
        del first, second
    return taus
