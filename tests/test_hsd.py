"""Randomised Tukey HSD (ordeval.stats.hsd): semantics, determinism, unbiased draws, agreement with a textbook
implementation within Monte Carlo error."""

import numba
import numpy as np
import pytest
from scipy import stats as scipy_stats

from ordeval.stats import hsd
from ordeval.stats.hsd import randomised_tukey_hsd


def _scores(seed=0, topics=30, systems=5):
    return np.random.default_rng(seed).random((topics, systems))


def textbook_hsd(stack, trials, rng):
    """p-values (measures x systems x systems) by the definition: per trial permute every topic's row
    with rng.permutation (the same permutation for all measures), range of the permuted means;
    p = fraction of trials whose range >= |mean_s - mean_t| (with ordeval's rounding slack)."""
    measures, topics, systems = stack.shape
    rows = np.arange(topics)[:, None]
    ranges = np.empty((trials, measures))
    for trial in range(trials):
        order = np.stack([rng.permutation(systems) for _ in range(topics)])
        means = stack[:, rows, order].mean(axis=1)
        ranges[trial] = means.max(axis=1) - means.min(axis=1)
    means = stack.mean(axis=1)
    differences = np.abs(means[:, :, None] - means[:, None, :])
    slack = 1e-12 * np.maximum(1.0, np.abs(means).max())
    return (ranges.T[:, None, None, :] >= differences[..., None] - slack).mean(axis=-1)


def test_p_values_are_symmetric_probabilities_and_one_on_the_diagonal():
    result = randomised_tukey_hsd(_scores(), 300, np.random.default_rng(1))
    assert result.p_values.shape == (5, 5) and result.null_ranges.shape == (300,)
    assert ((result.p_values >= 0) & (result.p_values <= 1)).all()
    np.testing.assert_array_equal(np.diag(result.p_values), 1.0)
    np.testing.assert_array_equal(result.p_values, result.p_values.T)
    assert not np.diag(result.significant(0.05)).any()
    np.testing.assert_allclose(result.means, _scores().mean(axis=0))


def test_identical_systems_get_p_one_and_separated_systems_small_p():
    scores = _scores(2, topics=40, systems=4)
    scores[:, 0] += 1.0  # system 0 far better than the others
    scores[:, 3] = scores[:, 2]  # systems 2 and 3 identical
    result = randomised_tukey_hsd(scores, 500, np.random.default_rng(3))
    assert (result.p_values[0, 1:] < 0.01).all()
    assert result.p_values[2, 3] == 1.0
    everything_equal = randomised_tukey_hsd(np.tile(_scores(4)[:, :1], (1, 6)), 200, np.random.default_rng(0))
    np.testing.assert_array_equal(everything_equal.p_values, 1.0)


