"""Discriminative power, significance overlap and contradictions (SPEC 4.3-4.5)."""

import re

import numpy as np
import pandas as pd
import pytest
from conftest import run_workflow, tiny_config
from hypothesis import given
from hypothesis import strategies as st

from ordeval import seeding
from ordeval.outputs import write_csv
from ordeval.scoring import ScoreStack
from ordeval.significance import (
    PairwiseSignificance,
    brace_name,
    contradiction_counts,
    contradiction_counts_latex,
    contradiction_table,
    contradictions_latex,
    discriminative_power,
    discriminative_power_latex,
    discriminative_power_table,
    dp_curve,
    grouped_contradictions,
    identical_run_groups,
    overlap_table,
    pairwise_significance,
    pvalue_table,
    read_pvalue_table,
    read_run_groups,
    run_group_table,
    significance_overlap,
    sso_latex,
)

ORIGINS = {"D1": "synthetic", "D2": "synthetic"}


def hand_made(measures, runs, means, p_values) -> PairwiseSignificance:
    return PairwiseSignificance(list(measures), list(runs), np.asarray(means, float), np.asarray(p_values, float))


def assert_balanced_tabular(fragment: str, columns: int) -> None:
    """One booktabs tabular with balanced braces and ``columns`` cells in every row."""
    body = "\n".join(line for line in fragment.splitlines() if not line.startswith("%"))
    assert body.count(r"\begin{tabular}") == body.count(r"\end{tabular}") == 1
    assert r"\begin{table}" not in body
    assert body.index(r"\toprule") < body.index(r"\midrule") < body.index(r"\bottomrule")
    unescaped = re.sub(r"\\[{}]", "", body)
    depth = 0
    for character in unescaped:
        depth += {"{": 1, "}": -1}.get(character, 0)
        assert depth >= 0
    assert depth == 0
    match = re.search(r"\\begin\{tabular\}\{([a-z]+)\}", body)
    assert match and len(match.group(1)) == columns
    for line in body.splitlines():
        if line.endswith(r"\\") and r"\multicolumn" not in line:
            assert len(re.split(r"(?<!\\)&", line)) == columns, line


# --------------------------------------------------------------------------- SSO


def test_sso_counts_a_b_c_on_hand_made_significance_sets():
    overlap = significance_overlap([True, True, False, False, True], [True, False, True, False, True])
    assert (overlap.only_first, overlap.both, overlap.only_second) == (1, 2, 1)
    assert overlap.sso == pytest.approx(50.0)


def test_sso_of_an_empty_union_is_undefined_not_a_crash(tmp_path):
    overlap = significance_overlap([False, False, False], [False, False, False])
    assert (overlap.only_first, overlap.both, overlap.only_second) == (0, 0, 0)
    assert np.isnan(overlap.sso)

    significance = hand_made(["NMD", "RNOD", "JSD"], ["A", "B", "C"], np.zeros((3, 3)), np.ones((3, 3)))
    table = overlap_table(significance, 0.05)
    assert table["sso"].isna().all()
    fragment = sso_latex(table, significance.measures)
    assert "- (0/0/0)" in fragment
    assert_balanced_tabular(fragment, 3)
    write_csv(table, tmp_path / "sso.csv", {"D1": "synthetic"})
    assert (tmp_path / "sso.csv").read_text().splitlines()[1] == "NMD,RNOD,0,0,0,,synthetic"


def test_sso_table_covers_every_pair_of_measures_with_emphasis():
    # pairs: (A,B), (A,C), (A,D), (B,C), (B,D), (C,D)
    p = [
        [0.01, 0.01, 0.01, 0.01, 0.01, 0.01],
        [0.01, 0.01, 0.01, 0.01, 0.01, 0.50],
        [0.50, 0.50, 0.01, 0.50, 0.50, 0.50],
    ]
    significance = hand_made(["NMD", "RNOD", "JSD"], "ABCD", np.zeros((3, 4)), p)
    table = overlap_table(significance, 0.05)
    assert table[["measure_a", "measure_b"]].values.tolist() == [["NMD", "RNOD"], ["NMD", "JSD"], ["RNOD", "JSD"]]
    assert table[["a", "b", "c"]].values.tolist() == [[1, 5, 0], [5, 1, 0], [4, 1, 0]]
    assert table["sso"].tolist() == pytest.approx([500 / 6, 100 / 6, 20.0])
    fragment = sso_latex(table, significance.measures)
    assert r"\underline{16.667} (5/1/0)" in fragment
    assert_balanced_tabular(fragment, 3)
    high = hand_made(["NMD", "RNOD"], "ABC", np.zeros((2, 3)), [[0.01] * 3, [0.01] * 3])
    assert r"\textbf{100.000} (0/3/0)" in sso_latex(overlap_table(high, 0.05), high.measures)


