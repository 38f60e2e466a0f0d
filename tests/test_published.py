"""Published versus reproduced (ordeval.results.replication): the transcription, the verdicts, the summary, and the
papers' tau matrices of the official SemEval-2016 runs reproduced cell for cell."""

from __future__ import annotations

import math

import pytest
from conftest import published_file, shared_file

from ordeval.api import agreement, score_stack
from ordeval.io.table import Table, write_csv
from ordeval.results.replication import (
    POOLED,
    STATISTICS,
    VERDICTS,
    Reproduced,
    datasets_with_numbers,
    published_numbers,
    summary,
    verdict_column,
    verdicts,
)

TOLERANCE = {"consistency_mean_tau": 0.03, "consistency_ve2": 0.001, "dp_significant": 4}


def test_the_transcription_has_484_numbers_of_known_statistics_with_the_baselines_named_as_our_runs():
    rows = published_numbers()
    assert len(rows) == 484
    assert {row.statistic for row in rows} <= set(STATISTICS)
    assert not [row for row in rows if row.a.startswith("_")]
    official = {(row.dataset, row.a, row.statistic): row.value for row in rows if row.statistic.startswith("official")}
    assert official[("Sem16T4C", "BL-majority", "official_MAE_M")] == "1.200"
    assert official[("Sem16T4E", "BL-average", "official_EMD")] == "0.474"
    assert official[("Sem16T4E", "BL-positive", "official_EMD")] == "0.734"
    assert datasets_with_numbers()[:2] == ["Sem16T4C", "Sem17T4C"] and POOLED not in datasets_with_numbers()


def test_table_7_is_transcribed_as_the_shared_published_numbers_give_it():
    """CIKM 2021 LQ workshop, Table 7: 6 measures x 2 counts x 6 data sets, the published file's rows as they are."""
    ours = [row for row in published_numbers() if row.source == "Sakai, CIKM 2021 LQ workshop, Table 7"]
    assert len(ours) == 72 and {row.statistic for row in ours} == {"prefers_uniform", "prefers_popularity"}
    shared = published_file().read_text(encoding="utf-8").splitlines()
    expected = [line for line in shared if line.startswith("Sakai, CIKM 2021 LQ workshop, Table 7\t")]
    assert ["\t".join((r.source, r.dataset, r.statistic, r.a, r.b, r.value)) for r in ours] == expected


def _reproduced(tmp_path, origin="real", popularity_origin="real", runs=("QCRI",)):
    """A data set's tables as the pipeline writes them, with known values."""
    agreement_csv = tmp_path / "agreement.csv"
    write_csv(
        Table(
            {
                "measure_a": ["NMD"],
                "measure_b": ["RNOD"],
                "tau": [0.9393939393939394],
                "ci_low": [0.85418],
                "ci_high": [0.97512],
            }
        ),
        agreement_csv,
        {"X": origin},
    )
    half = tmp_path / "half.csv"
    write_csv(
        Table({"measure": ["NMD", "RNOD"], "mean_tau": [0.7901, 0.8470], "ve2": [0.00208, 0.00208]}),
        half,
        {"X": origin},
    )
    power = tmp_path / "power.csv"
    write_csv(
        Table({"dataset": ["X", "X"], "measure": ["NMD", "RNOD"], "significant": [37, 30], "pairs": [66, 66]}),
        power,
        {"X": origin},
    )
    means = tmp_path / "means.tsv"
    Table({"run": runs, "NMD": [0.060843074143333314] + [0.1] * (len(runs) - 1)}).write(means)
    popularity = tmp_path / "popularity.csv"
    write_csv(
        Table(
            {
                "dataset": ["X", "TOTAL"],
                "measure": ["NMD", "NMD"],
                "uniform": [175, 175],
                "popularity": [197, 197],
                "ties": [18, 18],
            }
        ),
        popularity,
        {"X": popularity_origin},
    )
    return Reproduced.read(
        "X",
        origin,
        agreement=agreement_csv,
        consistency={"half": half},
        power=power,
        means=means,
        classes=5,
        popularity=popularity,
    )


def _published(statistic, a, b, value):
    from ordeval.results.replication import Published

    return Published("a paper, Table 1", "X", statistic, a, b, value)


