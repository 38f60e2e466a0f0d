"""Discriminative power, significance overlap and contradictions (SPEC 4.3-4.5), and the significance scripts."""

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import run_rule_script
from hypothesis import given
from hypothesis import strategies as st

from ordeval.analysis.identical_runs import (
    brace_name,
    collapse_identical_runs,
    identical_run_sets,
    identical_set_table,
    read_identical_sets,
)
from ordeval.analysis.significance import (
    PairwiseSignificance,
    arrays_path,
    contradiction_counts,
    contradiction_table,
    discriminative_power,
    discriminative_power_table,
    dp_curve,
    overlap_table,
    pairwise_significance,
    pvalue_table,
    read_pvalue_table,
    significance_overlap,
    write_pvalues,
)
from ordeval.io.files import sha256, write_json
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import measure_label
from ordeval.reports.latex.significance import (
    contradiction_counts_latex,
    contradictions_latex,
    discriminative_power_latex,
    sso_latex,
)
from ordeval.stats import seeding
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

ORIGINS = {"D1": "synthetic", "D2": "synthetic"}
LABELS = {name: measure_label(name) for name in ["NMD", "RNOD", "JSD", "M1", "M2"]}


def hand_made(measures, runs, means, p_values, lower_is_better=()) -> PairwiseSignificance:
    return PairwiseSignificance(
        list(measures), list(runs), np.asarray(means, float), np.asarray(p_values, float), list(lower_is_better)
    )


def rows(table: Table, columns=None) -> list[list]:
    """The table's rows as lists (of ``columns``, default all)."""
    columns = columns or table.columns
    return [list(row) for row in zip(*(table[name] for name in columns), strict=True)]


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
    assert np.isnan(table.column("sso", float)).all()
    fragment = sso_latex(table, significance.measures, LABELS)
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
    assert rows(table, ["measure_a", "measure_b"]) == [["NMD", "RNOD"], ["NMD", "JSD"], ["RNOD", "JSD"]]
    assert rows(table, ["a", "b", "c"]) == [[1, 5, 0], [5, 1, 0], [4, 1, 0]]
    assert list(table["sso"]) == pytest.approx([500 / 6, 100 / 6, 20.0])
    fragment = sso_latex(table, significance.measures, LABELS)
    assert r"\underline{16.667} (5/1/0)" in fragment
    assert_balanced_tabular(fragment, 3)
    high = hand_made(["NMD", "RNOD"], "ABC", np.zeros((2, 3)), [[0.01] * 3, [0.01] * 3])
    assert r"\textbf{100.000} (0/3/0)" in sso_latex(overlap_table(high, 0.05), high.measures, LABELS)


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
    assert rows(table) == [
        ["D1", "NMD", "RNOD", "A", "B"],
        ["D1", "NMD", "RNOD", "A", "C"],
        ["D1", "RNOD", "JSD", "B", "A"],
        ["D1", "RNOD", "JSD", "C", "A"],
    ]
    counts = contradiction_counts(table, ["D1", "D2"], significance.measures)
    assert list(counts["contradictions"]) == [2, 0, 2, 0, 0, 0]
    assert list(counts["dataset"]) == ["D1"] * 3 + ["D2"] * 3
    assert_balanced_tabular(contradiction_counts_latex(counts, LABELS), 5)
    assert_balanced_tabular(contradictions_latex(table, LABELS), 5)


def test_a_higher_is_better_measure_reverses_the_winner():
    means, p = [[0.1, 0.2], [0.1, 0.2]], [[0.01], [0.01]]
    assert len(contradiction_table(hand_made(["M1", "M2"], "AB", means, p, [True, True]), 0.05, "D")) == 0
    significance = hand_made(["M1", "M2"], "AB", means, p, [True, False])
    assert significance.winners().tolist() == [[1.0], [-1.0]]  # M1: A better; M2 (higher is better): B
    table = contradiction_table(significance, 0.05, "D")
    assert rows(table, ["run_x", "run_y"]) == [["A", "B"]]
    # The direction survives taking a subset of the measures.
    assert significance.subset(["M2", "M1"]).lower_is_better == [False, True]


