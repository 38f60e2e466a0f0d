"""Random topic splits and the taus between the run rankings on their two halves (SPEC 4.2).

In trial b the topics are split at random into two disjoint sets T1_b and T2_b (halves of sizes
floor(n/2) and ceil(n/2), or two subsets of a fixed size); for every measure m the runs are ranked by
their mean score on T1_b and on T2_b, and tau_bm = tau_b(ranking on T1_b, ranking on T2_b). All
measures share each trial's split.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .stats import kendall_tau

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
    measures, topics, runs = values.shape
    weights = mask / mask.sum(axis=1, keepdims=True)
    flat = values.transpose(1, 0, 2).reshape(topics, measures * runs)
    return (weights @ flat).reshape(mask.shape[0], measures, runs)


def split_taus(values: np.ndarray, splits: Splits, variant: str = "b") -> np.ndarray:
    """tau_b between the run rankings on the two topic sets of every trial: trials x measures.

    ``values`` is the measures x topics x runs score stack. NaN where one ranking is all ties.
    """
    values = np.asarray(values, dtype=float)
    return kendall_tau(split_means(values, splits.first), split_means(values, splits.second), variant=variant)
