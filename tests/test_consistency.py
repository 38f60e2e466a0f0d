"""System ranking consistency (SPEC 4.2): splits, taus, the measures' comparison, and the consistency scripts."""

from pathlib import Path

import numpy as np
import pytest
from conftest import run_rule_script
from scipy import stats as scipy_stats
from tabular_check import check_tabular

from ordeval.analysis.consistency import compare_measures, mean_summary, read_pairs, read_summary, read_taus
from ordeval.io.files import write_json
from ordeval.io.table import Table
from ordeval.reports.latex import measure_label
from ordeval.reports.latex.consistency import comparison_latex, effect_size_latex, mean_summary_latex, symbols
from ordeval.stats.intervals import residual_variance
from ordeval.stats.splits import condition_splits, random_splits, split_means, split_taus
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

# --------------------------------------------------------------------------- splits


@pytest.mark.parametrize(("topics", "first", "second"), [(100, 50, 50), (125, 62, 63), (390, 195, 195), (7, 3, 4)])
def test_half_splits_are_disjoint_halves_covering_every_topic(topics, first, second):
    splits = condition_splits("half", topics, 200, 10, np.random.default_rng(0))
    assert splits.first.shape == splits.second.shape == (200, topics)
    assert (splits.first.sum(axis=1) == first).all() and (splits.second.sum(axis=1) == second).all()
    assert not (splits.first & splits.second).any()
    assert (splits.first | splits.second).all()


def test_subset_splits_are_disjoint_with_the_subset_size():
    splits = condition_splits("10v10", 300, 500, 10, np.random.default_rng(1))
    assert (splits.first.sum(axis=1) == 10).all() and (splits.second.sum(axis=1) == 10).all()
    assert not (splits.first & splits.second).any()
    # Every topic is drawn about equally often (500 x 20 / 300 = 33 times on average).
    counts = (splits.first | splits.second).sum(axis=0)
    assert counts.min() > 10 and counts.max() < 65
    assert len({row.tobytes() for row in splits.first}) == 500  # trials differ


def test_splits_depend_on_the_seed_only():
    one = random_splits(30, 50, 10, 10, np.random.default_rng(5))
    two = random_splits(30, 50, 10, 10, np.random.default_rng(5))
    np.testing.assert_array_equal(one.first, two.first)
    np.testing.assert_array_equal(one.second, two.second)


def test_impossible_splits_are_refused():
    with pytest.raises(ValueError, match="disjoint"):
        condition_splits("10v10", 15, 5, 10, np.random.default_rng(0))
    with pytest.raises(ValueError, match="unknown consistency condition"):
        condition_splits("thirds", 15, 5, 5, np.random.default_rng(0))


# --------------------------------------------------------------------------- taus


def _values(seed=0, measures=3, topics=24, runs=7):
    rng = np.random.default_rng(seed)
    quality = rng.random(runs)
    return quality[None, None, :] + rng.random((measures, topics, runs))


def test_split_means_and_taus_match_a_per_trial_computation():
    values = _values()
    splits = condition_splits("half", 24, 15, 4, np.random.default_rng(2))
    means = split_means(values, splits.first)
    taus = split_taus(values, splits)
    assert means.shape == (15, 3, 7) and taus.shape == (15, 3)
    for trial in range(15):  # reference loop in the test only
        first = values[:, splits.first[trial], :].mean(axis=1)
        second = values[:, splits.second[trial], :].mean(axis=1)
        np.testing.assert_allclose(means[trial], first)
        for measure in range(3):
            expected = scipy_stats.kendalltau(first[measure], second[measure]).statistic
            assert taus[trial, measure] == pytest.approx(expected)


# --------------------------------------------------------------------------- comparison


def _taus(seed=0, trials=300):
    """Trials x 4 measures: 'B' clearly more consistent than the rest, 'C' and 'D' identical."""
    rng = np.random.default_rng(seed)
    common = rng.normal(0.7, 0.05, (trials, 1))
    taus = common + rng.normal(0, 0.02, (trials, 4))
    taus[:, 1] += 0.1
    taus[:, 3] = taus[:, 2]
    return np.clip(taus, -1, 1)