def test_each_verdict_with_its_difference_and_tolerance(tmp_path):
    reproduced = _reproduced(tmp_path)
    rows = [
        _published("tau_a", "RNOD", "NMD", "0.939"),  # exact, found under either order of the pair
        _published("tau_ci_low", "NMD", "RNOD", "0.855"),  # 0.85418 rounds to 0.854: differs
        _published("consistency_mean_tau_half", "NMD", "", "0.7881"),  # 0.002 off: within 0.03
        _published("consistency_mean_tau_half", "RNOD", "", "0.8470"),  # exact at 4 decimals
        _published("consistency_ve2_half", "", "", "0.00211"),  # 3e-5 off: within 0.001
        _published("dp_significant", "NMD", "", "38"),  # one pair fewer: within 4
        _published("dp_significant", "RNOD", "", "35"),  # five fewer: differs
        _published("dp_pairs", "NMD", "", "66"),
        _published("official_EMD", "QCRI", "", "0.243"),  # 4 x NMD = 0.24337
        _published("consistency_mean_tau_10v10", "NMD", "", "0.6743"),  # no 10 vs 10 table
        _published("tau_a", "NMD", "JSD", "0.5"),  # JSD not in the agreement measures
    ]
    table = verdicts(rows, reproduced, TOLERANCE)
    got = dict(zip(range(len(rows)), table["verdict"], strict=True))
    assert got == {
        0: "exact",
        1: "differs",
        2: "within randomisation error",
        3: "exact",
        4: "within randomisation error",
        5: "within randomisation error",
        6: "differs",
        7: "fixed by the set-up",
        8: "exact",
        9: "not comparable",
        10: "not comparable",
    }
    assert table["difference"][5] == -1 and table["difference"][6] == -5
    assert table["difference"][2] == pytest.approx(0.002)
    assert table["tolerance"][2] == 0.03 and math.isnan(table["tolerance"][0])
    assert table["reproduced"][8] == pytest.approx(4 * 0.060843074143333314)
    assert table["note"][10] == "NMD and JSD not both in the agreement measures"


def test_runs_that_are_not_the_papers_runs_are_not_comparable_but_shown(tmp_path):
    reproduced = _reproduced(tmp_path, origin="partly synthetic")
    table = verdicts([_published("tau_a", "NMD", "RNOD", "0.939")], reproduced, TOLERANCE)
    assert table["verdict"] == ["not comparable"]
    assert table["reproduced"][0] == pytest.approx(0.9393939393939394)
    assert "runs not public" in table["note"][0]


def test_numbers_of_the_gold_alone_are_compared_where_the_gold_is_real(tmp_path):
    """CIKM 2021 LQ, Table 7 depends on the gold and two baselines computed from it: exact on STC-3's real gold
    whatever the simulated runs beside them, not comparable on a simulated gold; the number of run pairs is fixed by
    the set-up (the number of runs) whatever the data: never exact, counted apart."""
    rows = [
        _published("prefers_uniform", "NMD", "", "175"),
        _published("prefers_popularity", "NMD", "", "198"),
        _published("prefers_uniform", "JSD", "", "301"),
        _published("dp_pairs", "NMD", "", "66"),
    ]
    twelve = ["QCRI", *(f"R{i}" for i in range(1, 12))]  # the papers' 12 runs (66 pairs)
    reproduced = _reproduced(tmp_path, origin="partly synthetic", popularity_origin="real", runs=twelve)
    table = verdicts(rows, reproduced, TOLERANCE)
    assert table["verdict"] == ["exact", "differs", "not comparable", "fixed by the set-up"]
    assert table["reproduced"][:2] == [175, 197] and table["difference"][1] == -1
    assert table["note"][0] == "the real gold and the two baselines computed from it alone"
    assert table["note"][2] == "JSD not in the Popularity vs Uniform measures"
    assert table["note"][3] == "12 runs here, as in the paper: n(n-1)/2 pairs, not a reproduced number"
    assert [reproduced.row_origin(row) for row in rows] == ["real", "real", "partly synthetic", "partly synthetic"]
    synthetic = _reproduced(tmp_path, origin="synthetic", popularity_origin="synthetic", runs=twelve)
    table = verdicts(rows, synthetic, TOLERANCE)
    assert table["verdict"] == ["not comparable", "not comparable", "not comparable", "fixed by the set-up"]
    assert table["note"][0] == "gold not public: X is synthetic here"


def test_each_summary_row_has_the_origin_of_the_numbers_it_counts(tmp_path):
    from ordeval.results.replication import summary_origins

    stc3 = [_published("prefers_uniform", "NMD", "", "175"), _published("dp_significant", "NMD", "", "37")]
    stc3[1] = stc3[1].__class__("another paper, Table 3", *list(stc3[1].__dict__.values())[1:])
    reproduced = _reproduced(tmp_path, origin="partly synthetic", popularity_origin="real")
    table = verdicts(stc3, reproduced, TOLERANCE)
    table = table.with_column("data_origin", [reproduced.row_origin(row) for row in stc3])
    assert summary_origins([table]) == ["real", "partly synthetic", "partly synthetic"]


