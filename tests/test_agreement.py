"""Ranking agreement between measures (SPEC 4.1): the computations, their LaTeX, and the agreement scripts."""

import numpy as np
import pytest
from conftest import run_rule_script
from scipy import stats as scipy_stats
from tabular_check import check_tabular

from ordeval.analysis.agreement import (
    PAIR_COLUMNS,
    average_similarity,
    combination_measures,
    combination_table,
    mean_pair_table,
    ranking_agreement,
    similarity_table,
    tau_matrix,
)
from ordeval.io.files import write_json
from ordeval.io.table import Table
from ordeval.reports.latex import measure_label
from ordeval.reports.latex.agreement import combination_latex, similarity_latex, tau_matrix_latex
from ordeval.stats.intervals import tau_confidence_interval
from ordeval.tasks.stack import ScoreStack, read_stack, score_files, write_scores

MEASURES = ["NMD", "RNOD", "JSD"]
LOWER = [True, True, True]
LABELS = {name: measure_label(name) for name in ["NMD", "RNOD", "JSD", "DNKT", "DNKT_JSD"]}


def _means(seed=0, runs=8):
    rng = np.random.default_rng(seed)
    base = rng.random(runs)
    return np.stack([base, base + 0.1 * rng.random(runs), rng.random(runs)])


def test_agreement_matrix_is_symmetric_with_scipy_taus_and_fisher_z_intervals():
    means = _means()
    agreement = ranking_agreement(means, MEASURES, LOWER)
    np.testing.assert_allclose(np.diag(agreement.taus), 1.0)
    np.testing.assert_allclose(agreement.taus, agreement.taus.T)
    expected = scipy_stats.kendalltau(means[0], means[2]).statistic
    assert agreement.taus[0, 2] == pytest.approx(expected)
    interval = tau_confidence_interval(expected, 8)
    assert agreement.ci_low[0, 2] == pytest.approx(interval.low)
    assert agreement.ci_high[0, 2] == pytest.approx(interval.high)


def test_pair_table_lists_the_upper_triangle_in_measure_order():
    table = ranking_agreement(_means(), MEASURES, LOWER).pair_table()
    assert list(table.columns) == PAIR_COLUMNS
    assert list(zip(table["measure_a"], table["measure_b"], strict=True)) == [
        ("NMD", "RNOD"),
        ("NMD", "JSD"),
        ("RNOD", "JSD"),
    ]
    tau, low, high = (table.column(name, float) for name in ("tau", "ci_low", "ci_high"))
    assert (low <= tau).all() and (tau <= high).all()


def test_identical_rankings_agree_fully_with_a_degenerate_interval():
    means = np.stack([np.arange(6.0), np.arange(6.0) ** 2])
    table = ranking_agreement(means, ["NMD", "NVD"], [True, True]).pair_table()
    assert [float(table[name][0]) for name in ("tau", "ci_low", "ci_high")] == [1.0, 1.0, 1.0]


def test_each_measure_ranks_by_its_own_direction():
    """A measure and its negation, one lower-is-better and one higher-is-better, rank the runs alike."""
    means = _means()[0]
    agreement = ranking_agreement(np.stack([means, -means]), ["LOW", "HIGH"], [True, False])
    assert agreement.taus[0, 1] == pytest.approx(1.0)
    assert (agreement.ci_low[0, 1], agreement.ci_high[0, 1]) == (1.0, 1.0)
    # Had the direction been ignored, the rankings would be reversed.
    assert ranking_agreement(np.stack([means, -means]), ["LOW", "HIGH"], [True, True]).taus[0, 1] == pytest.approx(-1)


