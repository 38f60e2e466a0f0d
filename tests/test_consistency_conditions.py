"""analysis.consistency.condition_consistency: one consistency condition of one data set, its splits and tests
drawn from the data set's own streams (what rule consistency_taus computes per condition); the marks and split
sizes of the ACL 2021 paper's Table 3."""

import numpy as np
import pytest

from ordeval.analysis.consistency import (
    beaten_worst,
    compare_measures,
    condition_consistency,
    split_heading,
)
from ordeval.io.table import Table
from ordeval.stats.seeding import stream
from ordeval.stats.splits import condition_splits, split_taus

MEASURES = ["A", "B", "C"]
SETTINGS = {"trials": 30, "subset_size": 4, "variant": "b", "hsd_trials": 80, "alpha": 0.05, "seed": 5}


def _values(seed=0, topics=16, runs=7):
    rng = np.random.default_rng(seed)
    quality = rng.random(runs)
    return quality[None, None, :] + rng.random((len(MEASURES), topics, runs)) * np.array([0.2, 0.6, 1.5])[:, None, None]


@pytest.mark.parametrize("condition", ["half", "10v10"])
def test_the_procedure_is_the_documented_one_with_the_data_sets_streams(condition):
    values = _values()
    result = condition_consistency(values, MEASURES, condition, dataset="D", **SETTINGS)
    splits = condition_splits(condition, 16, 30, 4, stream(5, "D", f"consistency-{condition}"))
    taus = split_taus(values, splits, variant="b")
    expected = compare_measures(taus, MEASURES, 80, 0.05, stream(5, "D", f"consistency-{condition}-hsd"))
    assert np.array_equal(result.splits.first, splits.first) and np.array_equal(result.taus, taus)
    assert result.comparison.measures == expected.measures
    assert np.array_equal(result.comparison.p_values, expected.p_values) and result.comparison.ve2 == expected.ve2
    assert result.taus_table().columns == MEASURES and len(result.taus_table()) == 30
    sizes = (8, 8) if condition == "half" else (4, 4)
    assert (result.splits.first.sum(axis=1) == sizes[0]).all() and (result.splits.second.sum(axis=1) == sizes[1]).all()


def test_each_condition_and_data_set_has_its_own_streams_and_the_same_seed_the_same_numbers():
    values = _values()
    first = condition_consistency(values, MEASURES, "half", dataset="D", **SETTINGS)
    again = condition_consistency(values, MEASURES, "half", dataset="D", threads=2, **SETTINGS)
    other = condition_consistency(values, MEASURES, "half", dataset="E", **SETTINGS)
    assert np.array_equal(first.taus, again.taus) and np.array_equal(
        first.comparison.p_values, again.comparison.p_values
    )
    assert not np.array_equal(first.splits.first, other.splits.first)


def test_the_most_consistent_measure_comes_first():
    result = condition_consistency(_values(), MEASURES, "half", dataset="D", **SETTINGS)
    assert result.comparison.measures[0] == "A"  # the least noisy scores rank the runs alike on both halves
    assert result.comparison.mean_tau[0] > result.comparison.mean_tau[-1]


def test_beaten_worst_counts_the_worst_measures_beaten_in_a_row():
    summary = Table({"measure": ["A", "B", "C", "D"], "outperforms": ["C D", "D", "", ""]})
    assert beaten_worst(summary) == [2, 1, 0, 0]
    assert beaten_worst(Table({"measure": ["A", "B", "C"], "outperforms": ["B", "", ""]})) == [0, 0, 0]  # not C


def test_split_heading_gives_the_sizes_of_the_two_topic_sets():
    assert split_heading("half", 101, 10) == "50 vs. 51" and split_heading("10v10", 101, 10) == "10 vs. 10"