MEASURES = ["NMD", "RNOD", "JSD", "NVD"]
LABELS = {name: measure_label(name) for name in MEASURES}


def test_comparison_sorts_measures_and_finds_the_clearly_better_one():
    taus = _taus()
    comparison = compare_measures(taus, MEASURES, 500, 0.05, np.random.default_rng(0), threads=1)
    assert comparison.measures[0] == "RNOD"
    assert (np.diff(comparison.mean_tau) <= 0).all()
    np.testing.assert_allclose(sorted(comparison.mean_tau), sorted(taus.mean(axis=0)))
    assert comparison.ve2 == pytest.approx(residual_variance(taus))
    beaten = dict(zip(comparison.measures, comparison.outperforms(), strict=True))
    assert set(beaten["RNOD"]) == {"NMD", "JSD", "NVD"}
    assert "NVD" not in beaten["JSD"] and "JSD" not in beaten["NVD"]  # identical columns
    assert not np.diag(comparison.significant).any()
    # Effect size: difference / sqrt(VE2).
    sizes = comparison.effect_sizes()
    assert sizes[0, 1] == pytest.approx((comparison.mean_tau[0] - comparison.mean_tau[1]) / np.sqrt(comparison.ve2))


def test_comparison_tables_have_the_documented_columns_and_balanced_latex():
    comparison = compare_measures(_taus(1), MEASURES, 300, 0.05, np.random.default_rng(0))
    summary = comparison.summary_table()
    assert list(summary.columns[:3]) == ["measure", "mean_tau", "outperforms"] and "ve2" in summary.columns
    assert summary["outperforms"][0].split() == comparison.outperforms()[0]
    pairs = comparison.pair_table()
    assert list(pairs.columns) == ["measure_a", "measure_b", "difference", "effect_size", "p_value", "significant"]
    assert len(pairs) == 6 and (pairs.column("difference", float) >= 0).all()
    fragment = comparison_latex(summary, symbols(MEASURES), LABELS)
    assert check_tabular(fragment) == 1 + 4
    assert r"\heartsuit" in fragment  # RNOD's symbol
    assert check_tabular(effect_size_latex(pairs, comparison.measures, LABELS)) == 1 + 3


def test_comparison_is_reproducible_and_leaves_out_undefined_trials():
    taus = _taus(2)
    one = compare_measures(taus, MEASURES, 200, 0.05, np.random.default_rng(4), threads=1)
    two = compare_measures(taus, MEASURES, 200, 0.05, np.random.default_rng(4), threads=2)
    np.testing.assert_array_equal(one.p_values, two.p_values)
    taus[5, 0] = np.nan
    partial = compare_measures(taus, MEASURES, 200, 0.05, np.random.default_rng(4))
    assert partial.trials == taus.shape[0] - 1


def test_mean_summary_averages_over_data_sets_and_sorts():
    tables = {
        "A": Table({"measure": ["NMD", "RNOD"], "mean_tau": [0.9, 0.8]}),
        "B": Table({"measure": ["RNOD", "NMD"], "mean_tau": [0.95, 0.7]}),
    }
    summary = mean_summary(tables)
    assert list(summary["measure"]) == ["RNOD", "NMD"]
    np.testing.assert_allclose(summary["mean"], [0.875, 0.8])
    assert list(summary.columns) == ["measure", "A", "B", "mean"]
    assert check_tabular(mean_summary_latex(summary, LABELS)) == 1 + 2


# --------------------------------------------------------------------------- the consistency scripts

CONDITIONS = ["half", "10v10"]
PARTS = ("taus", "summary", "summary_tex", "pairs", "pairs_tex")