@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=40))
def test_sso_parts_add_up(flags):
    first = np.array([f for f, _ in flags], dtype=bool)
    second = np.array([s for _, s in flags], dtype=bool)
    overlap = significance_overlap(first, second)
    assert overlap.only_first + overlap.both == first.sum()
    assert overlap.both + overlap.only_second == second.sum()
    assert np.isnan(overlap.sso) or 0 <= overlap.sso <= 100


# --------------------------------------------------------------------------- contradictions


def test_contradictions_list_the_exact_run_pairs_in_the_direction_of_measure_a():
    # NMD: A < B < C (A best); RNOD: C < B < A; JSD agrees with NMD. Pair (B, C) not significant under RNOD.
    means = [[0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.1, 0.2, 0.3]]
    p = [[0.01, 0.01, 0.01], [0.01, 0.01, 0.40], [0.01, 0.01, 0.01]]  # pairs (A,B), (A,C), (B,C)
    significance = hand_made(["NMD", "RNOD", "JSD"], "ABC", means, p)
    table = contradiction_table(significance, 0.05, "D1")
    assert list(table.columns) == ["dataset", "measure_a", "measure_b", "run_x", "run_y"]
    assert table.values.tolist() == [
        ["D1", "NMD", "RNOD", "A", "B"],
        ["D1", "NMD", "RNOD", "A", "C"],
        ["D1", "RNOD", "JSD", "B", "A"],
        ["D1", "RNOD", "JSD", "C", "A"],
    ]
    counts = contradiction_counts(table, ["D1", "D2"], significance.measures)
    assert counts["contradictions"].tolist() == [2, 0, 2, 0, 0, 0]
    assert counts["dataset"].tolist() == ["D1"] * 3 + ["D2"] * 3
    assert_balanced_tabular(contradiction_counts_latex(counts), 5)
    assert_balanced_tabular(contradictions_latex(table), 5)


def test_a_higher_is_better_measure_reverses_the_winner():
    significance = hand_made(["M1", "M2"], "AB", [[0.1, 0.2], [0.1, 0.2]], [[0.01], [0.01]])
    assert contradiction_table(significance, 0.05, "D", lower_is_better=[True, True]).empty
    table = contradiction_table(significance, 0.05, "D", lower_is_better=[True, False])
    assert table[["run_x", "run_y"]].values.tolist() == [["A", "B"]]


def test_no_contradictions_gives_empty_tables_that_still_render():
    significance = hand_made(["NMD", "RNOD"], "AB", [[0.1, 0.2], [0.1, 0.2]], [[0.01], [0.01]])
    table = contradiction_table(significance, 0.05, "D1")
    assert table.empty and list(table.columns) == ["dataset", "measure_a", "measure_b", "run_x", "run_y"]
    grouped = grouped_contradictions(table, {"D1": {"A": "A", "B": "B"}})
    assert grouped.empty and "run_pairs" in grouped.columns
    for fragment in (contradictions_latex(table), contradictions_latex(grouped)):
        assert "no contradictions" in fragment
        assert_balanced_tabular(fragment, 5 + ("Pairs" in fragment))


# --------------------------------------------------------------------------- discriminative power


def stack_of(matrix: np.ndarray, runs=None, measures=("NMD",)) -> ScoreStack:
    matrix = np.asarray(matrix, dtype=float)
    values = np.stack([matrix] * len(measures))
    runs = list(runs or [f"R{i}" for i in range(matrix.shape[1])])
    return ScoreStack(list(measures), [f"t{i}" for i in range(matrix.shape[0])], runs, values)


def test_clearly_separated_systems_have_100_percent_discriminative_power():
    rng = np.random.default_rng(1)
    matrix = np.arange(4)[None, :] + rng.normal(0, 0.01, size=(200, 4))
    significance = pairwise_significance(stack_of(matrix), 300, seeding.stream(1, "D", "significance"))
    power = discriminative_power(significance, 0.05)
    assert power.pairs == 6 and power.significant.tolist() == [6]
    assert power.percent.tolist() == [100.0]