def test_deterministic_for_a_seed_and_independent_of_threads_and_blocking():
    stack = np.stack([_scores(4, topics=37, systems=9), _scores(5, topics=37, systems=9)])
    one = randomised_tukey_hsd(stack, 401, np.random.default_rng(9), threads=1)
    two = randomised_tukey_hsd(stack, 401, np.random.default_rng(9), threads=2)
    again = randomised_tukey_hsd(stack, 401, np.random.default_rng(9), threads=2)
    np.testing.assert_array_equal(one.null_ranges, two.null_ranges)
    np.testing.assert_array_equal(one.p_values, two.p_values)
    np.testing.assert_array_equal(two.p_values, again.p_values)
    other = randomised_tukey_hsd(stack, 401, np.random.default_rng(10), threads=2)
    assert not np.array_equal(one.null_ranges, other.null_ranges)
    # The trial blocks and the padding of the layout (the call above pads 2 measures to 4) change the speed,
    # never the result.
    layout = np.ascontiguousarray(stack.transpose(1, 2, 0))
    seeds = np.random.default_rng(9).integers(0, np.iinfo(np.uint64).max, size=401, dtype=np.uint64, endpoint=True)
    for block in (1, 3, 64):
        ranges = np.empty((401, 2))
        hsd._null_ranges(layout, seeds, *hsd.draw_plan(9), block, 0, -(-401 // block), ranges)
        np.testing.assert_array_equal(ranges.T, one.null_ranges)


def test_permutations_are_shared_across_measures():
    """A stack of one matrix and that matrix doubled: the permuted ranges differ by exactly a factor 2."""
    scores = _scores(6)
    result = randomised_tukey_hsd(np.stack([scores, 2 * scores]), 300, np.random.default_rng(0))
    np.testing.assert_allclose(result.null_ranges[1], 2 * result.null_ranges[0], rtol=1e-14)
    np.testing.assert_array_equal(result.p_values[0], result.p_values[1])


def test_p_values_agree_with_the_textbook_version_within_monte_carlo_error():
    rng = np.random.default_rng(12)
    topics, systems = 25, 6
    stack = rng.random((2, topics, systems)) + np.array([0.0, 0.05, 0.1, 0.15, 0.2, 0.3])
    trials = 2000
    fast = randomised_tukey_hsd(stack, trials, np.random.default_rng(13)).p_values
    slow = textbook_hsd(stack, trials, np.random.default_rng(14))
    average = (fast + slow) / 2
    standard_error = np.sqrt(2 * average * (1 - average) / trials)
    assert (np.abs(fast - slow) <= 5 * standard_error + 1 / trials).all()
    assert ((fast > 0.02) & (fast < 0.98)).mean() > 0.3  # the comparison is not only of zeros and ones


@numba.njit(cache=True)  # cached beside this file: compiled once
def _draw_indices(starts, lengths, products, systems, draws, seed):
    indices = np.zeros(systems, dtype=np.int64)
    out = np.empty((draws, systems), dtype=np.int64)
    state = np.uint64(seed)
    for draw in range(draws):
        state = hsd._swap_indices(state, starts, lengths, products, indices)
        out[draw] = indices
    return out


@pytest.mark.parametrize("systems", [5, 13, 22])
def test_batched_bounded_integers_are_uniform(systems):
    """Every swap index of the Fisher-Yates shuffle is uniform on [0, last] (chi-square per position)."""
    starts, lengths, products = hsd.draw_plan(systems)
    assert lengths.sum() == systems - 1 and (products <= 2**28).all()
    draws = 20000
    indices = _draw_indices(starts, lengths, products, systems, draws, 12345)
    p_values = []
    for last in range(1, systems):
        counts = np.bincount(indices[:, last], minlength=last + 1)
        assert counts.shape == (last + 1,)
        p_values.append(scipy_stats.chisquare(counts).pvalue)
    # Under uniformity the p-values are uniform: none absurdly small (Bonferroni), and no pile-up at 0.
    assert min(p_values) > 1e-4 / len(p_values)
    assert np.mean(np.array(p_values) < 0.05) < 0.35


def test_rejects_missing_scores_and_bad_shapes():
    scores = _scores()
    scores[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        randomised_tukey_hsd(scores, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="expected"):
        randomised_tukey_hsd(np.ones((3, 1)), 10, np.random.default_rng(0))


def test_progress_callback_reports_chunks_and_does_not_change_the_result():
    stack = np.stack([_scores(6, topics=23, systems=7), _scores(7, topics=23, systems=7)])
    plain = randomised_tukey_hsd(stack, 333, np.random.default_rng(5), threads=2)
    calls = []
    chunked = randomised_tukey_hsd(
        stack, 333, np.random.default_rng(5), threads=2, progress=lambda done, total: calls.append((done, total))
    )
    np.testing.assert_array_equal(plain.null_ranges, chunked.null_ranges)
    np.testing.assert_array_equal(plain.p_values, chunked.p_values)
    done = [d for d, _ in calls]
    assert calls[0] == (0, 333) and calls[-1] == (333, 333) and len(calls) > 3
    assert done == sorted(done) and {t for _, t in calls} == {333}
