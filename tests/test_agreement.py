"""Ranking agreement between measures (SPEC 4.1): library functions and the rule scripts' main()."""

import agreement_dataset
import agreement_dnkt
import agreement_mean
import numpy as np
import pandas as pd
import pytest
from scipy import stats as scipy_stats
from tabular_check import check_tabular

from ordeval.agreement import (
    PAIR_COLUMNS,
    average_similarity,
    combination_latex,
    combination_measures,
    combination_table,
    mean_pair_table,
    ranking_agreement,
    similarity_latex,
    similarity_table,
    tau_matrix,
    tau_matrix_latex,
)
from ordeval.files import write_json
from ordeval.scoring import ScoreStack, write_scores
from ordeval.stats import tau_confidence_interval

MEASURES = ["NMD", "RNOD", "JSD"]


def _means(seed=0, runs=8):
    rng = np.random.default_rng(seed)
    base = rng.random(runs)
    return np.stack([base, base + 0.1 * rng.random(runs), rng.random(runs)])


def test_agreement_matrix_is_symmetric_with_scipy_taus_and_long_and_cliff_intervals():
    means = _means()
    agreement = ranking_agreement(means, MEASURES)
    np.testing.assert_allclose(np.diag(agreement.taus), 1.0)
    np.testing.assert_allclose(agreement.taus, agreement.taus.T)
    expected = scipy_stats.kendalltau(means[0], means[2]).statistic
    assert agreement.taus[0, 2] == pytest.approx(expected)
    interval = tau_confidence_interval(expected, 8)
    assert agreement.ci_low[0, 2] == pytest.approx(interval.low)
    assert agreement.ci_high[0, 2] == pytest.approx(interval.high)


def test_pair_table_lists_the_upper_triangle_in_measure_order():
    table = ranking_agreement(_means(), MEASURES).pair_table()
    assert list(table.columns) == PAIR_COLUMNS
    assert list(zip(table.measure_a, table.measure_b, strict=True)) == [
        ("NMD", "RNOD"),
        ("NMD", "JSD"),
        ("RNOD", "JSD"),
    ]
    assert (table.ci_low <= table.tau).all() and (table.tau <= table.ci_high).all()


def test_identical_rankings_agree_fully_with_a_degenerate_interval():
    means = np.stack([np.arange(6.0), np.arange(6.0) ** 2])
    table = ranking_agreement(means, ["NMD", "NVD"]).pair_table()
    assert table[["tau", "ci_low", "ci_high"]].iloc[0].tolist() == [1.0, 1.0, 1.0]


def _pairs(taus):
    """Pair table of NMD, RNOD, JSD with the given taus (NMD-RNOD, NMD-JSD, RNOD-JSD)."""
    return pd.DataFrame(
        {
            "measure_a": ["NMD", "NMD", "RNOD"],
            "measure_b": ["RNOD", "JSD", "JSD"],
            "tau": taus,
            "ci_low": [0.1, 0.2, 0.3],
            "ci_high": [0.9, 0.95, 0.99],
        }
    )


def test_mean_pair_table_averages_taus_and_leaves_the_intervals_empty():
    mean = mean_pair_table([_pairs([0.2, 0.4, 0.6]), _pairs([0.4, 0.8, 1.0])])
    np.testing.assert_allclose(mean.tau, [0.3, 0.6, 0.8])
    assert mean.ci_low.isna().all() and mean.ci_high.isna().all()
    with pytest.raises(ValueError, match="different measure pairs"):
        mean_pair_table([_pairs([0.2, 0.4, 0.6]), _pairs([0.2, 0.4, 0.6]).iloc[::-1]])


def test_average_similarity_is_the_mean_of_the_taus_involving_a_measure():
    similarity = average_similarity(_pairs([0.2, 0.4, 0.6]), MEASURES)
    np.testing.assert_allclose(similarity.to_numpy(), [0.3, 0.4, 0.5])
    matrix = tau_matrix(_pairs([0.2, 0.4, 0.6]), MEASURES)
    np.testing.assert_allclose(matrix, [[1, 0.2, 0.4], [0.2, 1, 0.6], [0.4, 0.6, 1]])
    table = similarity_table({"A": _pairs([0.2, 0.4, 0.6]), "B": _pairs([0.4, 0.4, 0.4])}, MEASURES)
    assert list(table.columns) == ["measure", "A", "B", "mean"]
    np.testing.assert_allclose(table["mean"], [0.35, 0.4, 0.45])