def test_identical_systems_have_0_percent_discriminative_power():
    matrix = np.repeat(np.random.default_rng(2).uniform(size=(25, 1)), 5, axis=1)
    significance = pairwise_significance(stack_of(matrix), 300, seeding.stream(1, "D", "significance"))
    assert np.all(significance.p_values == 1.0)
    power = discriminative_power(significance, 0.05)
    assert power.significant.tolist() == [0] and power.percent.tolist() == [0.0]


def test_pooled_dp_is_sum_s_over_sum_t_and_the_table_is_emphasised():
    first = hand_made(["NMD", "RNOD"], "ABC", np.zeros((2, 3)), [[0.01, 0.01, 0.5], [0.01, 0.5, 0.5]])
    second = hand_made(["NMD", "RNOD"], "ABCD", np.zeros((2, 4)), [[0.01] * 6, [0.5] * 5 + [0.01]])
    powers = {"D1": discriminative_power(first, 0.05), "D2": discriminative_power(second, 0.05)}
    table = discriminative_power_table(powers)
    assert list(table.columns) == ["dataset", "measure", "significant", "pairs", "percent"]
    pooled = table[table["dataset"] == "POOLED"].set_index("measure")
    assert pooled.loc["NMD", "significant"] == 8 and pooled.loc["NMD", "pairs"] == 9
    assert pooled.loc["NMD", "percent"] == pytest.approx(100 * 8 / 9)
    assert pooled.loc["RNOD", "percent"] == pytest.approx(100 * 2 / 9)
    fragment = discriminative_power_latex(table)
    assert r"\textbf{88.889} (8)" in fragment and r"\underline{22.222} (2)" in fragment
    assert "$T = 9$" in fragment
    assert_balanced_tabular(fragment, 4)


def test_dp_curve_sorts_p_values_decreasingly():
    assert dp_curve([0.2, 0.9, 0.0, 0.5]).tolist() == [0.9, 0.5, 0.2, 0.0]


# --------------------------------------------------------------------------- identical runs


def test_identical_baseline_copies_are_never_significant_and_are_grouped():
    rng = np.random.default_rng(3)
    popularity = rng.uniform(0.0, 0.1, size=(40, 1))
    uniform = rng.uniform(0.5, 0.6, size=(40, 1))
    system = rng.uniform(0.2, 0.3, size=(40, 1))
    runs = ["BL-popularity-C", "BL-uniform-C", "SIM01", "BL-popularity-E", "BL-uniform-E"]
    matrix = np.hstack([popularity, uniform, system, popularity, uniform])
    stack = stack_of(matrix, runs, measures=("NMD", "RNOD"))
    stack.values[1] = np.hstack([uniform, popularity, system, uniform, popularity])  # RNOD: the reverse
    significance = pairwise_significance(stack, 300, seeding.stream(1, "D", "significance"))
    first, second = significance.pair_indices
    is_copy = np.array([runs[i][:-2] == runs[j][:-2] for i, j in zip(first, second, strict=True)])
    assert is_copy.sum() == 2
    assert np.all(significance.p_values[:, is_copy] == 1.0)
    assert np.all(significance.significant(0.05)[:, ~is_copy])

    groups = identical_run_groups(stack)
    assert groups == [["BL-popularity-C", "BL-popularity-E"], ["BL-uniform-C", "BL-uniform-E"], ["SIM01"]]
    group_table = run_group_table(stack.runs, groups)
    assert group_table["run"].tolist() == runs
    assert group_table["group"].tolist()[:3] == ["BL-popularity-{C,E}", "BL-uniform-{C,E}", "SIM01"]

    detail = contradiction_table(significance, 0.05, "D")
    assert len(detail) == 4 + 2 + 2  # popularity x uniform (2 x 2), popularity x SIM01, SIM01 x uniform
    grouped = grouped_contradictions(detail, {"D": dict(zip(group_table["run"], group_table["group"], strict=True))})
    assert grouped[["run_x", "run_y", "run_pairs"]].values.tolist() == [
        ["BL-popularity-{C,E}", "BL-uniform-{C,E}", 4],
        ["BL-popularity-{C,E}", "SIM01", 2],
        ["SIM01", "BL-uniform-{C,E}", 2],
    ]
    fragment = contradictions_latex(grouped)
    assert r"BL-popularity-\{C,E\}" in fragment
    assert_balanced_tabular(fragment, 6)


def test_brace_names():
    assert brace_name(["BL-popularity-C", "BL-popularity-E"]) == "BL-popularity-{C,E}"
    assert brace_name(["run1-C", "run2-C"]) == "run{1,2}-C"
    assert brace_name(["X"]) == "X"


