"""Kendall's tau, the one implementation (ordeval.stats.kendall, batched O(n log n)), against scipy and the direct
definitions; the agreement between measures and the consistency over topic splits use it alike."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from ordeval.stats.intervals import RANK_TIE_TOLERANCE
from ordeval.stats.kendall import SHORT, kendall_tau, kendall_tau_a, kendall_tau_b
from ordeval.stats.kendall_kernel import tau_rows


def direct_tau(x, y, variant):
    """tau-a / tau-b by the definition, one pair at a time (exact ties)."""
    n = len(x)
    concordant = discordant = tied_x = tied_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            sx, sy = np.sign(x[i] - x[j]), np.sign(y[i] - y[j])
            tied_x += sx == 0
            tied_y += sy == 0
            concordant += sx * sy > 0
            discordant += sx * sy < 0
    pairs = n * (n - 1) / 2
    if variant == "a":
        return (concordant - discordant) / pairs
    denominator = np.sqrt((pairs - tied_x) * (pairs - tied_y))
    return (concordant - discordant) / denominator if denominator else np.nan


@pytest.mark.parametrize("levels", [None, 2, 3, 7])  # continuous values or few distinct values (ties)
@pytest.mark.parametrize("n", [2, 3, 10, 40])
def test_tau_b_matches_scipy_and_tau_a_the_definition(levels, n):
    rng = np.random.default_rng(n * 10 + (levels or 0))
    x, y = rng.random((2, 30, n))
    if levels:
        x, y = np.floor(x * levels), np.floor(y * levels)
    tau_b, tau_a = kendall_tau_b(x, y), kendall_tau_a(x, y)
    assert tau_b.shape == tau_a.shape == (30,)
    for row in range(30):
        expected = scipy_stats.kendalltau(x[row], y[row]).statistic
        np.testing.assert_allclose(tau_b[row], expected, atol=1e-12, equal_nan=True)
        np.testing.assert_allclose(tau_a[row], direct_tau(x[row], y[row], "a"), atol=1e-12)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=0, max_size=30),
    st.sampled_from(["a", "b"]),
)
def test_tau_matches_the_definition_and_numpy_on_arbitrary_tied_data(pairs, variant):
    x, y = np.array(pairs, dtype=float).reshape(-1, 2).T
    result = kendall_tau(x, y, variant)
    if len(pairs) < 2:
        assert np.isnan(result)
        return
    np.testing.assert_allclose(result, direct_tau(x, y, variant), atol=1e-12, equal_nan=True)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(-3, 3)), min_size=2, max_size=25),
    st.sampled_from([1e-3, 0.3, 1.0, 1e6]),
    st.sampled_from(["a", "b"]),
)
def test_values_equal_up_to_last_bits_are_tied(triples, scale, variant):
    """Means of identical runs differ in the last bits: x = level * scale, nudged by a few ulps."""
    levels_x, levels_y, nudges = np.array(triples, dtype=float).T
    x = levels_x * scale
    x = x + nudges * np.spacing(np.maximum(np.abs(x), 1.0))
    y = (levels_y + 0.5) * scale
    exact = kendall_tau(levels_x, levels_y, variant)
    np.testing.assert_allclose(kendall_tau(x, y, variant), exact, atol=1e-12, equal_nan=True)


def test_tau_a_keeps_ties_in_the_denominator_like_the_papers_tables():
    """19 runs, two identical baseline copies tied in one ranking: tau-a is a multiple of 1/171."""
    x = np.arange(19.0)
    y = x.copy()
    y[18] = y[17]  # the -C/-E copies
    tau_a = kendall_tau_a(x, y)
    assert tau_a == pytest.approx(170 / 171)
    assert kendall_tau_b(x, y) == pytest.approx(170 / np.sqrt(171 * 170))


def test_batches_broadcast_and_do_not_depend_on_threads():
    rng = np.random.default_rng(5)
    x = rng.random((7, 4, 25))
    y = rng.random((4, 25))
    one, two = kendall_tau(x, y, threads=1), kendall_tau(x, y, threads=2)
    assert one.shape == (7, 4)
    np.testing.assert_array_equal(one, two)
    expected = [[direct_tau(x[i, j], y[j], "b") for j in range(4)] for i in range(7)]
    np.testing.assert_allclose(one, expected, atol=1e-12)
    assert np.ndim(kendall_tau(x[0, 0], y[0])) == 0


def test_nan_for_all_ties_nan_inputs_and_too_short_rankings():
    assert np.isnan(kendall_tau_b(np.ones(5), np.arange(5.0)))
    assert kendall_tau_a(np.ones(5), np.arange(5.0)) == 0.0
    assert np.isnan(kendall_tau_b(np.array([1.0, np.nan, 2.0]), np.arange(3.0)))
    assert np.isnan(kendall_tau_b(np.array([1.0]), np.array([2.0])))
    assert kendall_tau(np.empty((3, 0)), np.empty((3, 0))).shape == (3,)
    with pytest.raises(ValueError, match="variant"):
        kendall_tau(np.arange(3.0), np.arange(3.0), "c")


def test_long_rankings_match_scipy():
    rng = np.random.default_rng(11)
    x, y = rng.random((2, 3, 2000))
    y = 0.5 * x + y  # correlated
    x[0, :100] = x[0, 0]  # a big tie group
    for row in range(3):
        expected = scipy_stats.kendalltau(x[row], y[row]).statistic
        assert kendall_tau_b(x[row], y[row]) == pytest.approx(expected, abs=1e-12)


def test_chain_rule_ties_a_chain_of_near_equal_values_as_one_group():
    """a, a + 0.6 eps, a + 1.2 eps (eps the tie threshold): one tie group (a pairwise rule would tie only two
    of the three pairs): C = 3, D = 0 of 6 pairs."""
    eps = 1e-6
    x = np.array([0.0, 0.6 * eps, 1.2 * eps, 1.0])
    y = np.array([2.0, 1.0, 0.0, 3.0])
    assert kendall_tau_a(x, y, tolerance=eps) == pytest.approx(3 / 6)


@pytest.mark.parametrize("variant", ["a", "b"])
def test_agreement_and_consistency_give_the_same_tau_on_rankings_with_ties(variant):
    """The taus of the agreement table (two measures' run rankings) and of a consistency split (one
    measure's rankings on two topic sets) come from the same implementation and tie rule: built so that
    both compare the same two rankings, with tied runs (identical baseline copies, last-bit noise)."""
    from ordeval.analysis.agreement import ranking_agreement
    from ordeval.stats.splits import Splits, split_taus

    first = np.array([0.3, 0.1, 0.1, 0.5, 0.2, 0.2, 0.4, 0.6])
    second = np.array([0.2, 0.1, 0.1 + 1e-17, 0.6, 0.3, 0.3, 0.4, 0.5])
    agreement = ranking_agreement(np.stack([first, second]), ["M1", "M2"], [True, True], 0.95, variant)
    # one measure, two topics: topic 0 holds `first`, topic 1 `second`; the split puts one topic on each side
    values = np.stack([first, second])[None, :, :]  # measures x topics x runs
    splits = Splits(np.array([[True, False]]), np.array([[False, True]]))
    taus = split_taus(values, splits, variant=variant)
    assert taus[0, 0] == pytest.approx(agreement.taus[0, 1], abs=1e-12)
    assert taus[0, 0] == pytest.approx(direct_tau(np.round(first, 12), np.round(second, 12), variant), abs=1e-12)


@pytest.mark.parametrize("variant", ["a", "b"])
@pytest.mark.parametrize("n", [2, 3, 7, 12, 31, SHORT])
def test_short_rankings_in_numpy_give_the_kernels_bits(variant, n):
    """Rankings of at most SHORT items are counted in numpy, longer ones by the compiled kernel: on ties, near
    ties (last bits), NaN and all-tied rows both give the same bits."""
    rng = np.random.default_rng(n)
    x = np.where(rng.random((300, n)) < 0.3, rng.integers(0, 4, (300, n)), rng.random((300, n)))
    y = np.where(rng.random((300, n)) < 0.3, rng.integers(0, 3, (300, n)), rng.random((300, n)))
    x[::7] = x[::7] * (1 + 1e-14 * rng.random((len(x[::7]), n)))
    x[5, 0], y[6] = np.nan, 2.0
    expected = np.empty(300)
    tau_rows(np.ascontiguousarray(x), np.ascontiguousarray(y), RANK_TIE_TOLERANCE, variant == "a", 0, 300, expected)
    np.testing.assert_array_equal(kendall_tau(x, y, variant), expected)
    assert np.isnan(expected[5]) and (variant == "a" or np.isnan(expected[6]))


def test_long_rankings_use_the_kernel_on_threads():
    rng = np.random.default_rng(1)
    x, y = rng.random((40, SHORT + 1)), rng.random((40, SHORT + 1))
    one = kendall_tau(x, y, "b", threads=1)
    np.testing.assert_array_equal(one, kendall_tau(x, y, "b", threads=3))
    np.testing.assert_allclose(
        one, [scipy_stats.kendalltau(a, b).statistic for a, b in zip(x, y, strict=True)], rtol=1e-12
    )