def _setup(tmp_path, measures):
    """A synthetic score stack (its files) and the provenance files of data sets X and Y."""
    stack = ScoreStack(
        measures, [f"t{i}" for i in range(21)], [f"run{i}" for i in range(8)], _values(3, len(measures), 21, 8)
    )
    paths = write_scores(stack, score_files(stack, tmp_path / "scores"))
    provenance = {name: str(tmp_path / f"{name}.json") for name in ("X", "Y")}
    for name, path in provenance.items():
        write_json({"dataset": name, "origin": "synthetic"}, path)
    return paths, provenance


def _taus_outputs(folder) -> dict[str, str]:
    """The outputs of rule consistency_taus, written to ``folder``."""
    names = {
        "taus": "{}.tsv",
        "summary": "{}.csv",
        "summary_html": "{}.html",
        "summary_tex": "{}.tex",
        "pairs": "{}_pairs.csv",
        "pairs_html": "{}_pairs.html",
        "pairs_tex": "{}_pairs.tex",
    }
    return {f"{part}_{c}": str(folder / name.format(c)) for part, name in names.items() for c in CONDITIONS}


def _run_taus(dataset, measures, settings, threads, paths, provenance, folder) -> dict[str, str]:
    """Script consistency_taus on data set ``dataset``; its outputs."""
    output = _taus_outputs(folder)
    run_rule_script(
        "consistency_taus",
        input={"stack": str(paths["stack"]), "tables": [], "provenance": provenance[dataset]},
        output=output,
        params={"measures": measures, "conditions": CONDITIONS, **settings, "kendall": "b"},
        wildcards={"dataset": dataset},
        threads=threads,
    )
    return output


SETTINGS = {"splits": 40, "subset_size": 5, "hsd_trials": 100, "alpha": 0.05, "seed": 11}


def test_consistency_scripts_write_the_documented_files_reproducibly(tmp_path):
    measures = ["NMD", "RNOD", "JSD"]
    paths, provenance = _setup(tmp_path, measures)
    one, two = (
        _run_taus("X", measures, SETTINGS, threads, paths, provenance, tmp_path / folder)
        for threads, folder in [(1, "X"), (2, "X_two_threads")]
    )
    for condition in CONDITIONS:
        names, taus = read_taus(one[f"taus_{condition}"])
        assert names == measures and taus.shape == (40, 3)
        summary = one[f"summary_{condition}"]
        table = Table.read(summary, sep=",")
        assert list(table.columns) == ["measure", "mean_tau", "outperforms", "ve2", "trials", "data_origin"]
        assert list(read_summary(summary).columns) == ["measure", "mean_tau", "outperforms", "ve2", "trials"]
        assert len(read_pairs(one[f"pairs_{condition}"])) == 3
        for part in ("summary_tex", "pairs_tex"):
            text = Path(one[f"{part}_{condition}"]).read_text()
            check_tabular(text)
            assert text.startswith("% SYNTHETIC") and "40 random splits, 40 with every $\\tau$ defined; VE2 = $" in text
        assert "3 rows" in Path(one[f"summary_html_{condition}"]).read_text()  # the pages of the CSVs
        assert "3 rows" in Path(one[f"pairs_html_{condition}"]).read_text()
        for part in PARTS:  # same seed, same bytes (whatever the threads; a page's title names its folder)
            key = f"{part}_{condition}"
            assert Path(one[key]).read_bytes() == Path(two[key]).read_bytes(), key
    # The data set's name is part of the seed: another data set draws other splits.
    other = _run_taus("Y", measures, SETTINGS, 1, paths, provenance, tmp_path / "Y")
    assert Path(other["taus_half"]).read_bytes() != Path(one["taus_half"]).read_bytes()

    # the mean over two data sets: X and Y
    output = {
        f"{stem}_{c}": str(tmp_path / f"{stem}_{c}.{ext}")
        for stem, ext in (("mean", "csv"), ("mean_html", "html"), ("mean_tex", "tex"))
        for c in CONDITIONS
    }
    run_rule_script(
        "consistency_summary",
        input={
            **{f"summary_{c}": [one[f"summary_{c}"], other[f"summary_{c}"]] for c in CONDITIONS},
            "measures": str(paths["measures"]),
            "provenance": [provenance["X"], provenance["Y"]],
        },
        output=output,
        params={"conditions": CONDITIONS, "datasets": ["X", "Y"]},
        wildcards={"task_suffix": ""},
    )
    for condition in CONDITIONS:
        mean = Table.read(output[f"mean_{condition}"], sep=",", numeric=["X", "Y", "mean"])
        assert list(mean.columns) == ["measure", "X", "Y", "mean", "data_origin"]
        np.testing.assert_allclose(mean["mean"], (mean["X"] + mean["Y"]) / 2)
        x = read_summary(one[f"summary_{condition}"])
        by_measure = dict(zip(x["measure"], x.column("mean_tau", float), strict=True))
        np.testing.assert_allclose(mean["X"], [by_measure[m] for m in mean["measure"]])
        check_tabular(Path(output[f"mean_tex_{condition}"]).read_text())