# --------------------------------------------------------------------------- files and reproducibility


def test_pvalue_table_round_trips_and_is_reproducible(tmp_path):
    rng = np.random.default_rng(4)
    stack = stack_of(rng.uniform(size=(20, 5)), measures=("NMD", "RNOD", "JSD"))
    stack.values[1] += rng.normal(0, 0.2, size=(20, 5))
    once = pairwise_significance(stack, 200, seeding.stream(9, "D", "significance"), threads=1)
    again = pairwise_significance(stack, 200, seeding.stream(9, "D", "significance"), threads=2)
    np.testing.assert_array_equal(once.p_values, again.p_values)
    table = pvalue_table(once)
    assert list(table.columns) == ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]
    assert len(table) == 3 * 10
    table.to_csv(tmp_path / "pvalues.tsv", sep="\t", index=False)
    back = read_pvalue_table(tmp_path / "pvalues.tsv")
    assert back.measures == once.measures and back.runs == once.runs
    np.testing.assert_array_equal(back.p_values, once.p_values)
    np.testing.assert_allclose(back.means, once.means, rtol=0, atol=1e-15)
    run_group_table(stack.runs, identical_run_groups(stack)).to_csv(tmp_path / "groups.tsv", sep="\t", index=False)
    assert read_run_groups(tmp_path / "groups.tsv") == {run: run for run in stack.runs}


def test_pvalue_table_with_a_missing_row_is_an_error(tmp_path):
    significance = hand_made(["NMD"], "ABC", np.zeros((1, 3)), [[0.1, 0.2, 0.3]])
    pvalue_table(significance).iloc[:2].to_csv(tmp_path / "pvalues.tsv", sep="\t", index=False)
    with pytest.raises(Exception, match="run pair"):
        read_pvalue_table(tmp_path / "pvalues.tsv")


# --------------------------------------------------------------------------- workflow


def test_workflow_writes_significance_outputs(tmp_path):
    config = tiny_config("tinysig", significance={"hsd_trials": 100, "measures": ["NMD", "RNOD", "JSD"]})
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "tinysig"
    datasets = list(config["datasets"])

    def columns(path):
        return list(pd.read_csv(path, nrows=0, sep="\t" if path.suffix == ".tsv" else ",").columns)

    for dataset in datasets:
        pvalues = results / "significance" / dataset / "pvalues.tsv"
        assert columns(pvalues) == ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]
        assert set(pd.read_csv(pvalues, sep="\t")["measure"]) == set(config["measures"])
        assert columns(results / "tables" / "sso" / f"{dataset}.csv") == [
            *["measure_a", "measure_b", "a", "b", "c", "sso", "data_origin"]
        ]
        assert (results / "tables" / "sso" / f"{dataset}.tex").is_file()
        for ext in ("pdf", "png"):
            assert (results / "figures" / "dp_curves" / f"{dataset}.{ext}").stat().st_size > 0
    tables = results / "tables"
    power = pd.read_csv(tables / "discriminative_power.csv")
    assert list(power.columns) == ["dataset", "measure", "significant", "pairs", "percent", "data_origin"]
    assert list(dict.fromkeys(power["dataset"])) == [*datasets, "POOLED"]
    assert (power["data_origin"] == "synthetic").all()
    assert columns(tables / "contradictions.csv") == [
        *["dataset", "measure_a", "measure_b", "run_x", "run_y", "data_origin"]
    ]
    assert columns(tables / "contradiction_counts.csv")[:4] == ["dataset", "measure_a", "measure_b", "contradictions"]
    groups = pd.read_csv(results / "significance" / "TinyDQ" / "run_groups.tsv", sep="\t")
    assert set(groups.loc[groups["run"].str.startswith("BL-popularity"), "group"]) == {"BL-popularity-{C,E}"}
    for name in ("discriminative_power", "contradiction_counts", "contradictions", "contradictions_grouped"):
        assert (tables / f"{name}.tex").read_text().count(r"\begin{tabular}") == 1
    for ext in ("pdf", "png"):
        assert (results / "figures" / "dp_curves" / f"all.{ext}").stat().st_size > 0


def test_significance_measures_must_be_scored(tmp_path):
    config = tiny_config(measures=["NMD", "RNOD"], significance={"measures": ["NMD", "JSD"]})
    result = run_workflow(tmp_path, config, "--dry-run", check=False)
    assert result.returncode != 0
    assert "measure(s) JSD are not scored" in result.stdout + result.stderr