def test_no_contradictions_gives_empty_tables_that_still_render():
    significance = hand_made(["NMD", "RNOD"], "AB", [[0.1, 0.2], [0.1, 0.2]], [[0.01], [0.01]])
    table = contradiction_table(significance, 0.05, "D1")
    assert len(table) == 0 and list(table.columns) == ["dataset", "measure_a", "measure_b", "run_x", "run_y"]
    grouped = collapse_identical_runs(table, {"D1": {"A": "A", "B": "B"}})
    assert len(grouped) == 0 and "run_pairs" in grouped.columns
    for fragment in (contradictions_latex(table, LABELS), contradictions_latex(grouped, LABELS)):
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
    pooled = {row["measure"]: row for row in table.records() if row["dataset"] == "POOLED"}
    assert pooled["NMD"]["significant"] == 8 and pooled["NMD"]["pairs"] == 9
    assert pooled["NMD"]["percent"] == pytest.approx(100 * 8 / 9)
    assert pooled["RNOD"]["percent"] == pytest.approx(100 * 2 / 9)
    fragment = discriminative_power_latex(table, LABELS)
    assert r"\textbf{88.889} (8)" in fragment and r"\underline{22.222} (2)" in fragment
    assert "$T = 9$" in fragment
    assert_balanced_tabular(fragment, 4)


def test_dp_curve_sorts_p_values_decreasingly():
    assert dp_curve([0.2, 0.9, 0.0, 0.5]).tolist() == [0.9, 0.5, 0.2, 0.0]


# --------------------------------------------------------------------------- identical runs


def test_identical_baseline_copies_are_never_significant_and_are_collapsed():
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

    groups = identical_run_sets(stack)
    assert groups == [["BL-popularity-C", "BL-popularity-E"], ["BL-uniform-C", "BL-uniform-E"], ["SIM01"]]
    group_table = identical_set_table(stack.runs, groups)
    assert list(group_table["run"]) == runs
    assert list(group_table["identical_set"])[:3] == ["BL-popularity-{C,E}", "BL-uniform-{C,E}", "SIM01"]

    detail = contradiction_table(significance, 0.05, "D")
    assert len(detail) == 4 + 2 + 2  # popularity x uniform (2 x 2), popularity x SIM01, SIM01 x uniform
    grouped = collapse_identical_runs(
        detail, {"D": dict(zip(group_table["run"], group_table["identical_set"], strict=True))}
    )
    assert rows(grouped, ["run_x", "run_y", "run_pairs"]) == [
        ["BL-popularity-{C,E}", "BL-uniform-{C,E}", 4],
        ["BL-popularity-{C,E}", "SIM01", 2],
        ["SIM01", "BL-uniform-{C,E}", 2],
    ]
    fragment = contradictions_latex(grouped, LABELS)
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
    table.write(tmp_path / "pvalues.tsv")
    back = read_pvalue_table(tmp_path / "pvalues.tsv")
    assert back.measures == once.measures and back.runs == once.runs
    np.testing.assert_array_equal(back.p_values, once.p_values)
    np.testing.assert_allclose(back.means, once.means, rtol=0, atol=1e-15)
    identical_set_table(stack.runs, identical_run_sets(stack)).write(tmp_path / "groups.tsv")
    assert read_identical_sets(tmp_path / "groups.tsv") == {run: run for run in stack.runs}


def test_pvalue_table_with_a_missing_row_is_an_error(tmp_path):
    significance = hand_made(["NMD"], "ABC", np.zeros((1, 3)), [[0.1, 0.2, 0.3]])
    pvalue_table(significance).select([True, True, False]).write(tmp_path / "pvalues.tsv")
    with pytest.raises(Exception, match="run pair"):
        read_pvalue_table(tmp_path / "pvalues.tsv")


# --------------------------------------------------------------------------- the significance scripts


