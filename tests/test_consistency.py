"""System ranking consistency (SPEC 4.2): splits, taus, the measures' comparison, and the consistency jobs."""

import numpy as np
import pytest
from scipy import stats as scipy_stats
from tabular_check import check_tabular

from ordeval.analysis.consistency import compare_measures, mean_summary, read_pairs, read_summary, read_taus
from ordeval.files import write_json
from ordeval.jobs import Job, consistency_figures, consistency_tables, consistency_taus
from ordeval.latex import measure_label
from ordeval.latex.consistency import comparison_latex, effect_size_latex, mean_summary_latex, symbols
from ordeval.scores import ScoreStack, write_scores
from ordeval.splits import condition_splits, random_splits, split_means, split_taus
from ordeval.stats import residual_variance
from ordeval.table import Table

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


# --------------------------------------------------------------------------- the consistency jobs

CONDITIONS = ["half", "10v10"]


def _setup(tmp_path, measures):
    stack = ScoreStack(
        measures, [f"t{i}" for i in range(21)], [f"run{i}" for i in range(8)], _values(3, len(measures), 21, 8)
    )
    paths = write_scores(stack, tmp_path / "scores")
    write_json({"origin": "synthetic"}, tmp_path / "provenance.json")
    return paths, tmp_path / "provenance.json"


def _outputs(folder):
    return {
        condition: {
            "taus": folder / f"{condition}.tsv",
            "summary": folder / f"X_{condition}.csv",
            "tex": folder / f"X_{condition}.tex",
            "pairs": folder / f"X_{condition}_pairs.csv",
            "pairs_tex": folder / f"X_{condition}_pairs.tex",
            "pdf": folder / f"X_{condition}.pdf",
            "png": folder / f"X_{condition}.png",
        }
        for condition in CONDITIONS
    }


def _taus_job(dataset, measures, settings, threads, paths, provenance, outputs) -> Job:
    """The consistency_taus job of rule consistency_taus over the one data set ``dataset``."""
    return Job(
        "consistency_taus",
        input={"stack": [str(paths["stack"])], "provenance": [str(provenance)]},
        output={part: [str(outputs[c][part]) for c in CONDITIONS] for part in ("taus", "summary", "pairs")},
        params={
            "datasets": [dataset],
            "measures": {dataset: measures},
            "conditions": CONDITIONS,
            **settings,
            "kendall": "b",
        },  # fmt: skip
        threads=threads,
    )


def _per_condition(folders, part) -> list[str]:
    """The files ``part`` of the data sets written to ``folders``, per data set and condition (data set first)."""
    return [str(_outputs(folder)[c][part]) for folder in folders for c in CONDITIONS]


def test_consistency_jobs_write_the_documented_files_reproducibly(tmp_path):
    measures = ["NMD", "RNOD", "JSD"]
    paths, provenance = _setup(tmp_path, measures)
    settings = {"trials": 40, "subset_size": 5, "hsd_trials": 100, "alpha": 0.05, "seed": 11}
    runs = [tmp_path / "one", tmp_path / "two"]
    for folder, threads in zip(runs, [1, 2], strict=True):  # the same data set "X", once per thread count
        consistency_taus.run(_taus_job("X", measures, settings, threads, paths, provenance, _outputs(folder)))
    # the tables over two data sets: "X" (from runs[0]) and "Y" (from runs[1])
    datasets = ["X", "Y"]
    inputs = {"summary": _per_condition(runs, "summary"), "pairs": _per_condition(runs, "pairs"),
              "measures": [str(paths["measures"])] * 2, "provenance": [str(provenance)] * 2}  # fmt: skip
    output = {"tex": _per_condition(runs, "tex"), "pairs_tex": _per_condition(runs, "pairs_tex"),
              "mean_csv": [str(tmp_path / f"mean_{c}.csv") for c in CONDITIONS],
              "mean_tex": [str(tmp_path / f"mean_{c}.tex") for c in CONDITIONS]}  # fmt: skip
    groups = [{"task": "quantification", "suffix": "", "datasets": datasets, "measures": measures}]
    params = {"datasets": datasets, "measures": {name: measures for name in datasets}, "tasks": groups,
              "conditions": CONDITIONS, "trials": 40, "hsd_trials": 100, "alpha": 0.05}  # fmt: skip
    consistency_tables.run(Job("consistency_tables", input=inputs, output=output, params=params))
    for condition, files in _outputs(runs[0]).items():
        names, taus = read_taus(files["taus"])
        assert names == measures and taus.shape == (40, 3)
        table = Table.read(files["summary"], sep=",")
        assert list(table.columns) == ["measure", "mean_tau", "outperforms", "ve2", "trials", "data_origin"]
        assert list(read_summary(files["summary"]).columns) == ["measure", "mean_tau", "outperforms", "ve2", "trials"]
        assert len(read_pairs(files["pairs"])) == 3
        for part in ["tex", "pairs_tex"]:
            check_tabular(files[part].read_text())
        for part in ["taus", "summary", "pairs"]:  # same seed, same bytes (whatever the threads)
            assert files[part].read_bytes() == _outputs(runs[1])[condition][part].read_bytes(), part
        for part in ["tex", "pairs_tex"]:  # the same but for the data set's name
            other = _outputs(runs[1])[condition][part].read_text().replace("Y, condition", "X, condition")
            assert files[part].read_text() == other, part
    mean = Table.read(tmp_path / "mean_half.csv", sep=",")
    assert list(mean.columns) == ["measure", "X", "Y", "mean", "data_origin"]
    check_tabular((tmp_path / "mean_10v10.tex").read_text())

    inputs = {"taus": _per_condition(runs[:1], "taus"), "measures": [str(paths["measures"])],
              "provenance": [str(provenance)]}  # fmt: skip
    output = {"pdf": _per_condition(runs[:1], "pdf"), "png": _per_condition(runs[:1], "png")}
    params = {"datasets": ["X"], "conditions": CONDITIONS}
    consistency_figures.run(Job("consistency_figures", input=inputs, output=output, params=params))
    assert _outputs(runs[0])["half"]["pdf"].read_bytes().startswith(b"%PDF")
    assert _outputs(runs[0])["10v10"]["png"].stat().st_size > 1000