def test_latex_fragments_are_balanced_tabulars():
    pairs = _pairs([0.2, 0.4, 0.6])
    assert check_tabular(tau_matrix_latex(pairs, MEASURES)) == 1 + 2 * 2  # header + tau and CI rows
    mean = mean_pair_table([pairs])
    assert check_tabular(tau_matrix_latex(mean, MEASURES)) == 1 + 2
    fragment = similarity_latex(similarity_table({"A": pairs, "B_1": pairs}, MEASURES))
    assert check_tabular(fragment) == 1 + 3 and r"B\_1" in fragment


def test_combination_table_has_the_three_pairs_per_data_set_and_their_mean():
    measures = combination_measures("JSD")
    assert measures == ["DNKT", "JSD", "DNKT_JSD"]
    agreements = {name: ranking_agreement(_means(seed), measures) for seed, name in enumerate(["A", "B"])}
    table = combination_table(agreements)
    assert list(table.columns) == ["dataset", *PAIR_COLUMNS]
    assert table.dataset.tolist() == ["A"] * 3 + ["B"] * 3 + ["mean"] * 3
    assert table.measure_a.tolist()[:3] == ["DNKT", "DNKT", "JSD"]
    assert table.measure_b.tolist()[:3] == ["JSD", "DNKT_JSD", "DNKT_JSD"]
    np.testing.assert_allclose(table.tau[6:].to_numpy(), (table.tau[:3].to_numpy() + table.tau[3:6].to_numpy()) / 2)
    fragment = combination_latex(table)
    assert check_tabular(fragment) == 1 + 3 and r"DNKT vs DNKT\_JSD" in fragment


# --------------------------------------------------------------------------- rule scripts


@pytest.fixture
def score_files(tmp_path):
    """Score tables of two small synthetic data sets and their provenance files."""
    measures = ["NMD", "RNOD", "JSD", "DNKT", "DNKT_JSD"]
    files = {}
    for seed, dataset in enumerate(["A", "B"]):
        rng = np.random.default_rng(seed)
        quality = rng.random(9)
        values = quality[None, None, :] + 0.3 * rng.random((len(measures), 20, 9))
        stack = ScoreStack(measures, [f"t{i}" for i in range(20)], [f"run{i}" for i in range(9)], values)
        folder = tmp_path / dataset
        write_scores(stack, {m: folder / f"{m}.tsv" for m in measures}, folder / "means.tsv")
        write_json({"origin": "synthetic"}, folder / "provenance.json")
        files[dataset] = ({m: folder / f"{m}.tsv" for m in measures}, folder / "provenance.json")
    return files


def test_agreement_scripts_write_tables_with_the_documented_columns(score_files, tmp_path):
    measures = ["NMD", "RNOD", "JSD", "DNKT"]
    out = tmp_path / "tables"
    for dataset, (paths, provenance) in score_files.items():
        agreement_dataset.main(
            dataset, measures, 0.95, paths, provenance, out / f"{dataset}.csv", out / f"{dataset}.tex"
        )
        table = pd.read_csv(out / f"{dataset}.csv")
        assert list(table.columns) == [*PAIR_COLUMNS, "data_origin"]
        assert len(table) == 6 and (table.data_origin == "synthetic").all()
        text = (out / f"{dataset}.tex").read_text()
        assert text.startswith("% ") and "SYNTHETIC" in text
        check_tabular(text)
    outputs = {
        name: out / f"{name.replace('_', '.')}" for name in ["mean_csv", "mean_tex", "similarity_csv", "similarity_tex"]
    }
    provenances = {dataset: provenance for dataset, (_, provenance) in score_files.items()}
    agreement_mean.main(measures, {d: out / f"{d}.csv" for d in score_files}, provenances, outputs)
    mean = pd.read_csv(outputs["mean_csv"])
    assert list(mean.columns) == [*PAIR_COLUMNS, "data_origin"] and mean.ci_low.isna().all()
    check_tabular(outputs["mean_tex"].read_text())
    assert list(pd.read_csv(outputs["similarity_csv"]).columns) == ["measure", "A", "B", "mean", "data_origin"]
    agreement_dnkt.main(
        "JSD",
        0.95,
        {d: paths for d, (paths, _) in score_files.items()},
        provenances,
        out / "dnkt.csv",
        out / "dnkt.tex",
    )
    assert len(pd.read_csv(out / "dnkt.csv")) == 9
    check_tabular((out / "dnkt.tex").read_text())