def _dataset_files(folder, dataset) -> dict:
    """The files of one data set: its scores and provenance, and what the per-data-set scripts write."""
    names = {
        "pvalues": "pvalues.tsv",
        "arrays": "pvalues.npz",
        "identical_runs": "identical_runs.tsv",
        "sso_csv": "sso.csv",
        "sso_html": "sso.html",
        "sso_tex": "sso.tex",
        "provenance": "provenance.json",
    }
    return {key: str(folder / dataset / name) for key, name in names.items()}


def test_significance_scripts_write_the_documented_files(tmp_path):
    """p-values and SSO per data set, then discriminative power, contradictions (CSV and LaTeX) and the DP
    curves of the data sets; a higher-is-better measure (HIGH = -NMD) never contradicts NMD: its direction
    comes from measures.tsv."""
    rng = np.random.default_rng(5)
    runs = ["BL-popularity-C", "BL-uniform-C", "SIM01", "SIM02", "BL-popularity-E", "BL-uniform-E"]
    measures = ["NMD", "RNOD", "HIGH"]
    settings = {"alpha": 0.05, "hsd_trials": 200}
    datasets = {}
    for dataset in ["D1", "D2"]:
        base = rng.uniform(size=(30, 4)) + np.array([0.0, 0.6, 0.3, 0.35])
        reverse = base[:, ::-1] + rng.normal(0, 0.05, size=base.shape)
        nmd, rnod = (np.hstack([matrix, matrix[:, :2]]) for matrix in (base, reverse))  # -E copies of -C baselines
        stack = ScoreStack(
            measures, [f"t{i}" for i in range(30)], runs, np.stack([nmd, rnod, -nmd]), [True, True, False]
        )
        files = _dataset_files(tmp_path, dataset)
        scores = write_scores(stack, score_files(stack, tmp_path / dataset))
        files.update(stack=str(scores["stack"]), measures=str(scores["measures"]))
        write_json({"dataset": dataset, "origin": "synthetic"}, files["provenance"])
        run_rule_script(
            "significance_pvalues",
            input={"stack": files["stack"], "tables": []},
            output={key: files[key] for key in ("pvalues", "arrays", "identical_runs")},
            params={"hsd_trials": 200, "seed": 3},
            wildcards={"dataset": dataset},
        )
        run_rule_script(
            "significance_overlap",
            input={key: files[key] for key in ("pvalues", "arrays", "measures", "provenance")},
            output={ext: files[f"sso_{ext}"] for ext in ("csv", "html", "tex")},
            params={**settings, "measures": measures},
            wildcards={"dataset": dataset},
        )
        datasets[dataset] = files

    def per_dataset(*keys):
        return {key: [files[key] for files in datasets.values()] for key in keys}

    outputs = {
        f"{stem}_{ext}": str(tmp_path / "tables" / f"{stem}.{ext}")
        for stem in ("power", "counts", "contradictions", "collapsed")
        for ext in ("csv", "html", "tex")
    }
    params = {**settings, "datasets": list(datasets), "measures": measures}
    inputs = per_dataset("pvalues", "arrays", "identical_runs", "measures", "provenance")
    run_rule_script("significance_summary", input=inputs, output=outputs, params=params, wildcards={"task_suffix": ""})
    curves = {ext: str(tmp_path / f"all.{ext}") for ext in ("pdf", "png")}
    run_rule_script(
        "significance_curves",
        input=per_dataset("pvalues", "arrays", "measures", "provenance"),
        output=curves,
        params={**params, "task": "quantification"},
        wildcards={"task_suffix": ""},
    )

    def header(path):
        return Table.read(path, sep="\t" if str(path).endswith(".tsv") else ",").columns

    for files in datasets.values():
        assert header(files["pvalues"]) == ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]
        assert set(Table.read(files["pvalues"])["measure"]) == {"NMD", "RNOD", "HIGH"}
        with np.load(files["arrays"]) as stored:  # the binary copy the rule declares, of this table
            assert str(stored["tsv_sha256"]) == sha256(files["pvalues"])
        assert header(files["sso_csv"]) == ["measure_a", "measure_b", "a", "b", "c", "sso", "data_origin"]
        assert_balanced_tabular(Path(files["sso_tex"]).read_text(), 3)
    power = Table.read(outputs["power_csv"], sep=",")
    assert power.columns == ["dataset", "measure", "significant", "pairs", "percent", "data_origin"]
    assert list(dict.fromkeys(power["dataset"])) == ["D1", "D2", "POOLED"]
    assert set(power["data_origin"]) == {"synthetic"}
    contradictions = Table.read(outputs["contradictions_csv"], sep=",")
    assert contradictions.columns == ["dataset", "measure_a", "measure_b", "run_x", "run_y", "data_origin"]
    assert len(contradictions) > 0  # RNOD reverses NMD's ranking
    assert not any(
        {a, b} == {"NMD", "HIGH"} for a, b in zip(contradictions["measure_a"], contradictions["measure_b"], strict=True)
    )
    counts = Table.read(outputs["counts_csv"], sep=",")
    assert counts.columns[:4] == ["dataset", "measure_a", "measure_b", "contradictions"]
    groups = Table.read(datasets["D1"]["identical_runs"])
    assert {
        g for r, g in zip(groups["run"], groups["identical_set"], strict=True) if r.startswith("BL-popularity")
    } == {"BL-popularity-{C,E}"}
    grouped = Table.read(outputs["collapsed_csv"], sep=",")
    assert "BL-popularity-{C,E}" in {*grouped["run_x"], *grouped["run_y"]}
    for stem in ("power", "counts", "contradictions", "collapsed"):
        assert Path(outputs[f"{stem}_tex"]).read_text().count(r"\begin{tabular}") == 1
        assert Path(outputs[f"{stem}_html"]).read_text().startswith("<!DOCTYPE html>")
    assert Path(curves["pdf"]).read_bytes().startswith(b"%PDF") and Path(curves["png"]).stat().st_size > 1000