def test_dataset_figures_draw_the_consistency_curves_leaderboard_and_topic_set_size_figures(tmp_path):
    """Script dataset_figures on one data set, after the scripts whose files it reads (consistency_taus,
    significance_pvalues, leaderboard_tables)."""
    measures = ["NMD", "RNOD", "JSD"]
    paths, provenance = _setup(tmp_path, measures)
    taus = _run_taus("X", measures, SETTINGS, 1, paths, provenance, tmp_path / "consistency")
    significance = {
        "pvalues": str(tmp_path / "pvalues.tsv"),
        "arrays": str(tmp_path / "pvalues.npz"),
        "identical_runs": str(tmp_path / "identical_runs.tsv"),
    }
    run_rule_script(
        "significance_pvalues",
        input={"stack": str(paths["stack"]), "tables": []},
        output=significance,
        params={"hsd_trials": 100, "seed": 11},
        wildcards={"dataset": "X"},
    )
    board = {ext: str(tmp_path / f"leaderboard.{ext}") for ext in ("csv", "tex", "md", "html")}
    board["compact"] = str(tmp_path / "leaderboard_compact.tex")
    inputs = {
        "stack": str(paths["stack"]),
        "tables": [],
        "pvalues": significance["pvalues"],
        "arrays": significance["arrays"],
        "provenance": provenance["X"],
    }
    settings = {"alpha": 0.05, "hsd_trials": 100, "ci_level": 0.95}
    run_rule_script(
        "leaderboard_tables",
        input={**inputs, "pooled": []},
        output=board,
        params={**settings, "measures": measures},
        wildcards={"dataset": "X"},
    )
    figures = {"curves": "significance", "leaderboard": "leaderboard", "topic_set_size": "topic_set_size"}
    output = {
        f"{key}_{ext}": str(tmp_path / "figures" / f"{name}.{ext}")
        for key, name in figures.items()
        for ext in ("pdf", "png")
    }
    output.update(
        {
            f"consistency_{ext}_{c}": str(tmp_path / "figures" / f"{c}.{ext}")
            for c in CONDITIONS
            for ext in ("pdf", "png")
        }
    )
    run_rule_script(
        "dataset_figures",
        input={
            **inputs,
            **{f"taus_{c}": taus[f"taus_{c}"] for c in CONDITIONS},
            "leaderboard": board["csv"],
            "measures": str(paths["measures"]),
        },
        output=output,
        params={
            **settings,
            "conditions": CONDITIONS,
            "significance_measures": measures,
            "topic_set_size_measures": measures[:2],
            "tss_alpha": 0.05,
            "tss_power": 0.8,
        },
        wildcards={"dataset": "X"},
    )
    for key, path in output.items():
        data = Path(path).read_bytes()
        assert data.startswith(b"%PDF" if key.endswith("pdf") or "_pdf_" in key else b"\x89PNG"), key
        assert len(data) > 1000, key
