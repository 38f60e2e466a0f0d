"""Statistics: Kendall's tau-a / tau-b (ordeval.stats.kendall), its CI, VE2, Pearson r (ordeval.stats.intervals)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from ordeval.stats.intervals import pearson_with_ci, residual_variance, tau_confidence_interval
from ordeval.stats.kendall import kendall_tau, kendall_tau_a, kendall_tau_b

# --------------------------------------------------------------------------- Kendall's tau


def test_tau_of_identical_rankings_is_one_and_of_reversed_rankings_minus_one():
    x = np.array([0.3, 0.1, 0.7, 0.5, 0.2])
    for variant in ("a", "b"):
        assert kendall_tau(x, x, variant) == pytest.approx(1.0)
        assert kendall_tau(x, 2 * x + 1, variant) == pytest.approx(1.0)
        assert kendall_tau(x, -x, variant) == pytest.approx(-1.0)


@pytest.mark.parametrize("levels", [None, 3])  # continuous values, or only 3 distinct values (ties)
@pytest.mark.parametrize("seed", range(5))
def test_tau_b_matches_scipy_with_and_without_ties(levels, seed):
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
    # tau-a = tau-b x sqrt((n0 - T_x)(n0 - T_y)) / n0 (scipy gives tau-b only)
    n0 = len(x) * (len(x) - 1) / 2
    tied_x = sum(np.count_nonzero(x == value) * (np.count_nonzero(x == value) - 1) / 2 for value in set(x))
    tied_y = sum(np.count_nonzero(y == value) * (np.count_nonzero(y == value) - 1) / 2 for value in set(y))
    expected_a = 0.0 if np.isnan(expected) else expected * np.sqrt((n0 - tied_x) * (n0 - tied_y)) / n0
    assert kendall_tau_a(x, y) == pytest.approx(expected_a, abs=1e-12)


def test_tau_a_of_the_papers_ntcir_tables_is_a_multiple_of_one_over_231():
    """22 runs, the identical -C/-E copies tied in one ranking and swapped pairs elsewhere."""
    x = np.arange(22.0)
    y = x.copy()
    y[21] = y[20]
    y[[3, 4]] = y[[4, 3]]
    tau_a = kendall_tau_a(x, y)
    assert tau_a * 231 == pytest.approx(round(tau_a * 231))
    assert tau_a == pytest.approx((230 - 1 - 1) / 231)  # 229 concordant, 1 discordant, 1 tied


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


def test_tau_of_an_all_tied_ranking_is_nan_for_b_and_zero_for_a():
    assert np.isnan(kendall_tau_b(np.ones(5), np.arange(5.0)))
    assert kendall_tau_a(np.ones(5), np.arange(5.0)) == 0.0
    with pytest.raises(ValueError, match="variant"):
        kendall_tau(np.ones(5), np.ones(5), "c")


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


# --------------------------------------------------------------------------- VE2 and Pearson


def test_residual_variance_on_hand_computed_matrices():
    # Row means 1.5, 4, 2; column means 2, 3; grand mean 2.5; residuals 0, 0, -0.5, 0.5, 0.5, -0.5;
    # VE2 = 1.0 / ((3 - 1)(2 - 1)) = 0.5.
    assert residual_variance(np.array([[1.0, 2.0], [3.0, 5.0], [2.0, 2.0]])) == pytest.approx(0.5)
    # Residuals +-0.25: VE2 = 0.25 / 1.
    assert residual_variance(np.array([[1.0, 2.0], [3.0, 5.0]])) == pytest.approx(0.25)
    # Additive matrix (row effect + column effect): no residual.
    additive = np.add.outer([0.0, 1.0, 4.0], [2.0, 3.0, 7.0, 1.0])
    assert residual_variance(additive) == pytest.approx(0.0, abs=1e-15)


def test_pearson_with_ci_matches_scipy_and_brackets_r():
    rng = np.random.default_rng(0)
    x = rng.random(30)
    y = x + rng.random(30)
    result = pearson_with_ci(x, y)
    assert result.r == pytest.approx(scipy_stats.pearsonr(x, y).statistic)
    assert result.low < result.r < result.high and result.n == 30
    assert np.isnan(pearson_with_ci(np.ones(5), np.arange(5.0)).r)
