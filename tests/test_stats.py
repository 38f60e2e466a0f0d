"""Statistics core: Kendall's tau-b, its CI, the randomised Tukey HSD test and VE2 (SPEC 4.1-4.3)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from ordeval.stats import kendall_tau_b, randomised_tukey_hsd, residual_variance, tau_confidence_interval

# --------------------------------------------------------------------------- Kendall's tau


def test_tau_of_identical_rankings_is_one_and_of_reversed_rankings_minus_one():
    x = np.array([0.3, 0.1, 0.7, 0.5, 0.2])
    assert kendall_tau_b(x, x) == pytest.approx(1.0)
    assert kendall_tau_b(x, 2 * x + 1) == pytest.approx(1.0)
    assert kendall_tau_b(x, -x) == pytest.approx(-1.0)


@pytest.mark.parametrize("levels", [None, 3])  # continuous values, or only 3 distinct values (ties)
@pytest.mark.parametrize("seed", range(5))
def test_tau_matches_scipy_with_and_without_ties(levels, seed):
    rng = np.random.default_rng(seed)
    x, y = rng.random((2, 15))
    if levels:
        x, y = np.floor(x * levels), np.floor(y * levels)
    assert kendall_tau_b(x, y) == pytest.approx(scipy_stats.kendalltau(x, y).statistic, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=3, max_size=25))
def test_tau_matches_scipy_on_arbitrary_tied_data(pairs):
    x, y = np.array(pairs, dtype=float).T
    expected = scipy_stats.kendalltau(x, y).statistic
    if np.isnan(expected):
        assert np.isnan(kendall_tau_b(x, y))
    else:
        assert kendall_tau_b(x, y) == pytest.approx(expected, abs=1e-12)


def test_tau_is_batched_over_leading_axes():
    rng = np.random.default_rng(3)
    x, y = rng.random((2, 4, 3, 9))
    taus = kendall_tau_b(x, y)
    assert taus.shape == (4, 3)
    for index in np.ndindex(4, 3):
        assert taus[index] == pytest.approx(scipy_stats.kendalltau(x[index], y[index]).statistic)


def test_tau_treats_means_equal_up_to_rounding_as_tied():
    x = np.array([0.1, 0.3, 0.3 + 1e-16, 0.2])
    assert kendall_tau_b(x, np.array([1.0, 3.0, 3.0, 2.0])) == pytest.approx(1.0)


def test_tau_of_an_all_tied_ranking_is_nan():
    assert np.isnan(kendall_tau_b(np.ones(5), np.arange(5.0)))


# --------------------------------------------------------------------------- confidence interval


@pytest.mark.parametrize(
    ("tau", "runs", "low", "high"),
    [(0.848, 12, 0.659, 0.936), (0.670, 14, 0.381, 0.840)],
)
def test_tau_confidence_interval_reproduces_the_papers(tau, runs, low, high):
    interval = tau_confidence_interval(tau, runs)
    assert (round(float(interval.low), 3), round(float(interval.high), 3)) == (low, high)


def test_tau_of_one_has_a_degenerate_interval():
    interval = tau_confidence_interval(1.0, 10)
    assert (interval.low, interval.high) == (1.0, 1.0)
    interval = tau_confidence_interval(np.array([1.0, -1.0, 0.5]), 10)
    assert interval.low[:2].tolist() == [1.0, -1.0] and interval.high[:2].tolist() == [1.0, -1.0]
    assert interval.low[2] < 0.5 < interval.high[2]


def test_tau_interval_needs_more_than_four_systems():
    with pytest.raises(ValueError, match="more than 4"):
        tau_confidence_interval(0.5, 4)


# --------------------------------------------------------------------------- randomised Tukey HSD


def _scores(seed=0, topics=30, systems=5):
    rng = np.random.default_rng(seed)
    return rng.random((topics, systems))


def test_hsd_p_values_are_probabilities_and_a_system_is_never_different_from_itself():
    result = randomised_tukey_hsd(_scores(), 300, np.random.default_rng(1))
    assert result.p_values.shape == (5, 5)
    assert ((result.p_values >= 0) & (result.p_values <= 1)).all()
    np.testing.assert_array_equal(np.diag(result.p_values), 1.0)
    np.testing.assert_array_equal(result.p_values, result.p_values.T)
    assert not np.diag(result.significant(0.05)).any()


def test_hsd_finds_clearly_separated_systems_and_never_identical_ones():
    scores = _scores(2, topics=40, systems=4)
    scores[:, 0] += 1.0  # system 0 far better than the others
    scores[:, 3] = scores[:, 2]  # systems 2 and 3 identical
    result = randomised_tukey_hsd(scores, 500, np.random.default_rng(3))
    assert (result.p_values[0, 1:] < 0.01).all()
    assert result.p_values[2, 3] == 1.0


def test_hsd_same_seed_same_p_values_and_independent_of_threads():
    stack = np.stack([_scores(4), _scores(5)])
    one = randomised_tukey_hsd(stack, 400, np.random.default_rng(9), threads=1)
    two = randomised_tukey_hsd(stack, 400, np.random.default_rng(9), threads=2)
    again = randomised_tukey_hsd(stack, 400, np.random.default_rng(9), threads=2)
    np.testing.assert_array_equal(one.p_values, two.p_values)
    np.testing.assert_array_equal(one.null_ranges, two.null_ranges)
    np.testing.assert_array_equal(two.p_values, again.p_values)
    other = randomised_tukey_hsd(stack, 400, np.random.default_rng(10), threads=2)
    assert not np.array_equal(one.null_ranges, other.null_ranges)


def test_hsd_shares_permutations_across_measures():
    """A stack of one matrix and that matrix doubled: the permuted ranges differ by exactly a factor 2,
    so the same permutations served both measures, and their p-values agree."""
    scores = _scores(6)
    result = randomised_tukey_hsd(np.stack([scores, 2 * scores]), 300, np.random.default_rng(0))
    np.testing.assert_allclose(result.null_ranges[1], 2 * result.null_ranges[0])
    np.testing.assert_array_equal(result.p_values[0], result.p_values[1])


def test_hsd_rejects_missing_scores():
    scores = _scores()
    scores[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        randomised_tukey_hsd(scores, 10, np.random.default_rng(0))


# --------------------------------------------------------------------------- VE2


def test_residual_variance_on_hand_computed_matrices():
    # Row means 1.5, 4, 2; column means 2, 3; grand mean 2.5; residuals 0, 0, -0.5, 0.5, 0.5, -0.5;
    # VE2 = 1.0 / ((3 - 1)(2 - 1)) = 0.5.
    assert residual_variance(np.array([[1.0, 2.0], [3.0, 5.0], [2.0, 2.0]])) == pytest.approx(0.5)
    # Residuals +-0.25: VE2 = 0.25 / 1.
    assert residual_variance(np.array([[1.0, 2.0], [3.0, 5.0]])) == pytest.approx(0.25)
    # Additive matrix (row effect + column effect): no residual.
    additive = np.add.outer([0.0, 1.0, 4.0], [2.0, 3.0, 7.0, 1.0])
    assert residual_variance(additive) == pytest.approx(0.0, abs=1e-15)