def test_tau_a_keeps_tied_pairs_in_the_denominator():
    means = np.array([[1.0, 2.0, 2.0, 3.0, 4.0, 5.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    tau_a = ranking_agreement(means, ["NMD", "NVD"], [True, True], variant="a").taus[0, 1]
    tau_b = ranking_agreement(means, ["NMD", "NVD"], [True, True], variant="b").taus[0, 1]
    assert tau_a == pytest.approx(14 / 15)  # 14 concordant pairs, 1 tied, of 15
    assert tau_b == pytest.approx(scipy_stats.kendalltau(means[0], means[1]).statistic) and tau_b > tau_a


def _pairs(taus):
    """Pair table of NMD, RNOD, JSD with the given taus (NMD-RNOD, NMD-JSD, RNOD-JSD)."""
    return Table(
        {
            "measure_a": ["NMD", "NMD", "RNOD"],
            "measure_b": ["RNOD", "JSD", "JSD"],
            "tau": np.asarray(taus, dtype=float),
            "ci_low": np.array([0.1, 0.2, 0.3]),
            "ci_high": np.array([0.9, 0.95, 0.99]),
        }
    )


def _reversed(table: Table) -> Table:
    return Table({name: list(table[name])[::-1] for name in table.columns})


def test_mean_pair_table_averages_taus_and_leaves_the_intervals_empty():
    mean = mean_pair_table([_pairs([0.2, 0.4, 0.6]), _pairs([0.4, 0.8, 1.0])])
    np.testing.assert_allclose(mean["tau"], [0.3, 0.6, 0.8])
    assert np.isnan(mean.column("ci_low", float)).all() and np.isnan(mean.column("ci_high", float)).all()
    with pytest.raises(ValueError, match="different measure pairs"):
        mean_pair_table([_pairs([0.2, 0.4, 0.6]), _reversed(_pairs([0.2, 0.4, 0.6]))])


def test_average_similarity_is_the_mean_of_the_taus_involving_a_measure():
    similarity = average_similarity(_pairs([0.2, 0.4, 0.6]), MEASURES)
    np.testing.assert_allclose(similarity, [0.3, 0.4, 0.5])
    matrix = tau_matrix(_pairs([0.2, 0.4, 0.6]), MEASURES)
    np.testing.assert_allclose(matrix, [[1, 0.2, 0.4], [0.2, 1, 0.6], [0.4, 0.6, 1]])
    table = similarity_table({"A": _pairs([0.2, 0.4, 0.6]), "B": _pairs([0.4, 0.4, 0.4])}, MEASURES)
    assert list(table.columns) == ["measure", "A", "B", "mean"]
    np.testing.assert_allclose(table["mean"], [0.35, 0.4, 0.45])


def test_latex_fragments_are_balanced_tabulars():
    pairs = _pairs([0.2, 0.4, 0.6])
    assert check_tabular(tau_matrix_latex(pairs, MEASURES, LABELS)) == 1 + 2 * 2  # header + tau and CI rows
    mean = mean_pair_table([pairs])
    assert check_tabular(tau_matrix_latex(mean, MEASURES, LABELS)) == 1 + 2
    fragment = similarity_latex(similarity_table({"A": pairs, "B_1": pairs}, MEASURES), LABELS)
    assert check_tabular(fragment) == 1 + 3 and r"B\_1" in fragment


def test_combination_table_has_the_three_pairs_per_data_set_and_their_mean():
    measures = combination_measures("JSD")
    assert measures == ["DNKT", "JSD", "DNKT_JSD"]
    agreements = {name: ranking_agreement(_means(seed), measures, LOWER) for seed, name in enumerate(["A", "B"])}
    table = combination_table(agreements)
    assert list(table.columns) == ["dataset", *PAIR_COLUMNS]
    assert list(table["dataset"]) == ["A"] * 3 + ["B"] * 3 + ["mean"] * 3
    assert list(table["measure_a"])[:3] == ["DNKT", "DNKT", "JSD"]
    assert list(table["measure_b"])[:3] == ["JSD", "DNKT_JSD", "DNKT_JSD"]
    tau = table.column("tau", float)
    np.testing.assert_allclose(tau[6:], (tau[:3] + tau[3:6]) / 2)
    fragment = combination_latex(table, LABELS)
    assert check_tabular(fragment) == 1 + 3 and r"DNKT vs DNKT\_JSD" in fragment


# --------------------------------------------------------------------------- the agreement scripts


@pytest.fixture
def scored(tmp_path):
    """Score stacks of two small synthetic data sets, their measure tables and their provenance files."""
    measures = ["NMD", "RNOD", "JSD", "DNKT", "DNKT_JSD"]
    files = {}
    for seed, dataset in enumerate(["A", "B"]):
        rng = np.random.default_rng(seed)
        quality = rng.random(9)
        values = quality[None, None, :] + 0.3 * rng.random((len(measures), 20, 9))
        stack = ScoreStack(measures, [f"t{i}" for i in range(20)], [f"run{i}" for i in range(9)], values)
        folder = tmp_path / dataset
        paths = write_scores(stack, score_files(stack, folder))
        provenance = str(folder / "provenance.json")
        write_json({"dataset": dataset, "origin": "synthetic"}, provenance)
        files[dataset] = {"stack": str(paths["stack"]), "measures": str(paths["measures"]), "provenance": provenance}
    return files


def read(path):
    return Table.read(path, sep=",", numeric=["tau", "ci_low", "ci_high"])


@pytest.mark.parametrize("ci_method", ["fisher_z", "long_cliff"])
def test_agreement_scripts_write_tables_with_the_documented_columns(scored, tmp_path, ci_method):
    """agreement_dataset on each data set, agreement_summary over both, agreement_dnkt for DNKT_JSD."""
    measures = ["NMD", "RNOD", "JSD", "DNKT"]
    out = tmp_path / "tables"
    names = list(scored)
    settings = {"ci_level": 0.95, "ci_method": ci_method, "kendall": "b"}
    for name, files in scored.items():
        run_rule_script(
            "agreement_dataset",
            input={"stack": files["stack"], "tables": [], "provenance": files["provenance"]},
            output={ext: str(out / f"{name}.{ext}") for ext in ("csv", "html", "tex")},
            params={**settings, "measures": measures},
            wildcards={"dataset": name},
        )
    for dataset in scored:
        table = read(out / f"{dataset}.csv")
        assert list(table.columns) == [*PAIR_COLUMNS, "data_origin"]
        assert len(table) == 6 and set(table["data_origin"]) == {"synthetic"}
        text = (out / f"{dataset}.tex").read_text()
        assert text.startswith("% SYNTHETIC") and "Rankings of 9 runs" in text  # the data-origin comment, the note
        assert "6 rows" in (out / f"{dataset}.html").read_text()  # the page of the CSV
        stack = read_stack(scored[dataset]["stack"], measures)
        expected = ranking_agreement(stack.means(), measures, stack.lower_is_better, 0.95, "b", ci_method)
        np.testing.assert_allclose(table["ci_low"], expected.pair_table()["ci_low"])  # the configured method
        check_tabular(text)

    summary = {f"{t}_{ext}": str(out / f"{t}.{ext}") for t in ("mean", "similarity") for ext in ("csv", "html", "tex")}
    run_rule_script(
        "agreement_summary",
        input={
            "tables": [str(out / f"{name}.csv") for name in names],
            "measures": [scored[name]["measures"] for name in names],
            "provenance": [scored[name]["provenance"] for name in names],
        },
        output=summary,
        params={"kendall": "b", "measures": measures, "datasets": names},
        wildcards={"task_suffix": ""},
    )
    mean = read(out / "mean.csv")
    assert list(mean.columns) == [*PAIR_COLUMNS, "data_origin"] and np.isnan(mean["ci_low"]).all()
    pairs = [read(out / f"{name}.csv") for name in names]
    np.testing.assert_allclose(mean["tau"], (pairs[0].column("tau", float) + pairs[1].column("tau", float)) / 2)
    check_tabular((out / "mean.tex").read_text())
    assert list(Table.read(out / "similarity.csv", sep=",").columns) == ["measure", "A", "B", "mean", "data_origin"]
    check_tabular((out / "similarity.tex").read_text())

    run_rule_script(
        "agreement_dnkt",
        input={
            "stack": [scored[name]["stack"] for name in names],
            "tables": [],
            "provenance": [scored[name]["provenance"] for name in names],
        },
        output={ext: str(out / f"dnkt.{ext}") for ext in ("csv", "html", "tex")},
        params={**settings, "datasets": names},
        wildcards={"measure": "JSD"},
    )
    dnkt = read(out / "dnkt.csv")
    assert len(dnkt) == 9 and list(dnkt["dataset"]) == ["A"] * 3 + ["B"] * 3 + ["mean"] * 3
    check_tabular((out / "dnkt.tex").read_text())
