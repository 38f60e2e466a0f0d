"""The confidence intervals of Kendall's tau (docs/methods.md 4.1): the three methods on hand-computed
examples, and the papers' bounds (Sakai, RNOD variants and DNKT, Table 3) from the 12 official Sem16T4E runs."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from conftest import published_file, shared_file

from ordeval.api import agreement, score_stack
from ordeval.stats.intervals import (
    CI_METHODS,
    long_cliff_interval,
    long_cliff_variance,
    tau_confidence_interval,
    tau_interval,
    tie_group_ranks,
)
from ordeval.stats.kendall import kendall_tau

Z = 1.959963984540054


def test_long_cliff_variance_of_a_hand_computed_example():
    """x = 1..5, y = 1 3 2 5 4: pairs (2,3) and (4,5) discordant, tau = (8 - 2)/10 = 0.6.
    t_i. = 1, 0.5, 0.5, 0.5, 0.5 -> s2(t_i.) = (0.4^2 + 4 * 0.1^2) / 4 = 0.05;
    t_ij: 16 ordered pairs +1 (deviation 0.4), 4 pairs -1 (deviation -1.6) -> s2(t_ij) = 12.8 / 19;
    var = (4 * 3 * 0.05 + 2 * 12.8 / 19) / 20 = 37/380."""
    tau, variance = long_cliff_variance(np.array([[1.0, 2, 3, 4, 5], [1.0, 3, 2, 5, 4]]))
    assert tau[0, 1] == pytest.approx(0.6) and tau[1, 0] == pytest.approx(0.6)
    assert variance[0, 1] == pytest.approx(37 / 380)
    interval = long_cliff_interval(np.array([[1.0, 2, 3, 4, 5], [1.0, 3, 2, 5, 4]]))
    assert interval.low[0, 1] == pytest.approx(0.6 - Z * np.sqrt(37 / 380))  # -0.01159
    assert interval.high[0, 1] == 1.0  # 1.21159, clipped


def test_long_cliff_tau_is_the_pipelines_tau_with_the_same_tie_rule():
    rng = np.random.default_rng(3)
    values = rng.integers(0, 6, size=(4, 15)).astype(float)  # many ties
    values[1, 1] = values[1, 0] * (1 + 1e-14)  # a last-bit difference is a tie, as in ordeval.stats.kendall
    for variant in ("a", "b"):
        tau, variance = long_cliff_variance(values, variant)
        np.testing.assert_allclose(tau, kendall_tau(values[:, None, :], values[None, :, :], variant=variant))
        assert (variance >= 0).all()
    ranks = tie_group_ranks(np.array([[0.3, 0.1, 0.3 + 1e-16, 0.2]]))
    assert ranks.tolist() == [[2, 0, 2, 1]]


def test_long_cliff_interval_is_degenerate_at_plus_minus_one_and_nan_for_missing_values():
    values = np.array([np.arange(6.0), np.arange(6.0) ** 2, -np.arange(6.0), [0, 1, 2, np.nan, 4, 5]])
    interval = long_cliff_interval(values)
    assert (interval.low[0, 1], interval.high[0, 1]) == (1.0, 1.0)
    assert (interval.low[0, 2], interval.high[0, 2]) == (-1.0, -1.0)
    assert np.isnan(interval.low[0, 3]) and np.isnan(interval.high[3, 1])


def test_fisher_z_on_the_printed_tau_of_a_hand_computed_example():
    """n = 12, tau = 56/66 = 0.84848: half-width z sqrt(0.437/8) = 0.458083. Exact tau:
    tanh(1.250718 -/+ 0.458083) = [0.659899, 0.936500], printed [0.660, 0.937]; printed tau 0.848:
    tanh(1.248989 -/+ 0.458083) = [0.658922, 0.936287], the published [0.659, 0.936]."""
    exact = tau_confidence_interval(56 / 66, 12)
    assert (exact.low, exact.high) == (pytest.approx(0.659899, abs=1e-6), pytest.approx(0.936500, abs=1e-6))
    printed = tau_confidence_interval(56 / 66, 12, decimals=3)
    assert (printed.low, printed.high) == (pytest.approx(0.658922, abs=1e-6), pytest.approx(0.936287, abs=1e-6))
    assert tau_confidence_interval(1.0, 12, decimals=3) == tau_confidence_interval(1.0, 12)  # [1, 1]


def test_tau_interval_dispatches_on_the_method_name():
    values = np.array([[1.0, 2, 3, 4, 5, 6], [1.0, 3, 2, 5, 4, 6]])
    taus = kendall_tau(values[:, None, :], values[None, :, :], variant="a")
    for method in CI_METHODS:
        interval = tau_interval(method, taus, values, variant="a")
        assert interval.low[0, 1] < taus[0, 1] < interval.high[0, 1], method
    lows = {method: tau_interval(method, taus, values, variant="a").low[0, 1] for method in CI_METHODS}
    assert len(set(lows.values())) == 3
    with pytest.raises(ValueError, match="unknown tau interval method 'wilson'"):
        tau_interval("wilson", taus, values)


# --------------------------------------------------------------------------- the papers' bounds

TABLE = "Sakai, RNOD variants and DNKT, Table 3"
MEASURES = ["NMD", "RNOD", "RNADW", "RNOD2", "RNADW2", "NVD", "RNSS", "JSD", "DNKT"]


@pytest.fixture(scope="module")
def sem16t4e():
    """The 9 measures' mean scores of the 12 official Sem16T4E runs (every team's primary run and the two
    organiser baselines), and the published tau_a, tau_ci_low, tau_ci_high of every pair (as printed)."""
    gold = shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskE_test_gold.txt")
    published = published_file()
    runs = {  # read as they are: LYS's trailing tabs are ignored, as by the official scorer
        path.name.removesuffix("-E.output").lstrip("_").replace("+", "_")[:60]: path
        for path in sorted((gold.parents[1] / "runs" / "E").glob("*-E.output"))
    }
    assert len(runs) == 12
    stack = score_stack(gold, runs, measures=MEASURES, gold_format="semeval_dist", run_format="semeval_dist")
    expected = {}
    with open(published, newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["source"] == TABLE:
                expected.setdefault(frozenset((row["a"], row["b"])), {})[row["statistic"]] = row["value"]
    assert len(expected) == 36
    return stack, expected


def _printed(value: float) -> str:
    return f"{value:.3f}"


def _compare(stack, expected, method):
    """(taus equal as printed, bounds equal as printed, the bounds that differ), by the API's ``agreement``."""
    table = agreement(stack, kendall="a", ci_method=method)
    taus, bounds, differ = 0, 0, []
    for a, b, tau, low, high in table[["measure_a", "measure_b", "tau", "ci_low", "ci_high"]].itertuples(index=False):
        published = {key: _printed(float(value)) for key, value in expected[frozenset((a, b))].items()}
        taus += _printed(tau) == published["tau_a"]
        for key, mine in (("tau_ci_low", low), ("tau_ci_high", high)):
            same = _printed(mine) == published[key]
            bounds += same
            differ += [] if same else [f"{a}-{b} {key} {mine:.5f} (published {published[key]})"]
    return taus, bounds, differ


def test_the_printed_tau_interval_reproduces_all_72_published_bounds(sem16t4e):
    taus, bounds, differ = _compare(*sem16t4e, "fisher_z_rounded")
    assert taus == 36
    assert bounds == 72, differ


def test_the_exact_tau_and_long_cliff_intervals_do_not_reproduce_the_published_bounds(sem16t4e):
    """Why the papers' presets use fisher_z_rounded: docs/methods.md 4.1 states these counts."""
    assert _compare(*sem16t4e, "fisher_z")[:2] == (36, 47)
    assert _compare(*sem16t4e, "long_cliff")[:2] == (36, 4)