def test_the_binary_copy_of_the_pvalues_is_read_while_it_mirrors_the_table(tmp_path):
    """write_pvalues writes the table and its binary copy (the .npz path named, as the rule declares it);
    reading with that copy takes the arrays while the table's SHA-256 matches, and parses the table once it
    was edited (or without the copy)."""
    significance = hand_made(
        ["NMD", "JSD"],
        "ABCD",
        np.arange(8.0).reshape(2, 4) / 10,
        [[0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.6, 0.5, 0.4, 0.3, 0.2, 0.1]],
    )
    path, arrays = tmp_path / "pvalues.tsv", tmp_path / "copy" / "p.npz"
    arrays.parent.mkdir()
    write_pvalues(significance, path, arrays)
    assert arrays.is_file() and not arrays_path(path).exists()  # where it is named, nowhere else
    with np.load(arrays) as stored:  # the hash taken while writing is the file's
        assert str(stored["tsv_sha256"]) == sha256(path)
        copy = dict(stored)
    for read in (read_pvalue_table(path, arrays=arrays), read_pvalue_table(path)):  # the copy, the table
        assert read.measures == ["NMD", "JSD"] and read.runs == list("ABCD")
        np.testing.assert_array_equal(read.p_values, significance.p_values)
        np.testing.assert_array_equal(read.means, significance.means)
    # the copy is what is read while it mirrors the table (a copy with other p-values, the same hash)
    np.savez(arrays, **{**copy, "p_values": copy["p_values"] / 2})
    assert read_pvalue_table(path, arrays=arrays).p_values[0, 0] == 0.05
    assert read_pvalue_table(path).p_values[0, 0] == 0.1
    lines = path.read_text().splitlines()
    lines[1] = lines[1].rsplit("\t", 1)[0] + "\t0.9"  # an edit: the arrays no longer mirror the table
    path.write_text("\n".join(lines) + "\n")
    assert read_pvalue_table(path, arrays=arrays).p_values[0, 0] == 0.9
