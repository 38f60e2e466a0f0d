"""Verdicts that claim no more than they know: a run set that is not the papers' makes the numbers over runs
(and pooled numbers) not comparable with the published ones; without the papers' run names their number decides;
the shipped numbers know the papers' run sets."""

from __future__ import annotations

import pytest

from ordeval.io.table import Table, write_csv
from ordeval.results.replication import Published, Reproduced, pooled, verdicts

TOLERANCE = {"consistency_mean_tau": 0.03, "consistency_ve2": 0.001, "dp_significant": 4}


PAPERS = ["QCRI", "finki", "pkudblab"]


def reproduced(tmp_path, runs: list[str], origin: str = "real") -> Reproduced:
    agreement = tmp_path / "agreement.csv"
    write_csv(
        Table({"measure_a": ["NMD"], "measure_b": ["RNOD"], "tau": [1.0], "ci_low": [0.5], "ci_high": [1.0]}),
        agreement,
        {"X": origin},
    )
    power = tmp_path / "power.csv"
    pairs = len(runs) * (len(runs) - 1) // 2
    write_csv(Table({"dataset": ["X"], "measure": ["NMD"], "significant": [2], "pairs": [pairs]}), power, {"X": origin})
    means = tmp_path / "means.tsv"
    Table({"run": runs, "NMD": [0.06 + i / 100 for i in range(len(runs))]}).write(means)
    return Reproduced.read("X", origin, agreement=agreement, power=power, means=means, classes=5)


def numbers(*official: str, pairs: str | None = None) -> list[Published]:
    rows = [
        Published("paper, Table 1", "X", "tau_a", "NMD", "RNOD", "1.000"),
        Published("paper, Table 2", "X", "dp_significant", "NMD", "", "2"),
    ]
    rows += [Published("results", "X", "official_EMD", run, "", "0.240") for run in official]
    if pairs:
        rows.append(Published("paper, Table 2", "X", "dp_pairs", "NMD", "", pairs))
    return rows


@pytest.mark.parametrize(
    ("runs", "note"),
    [
        ([*PAPERS, "extra"], "run set not the papers': 4 runs here, 3 in the papers; 1 extra (extra)"),
        (PAPERS[:2], "run set not the papers': 2 runs here, 3 in the papers; 1 missing (pkudblab)"),
        (["QCRI", "finki", "other"], "3 runs here, 3 in the papers; 1 extra (other); 1 missing (pkudblab)"),
    ],
)
def test_a_run_set_that_is_not_the_papers_makes_the_numbers_over_runs_not_comparable(tmp_path, runs, note):
    """The case of the issue: one extra run, or one of the papers' missing. The numbers over the runs (tau,
    discriminative power) are not comparable, with the reason; a run's own official number is still compared."""
    table = verdicts(numbers(*PAPERS), reproduced(tmp_path, runs), TOLERANCE)
    assert table["verdict"][:2] == ["not comparable", "not comparable"]
    assert all(note in text for text in table["note"][:2]), table["note"]
    assert table["reproduced"][0] == 1.0  # shown for information
    official = dict(zip(table["a"][2:], table["verdict"][2:], strict=True))
    assert official["QCRI"] == "exact"
    same = verdicts(numbers(*PAPERS), reproduced(tmp_path, PAPERS), TOLERANCE)
    assert same["verdict"][:2] == ["exact", "exact"]


def test_without_the_papers_run_names_their_number_decides(tmp_path):
    rows = numbers(pairs="3")  # 3 pairs: 3 runs
    assert verdicts(rows, reproduced(tmp_path, PAPERS), TOLERANCE)["verdict"][0] == "exact"
    table = verdicts(rows, reproduced(tmp_path, [*PAPERS, "extra"]), TOLERANCE)
    assert table["verdict"][:2] == ["not comparable", "not comparable"]
    assert table["note"][0] == "run set not the papers': 4 runs here, 3 in the papers"


def test_the_shipped_numbers_know_the_papers_run_sets():
    from ordeval.results.published import papers_runs, read_published

    rows = read_published()
    names, count = papers_runs(rows, "Sem16T4E")
    assert count == 12 and {"QCRI", "BL-average", "BL-positive", "PotTS"} <= set(names)
    assert papers_runs(rows, "Sem16T4C")[1] == 12 and papers_runs(rows, "STC3-DQ-A") == (None, 19)
    assert papers_runs(rows, "DialEval1-DQ-S") == (None, 22)
    assert papers_runs(rows, "Sem17T4C") == (None, 20)


def test_pooled_numbers_over_another_run_set_are_not_comparable(tmp_path):
    from ordeval.results.published import read_published

    pooled_over = sorted({row.dataset for row in read_published() if row.statistic == "dp_pairs"} - {"pooled"})
    papers = {row.dataset: int(row.value) for row in read_published() if row.statistic == "dp_pairs"}
    power = tmp_path / "power.csv"
    records = [(name, papers[name] + (1 if name == "Sem16T4E" else 0)) for name in pooled_over]
    write_csv(
        Table(
            {
                "dataset": [name for name, _ in records] + ["POOLED"],
                "measure": ["NMD"] * (len(records) + 1),
                "significant": [1] * (len(records) + 1),
                "pairs": [p for _, p in records] + [0],
            }
        ),
        power,
        dict.fromkeys(pooled_over, "real"),
    )
    table = pooled([power], dict.fromkeys(pooled_over, "real"), TOLERANCE)
    assert set(table["verdict"]) == {"not comparable"}
    assert (
        table["note"][0] == f"run set not the papers' on Sem16T4E ({papers['Sem16T4E'] + 1} run pairs here, "
        f"{papers['Sem16T4E']} in the papers)"
    )
