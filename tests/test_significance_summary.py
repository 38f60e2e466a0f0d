"""analysis.significance.write_significance (rule significance_pvalues: a data set's p-values from its own stream,
its identical runs) and summarise_significance (rule significance_summary: discriminative power and the
contradictions over a task's data sets, one data set's p-values in memory at a time)."""

import numpy as np

from ordeval.analysis.identical_runs import collapse_identical_runs, read_identical_sets
from ordeval.analysis.significance import (
    contradiction_counts,
    contradiction_table,
    discriminative_power,
    discriminative_power_table,
    pairwise_significance,
    read_pvalue_table,
    summarise_significance,
    write_significance,
)
from ordeval.io.table import Table
from ordeval.stats.seeding import stream
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

RUNS = ["R1", "R2", "R3", "R1-copy"]


def _stack(seed, noise=0.2) -> ScoreStack:
    rng = np.random.default_rng(seed)
    base = rng.random((20, 3)) * noise + np.array([0.0, 0.4, 0.8])
    scores = np.hstack([base, base[:, :1]])  # R1-copy: R1's scores
    values = np.stack([scores, -scores])  # REV ranks the runs the other way round (lower is better under both)
    return ScoreStack(["M", "REV"], [f"t{i}" for i in range(20)], RUNS, values)


def _significance(tmp_path, name, seed=0, noise=0.2):
    stack = _stack(seed, noise)
    paths = write_scores(stack, score_files(stack, tmp_path / name))
    outputs = {
        key: str(tmp_path / name / file)
        for key, file in (("pvalues", "p.tsv"), ("arrays", "p.npz"), ("identical_runs", "i.tsv"))
    }
    significance, sets = write_significance(paths["stack"], outputs, dataset=name, trials=150, seed=3)
    return stack, significance, sets, outputs


def test_the_p_values_come_from_the_data_sets_stream_and_are_written_with_the_identical_runs(tmp_path):
    stack, significance, sets, outputs = _significance(tmp_path, "D", noise=3.0)  # p-values strictly inside (0, 1)
    expected = pairwise_significance(stack, 150, stream(3, "D", "significance"))
    assert np.array_equal(significance.p_values, expected.p_values)
    directions = dict(zip(stack.measures, stack.lower_is_better, strict=True))
    assert np.array_equal(
        read_pvalue_table(outputs["pvalues"], directions, 150, outputs["arrays"]).p_values, expected.p_values
    )
    assert sets == [["R1", "R1-copy"], ["R2"], ["R3"]]
    assert read_identical_sets(outputs["identical_runs"]) == {
        "R1": "R1{,-copy}",
        "R2": "R2",
        "R3": "R3",
        "R1-copy": "R1{,-copy}",
    }
    _, other, _, _ = _significance(tmp_path, "E", noise=3.0)  # the same scores, another data set's stream
    assert not np.array_equal(other.p_values, significance.p_values)


def test_the_summary_is_the_tables_of_its_parts(tmp_path):
    parts = {name: _significance(tmp_path, name, seed) for seed, name in enumerate(["D", "E"])}
    identical = {name: read_identical_sets(outputs["identical_runs"]) for name, (*_, outputs) in parts.items()}
    summary = summarise_significance(
        ((name, significance) for name, (_, significance, _, _) in parts.items()), identical, 0.05, ["M", "REV"]
    )
    powers = {name: discriminative_power(significance, 0.05) for name, (_, significance, _, _) in parts.items()}
    assert summary.power.records() == discriminative_power_table(powers).records()
    detail = Table.concat([contradiction_table(parts[name][1], 0.05, name) for name in parts])
    assert summary.contradictions.records() == detail.records() and len(detail) > 0  # REV reverses M
    assert summary.counts.records() == contradiction_counts(detail, ["D", "E"], ["M", "REV"]).records()
    assert summary.collapsed.records() == collapse_identical_runs(detail, identical).records()
    assert "R1{,-copy}" in {*summary.collapsed["run_x"], *summary.collapsed["run_y"]}


def test_no_contradiction_leaves_empty_tables_with_their_columns():
    from ordeval.analysis.significance import PairwiseSignificance

    significance = PairwiseSignificance(["M"], ["A", "B"], np.zeros((1, 2)), np.ones((1, 1)), [True], 10)
    summary = summarise_significance([("D", significance)], {"D": {"A": "A", "B": "B"}}, 0.05, ["M"])
    assert summary.contradictions.columns == ["dataset", "measure_a", "measure_b", "run_x", "run_y"]
    assert summary.collapsed.columns == [*summary.contradictions.columns, "run_pairs"] and len(summary.collapsed) == 0