def test_the_summary_counts_every_number_once_per_verdict(tmp_path):
    reproduced = _reproduced(tmp_path)
    first = verdicts(
        [_published("tau_a", "RNOD", "NMD", "0.939"), _published("dp_significant", "RNOD", "", "35")],
        reproduced,
        TOLERANCE,
    )
    second = verdicts([_published("tau_a", "RNOD", "NMD", "0.939")], None, TOLERANCE, reason="not here")
    counts = summary([first, second])
    first = ["exact", "within_randomisation_error", "differs", "not_comparable"]  # the columns as they were
    assert counts.columns == ["source", "dataset", *first, "numbers", "fixed_by_the_set_up"]
    assert {verdict_column(verdict) for verdict in VERDICTS} <= set(counts.columns)
    total = counts.records()[-1]
    assert total["source"] == "all published numbers"
    assert (total["exact"], total["differs"], total["not_comparable"], total["numbers"]) == (1, 1, 1, 3)


@pytest.fixture(scope="module")
def sem16t4c_agreement(tmp_path_factory):
    """The agreement table of the 12 official Sem16T4C runs (ACL-IJCNLP 2021, Table 1), as the pipeline's."""
    gold = shared_file("Sem16T4CE/official/gold/SemEval2016_task4_subtaskC_test_gold.txt")
    folder = gold.parents[1] / "runs" / "C"
    runs = {path.name.removesuffix("-C.output").lstrip("_"): path for path in sorted(folder.glob("*-C.output"))}
    assert len(runs) == 12
    stack = score_stack(
        gold, runs, task="classification", gold_format="semeval_labels", run_format="semeval_labels", align="position"
    )
    frame = agreement(stack, kendall="a", ci_method="fisher_z_rounded")
    path = tmp_path_factory.mktemp("sem16t4c") / "agreement.csv"
    write_csv(Table({name: list(frame[name]) for name in frame.columns}), path, {"Sem16T4C": "real"})
    return path


def test_the_acl_2021_tau_matrix_of_sem16t4c_is_reproduced_cell_for_cell(sem16t4c_agreement):
    """Sakai, ACL-IJCNLP 2021, Table 2(I): all 36 taus between the nine OC measures, exact at 3 decimals."""
    rows = [row for row in published_numbers() if row.dataset == "Sem16T4C" and row.statistic == "tau_a"]
    assert len(rows) == 36
    table = verdicts(rows, Reproduced.read("Sem16T4C", "real", agreement=sem16t4c_agreement), TOLERANCE)
    assert table["verdict"] == ["exact"] * 36, [r for r in table.records() if r["verdict"] != "exact"]


def test_the_latex_shows_the_reproduced_number_at_the_printed_precision_then_unrounded():
    """A count of significant pairs beside its published count reads 37, not 37.0; a tau rounded as printed (the
    verdict read off the two), then unrounded (three decimals more), then the difference; the texts are the HTML
    page's (one function)."""
    from ordeval.io.table import Table
    from ordeval.reports.latex.replication import replication_latex
    from ordeval.results.replication import shown

    table = Table(
        {
            "source": ["Sakai, CIKM 2021 LQ workshop, Table 3"] * 2 + ["Sakai, RNOD variants and DNKT, Table 3"],
            "statistic": ["dp_significant", "dp_pairs", "tau_a"],
            "a": ["NMD", "NMD", "NMD"],
            "b": ["", "", "RNOD"],
            "published": ["38", "66", "0.848"],
            "reproduced": ["37.0", "66.0", "0.8484848484848485"],
            "difference": ["-1.0", "0.0", "0.000484848"],
            "verdict": ["within randomisation error", "fixed by the set-up", "exact"],
            "note": ["", "", ""],
            "printed_places": ["0", "0", "3"],
        }
    )
    latex = replication_latex(table)
    rows = [line.removesuffix(" \\\\") for line in latex.splitlines() if line.endswith("\\\\")]
    assert "NMD & 38 & 37 & within & 37 & -1" in rows
    assert "NMD & 66 & 66 & set-up & 66 & 0" in rows
    assert "NMD / RNOD & 0.848 & 0.848 & exact & 0.848485 & +0.0005" in rows
    assert shown(table.records()[2]) == {
        "published": "0.848",
        "reproduced": "0.848",
        "unrounded": "0.848485",
        "difference": "+0.0005",
    }
    # one block per published table and statistic, the statistic as the paper prints it, never its identifier
    assert r"\textit{Kendall's $\tau$}" in latex and "tau_a" not in latex
