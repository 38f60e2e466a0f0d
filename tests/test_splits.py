"""Random topic splits and the split taus of the consistency analysis (ordeval.stats.splits)."""

import tracemalloc

import numpy as np
import pytest

from ordeval.stats import splits as sp
from ordeval.stats.kendall import kendall_tau


def _values(seed, measures=3, topics=20, runs=8, levels=None):
    rng = np.random.default_rng(seed)
    values = rng.random((measures, topics, runs)) + np.linspace(0, 0.3, runs)
    if levels:
        values = np.floor(values * levels) / levels
    return values


def test_splits_are_disjoint_of_the_requested_sizes_and_seeded():
    splits = sp.condition_splits("half", 21, 50, 10, np.random.default_rng(0))
    assert splits.trials == 50
    assert (splits.first.sum(axis=1) == 10).all() and (splits.second.sum(axis=1) == 11).all()
    assert not (splits.first & splits.second).any()
    again = sp.condition_splits("half", 21, 50, 10, np.random.default_rng(0))
    np.testing.assert_array_equal(splits.first, again.first)
    subsets = sp.condition_splits("10v10", 25, 5, 10, np.random.default_rng(1))
    assert (subsets.first.sum(axis=1) == 10).all() and (subsets.second.sum(axis=1) == 10).all()
    with pytest.raises(ValueError, match="disjoint"):
        sp.random_splits(5, 3, 3, 3, np.random.default_rng(0))
    with pytest.raises(ValueError, match="condition"):
        sp.condition_splits("thirds", 25, 5, 10, np.random.default_rng(1))


def test_split_means_are_the_means_over_each_mask():
    values = _values(1)
    splits = sp.condition_splits("half", 20, 4, 10, np.random.default_rng(2))
    means = sp.split_means(values, splits.first)
    for trial in range(4):
        np.testing.assert_allclose(means[trial], values[:, splits.first[trial]].mean(axis=1))


@pytest.mark.parametrize("levels", [None, 4])  # with ties between runs' means, too
@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.parametrize("chunk", [None, 1, 7])
def test_split_taus_equal_the_pairwise_computation(levels, variant, chunk):
    values = _values(3, levels=levels)
    values[:, :, 5] = values[:, :, 4]  # identical runs: their means can differ in the last bit
    splits = sp.condition_splits("half", 20, 30, 10, np.random.default_rng(4))
    taus = sp.split_taus(values, splits, variant=variant, chunk=chunk)
    expected = kendall_tau(sp.split_means(values, splits.first), sp.split_means(values, splits.second), variant)
    assert taus.shape == (30, 3)
    np.testing.assert_allclose(taus, expected, rtol=0, atol=1e-12, equal_nan=True)


def test_split_taus_rejects_mismatched_splits():
    splits = sp.condition_splits("half", 10, 3, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="topics"):
        sp.split_taus(_values(0), splits)


def test_split_taus_memory_does_not_grow_with_trials_times_pairs():
    """300 runs x 13 measures x 200 trials: the pairwise version needed 200 x 13 x 44,850 pair signs
    (several GB); the chunked one needs a few copies of trials x measures x runs means."""
    values = _values(5, measures=13, topics=40, runs=300)
    splits = sp.condition_splits("half", 40, 200, 10, np.random.default_rng(6))
    sp.split_taus(values[:, :, :10], splits)  # compile or load the kernel outside the measurement
    tracemalloc.start()
    try:
        taus = sp.split_taus(values, splits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert taus.shape == (200, 13) and np.isfinite(taus).all()
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    # and with a small chunk the peak shrinks with it
    tracemalloc.start()
    try:
        sp.split_taus(values, splits, chunk=10)
        _, small_peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert small_peak < peak / 4
