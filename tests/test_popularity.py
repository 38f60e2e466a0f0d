"""Popularity vs Uniform (SPEC 4.6): baselines, deltas, win/loss counts, scatter statistics, outputs."""

import json

import numpy as np
import pandas as pd
import popularity_examples
import popularity_scatter
import popularity_table
import pytest
from conftest import run_workflow, tiny_config

from ordeval import baselines
from ordeval.datasets import declared_run_names, origin_of_runs
from ordeval.files import write_json, write_table
from ordeval.measures import get_measure
from ordeval.popularity import (
    Deltas,
    compute_deltas,
    count_preferences,
    deltas_table,
    most_negative_d,
    preference_latex,
    preference_table,
    quadrant_counts,
    scatter_pairs,
    scatter_panels,
)
from ordeval.scoring import ScoreStack, score_table

MEASURES = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]


# --------------------------------------------------------------------------- baselines


def test_popularity_splits_tied_maxima_evenly():
    gold = np.array([[0.4, 0.4, 0.2, 0.0, 0.0], [0.1, 0.2, 0.3, 0.2, 0.2], [0.2, 0.2, 0.2, 0.2, 0.2]])
    expected = np.array([[0.5, 0.5, 0, 0, 0], [0, 0, 1, 0, 0], [0.2, 0.2, 0.2, 0.2, 0.2]])
    np.testing.assert_allclose(baselines.popularity(gold), expected)


def test_popularity_ties_of_annotator_shares_survive_rounding():
    # 7 of 19 annotators on two ratings: the shares must tie although 7/19 is not exact in binary.
    counts = np.array([[0, 7, 7, 5, 0]])
    np.testing.assert_allclose(baselines.popularity(counts / 19), [[0, 0.5, 0.5, 0, 0]])


def test_uniform_is_one_over_k():
    np.testing.assert_allclose(baselines.uniform(np.zeros((3, 5))), np.full((3, 5), 0.2))


def test_popularity_beats_uniform_on_one_hot_gold_under_every_measure():
    gold = np.array([[0.0, 0.0, 1.0, 0.0, 0.0]])
    for name in MEASURES:
        measure = get_measure(name)
        assert measure(baselines.popularity(gold), gold)[0] < measure(baselines.uniform(gold), gold)[0]


def test_nmd_prefers_popularity_where_rnod_prefers_uniform():
    gold = np.array([[0.0, 0.1, 0.5, 0.4, 0.0]])
    popularity, uniform = baselines.popularity(gold), baselines.uniform(gold)
    nmd, rnod = get_measure("NMD"), get_measure("RNOD")
    assert nmd(popularity, gold)[0] == pytest.approx(0.5 / 4)  # |0-.1| + |1-.6| over K-1
    assert nmd(uniform, gold)[0] == pytest.approx(0.7 / 4)  # .2 + .3 + 0 + .2
    assert rnod(popularity, gold)[0] > rnod(uniform, gold)[0]


def test_an_exact_tie_that_rounding_breaks_counts_as_a_tie():
    # NMD(popularity) = NMD(uniform) = 0.6 / 4 exactly, but floating point gives a delta of ~6e-17.
    gold = np.array([[0.05, 0.15, 0.5, 0.25, 0.05]])
    nmd = get_measure("NMD")
    delta = nmd(baselines.popularity(gold), gold) - nmd(baselines.uniform(gold), gold)
    assert abs(delta[0]) < 1e-12
    assert count_preferences(delta, 1e-12).ties == 1


# --------------------------------------------------------------------------- deltas and counts


def _stack(values_by_run: dict[str, list[list[float]]], measures=("NMD", "RNOD")) -> ScoreStack:
    """measures x topics x runs from {run: [per-measure topic scores]}."""
    runs = list(values_by_run)
    values = np.stack([np.array(values_by_run[run], dtype=float) for run in runs], axis=-1)
    return ScoreStack(list(measures), [f"t{i}" for i in range(values.shape[1])], runs, values)


def test_deltas_subtract_uniform_from_popularity():
    stack = _stack(
        {"U": [[0.3, 0.2, 0.1], [0.5, 0.5, 0.5]], "P": [[0.1, 0.2, 0.4], [0.6, 0.1, 0.5]], "X": [[0, 0, 0]] * 2}
    )
    deltas = compute_deltas(stack, "P", "U")
    np.testing.assert_allclose(deltas.of("NMD"), [-0.2, 0.0, 0.3])
    np.testing.assert_allclose(deltas.of("RNOD"), [0.1, -0.4, 0.0])
    with pytest.raises(KeyError, match="BL-popularity-C"):
        compute_deltas(stack, "BL-popularity-C", "U")


def test_count_preferences_with_ties_within_tolerance():
    delta = np.array([0.1, 2e-12, -0.3, -2e-12, 5e-13, -5e-13, 0.0, 1e-12])
    counts = count_preferences(delta, 1e-12)
    assert (counts.uniform, counts.popularity, counts.ties) == (2, 2, 4)
    assert count_preferences(delta, 0.0).ties == 1


def test_preference_table_has_a_total_row_per_measure():
    deltas = {
        "A": Deltas(["NMD", "RNOD"], ["t1", "t2", "t3"], np.array([[-1.0, -2.0, 1.0], [1.0, 1.0, 0.0]])),
        "B": Deltas(["NMD", "RNOD"], ["t1", "t2"], np.array([[-1.0, 3e-13], [-1.0, 1.0]])),
    }
    table = preference_table(deltas, ["NMD", "RNOD"], 1e-12)
    assert list(table.columns) == ["dataset", "measure", "uniform", "popularity", "ties"]
    rows = {(row.dataset, row.measure): (row.uniform, row.popularity, row.ties) for row in table.itertuples()}
    assert rows[("A", "NMD")] == (1, 2, 0)
    assert rows[("A", "RNOD")] == (2, 0, 1)
    assert rows[("B", "NMD")] == (0, 1, 1)
    assert rows[("TOTAL", "NMD")] == (1, 3, 1)
    assert rows[("TOTAL", "RNOD")] == (3, 1, 1)
    assert list(table["dataset"]) == ["A", "A", "B", "B", "TOTAL", "TOTAL"]


def test_preference_latex_bolds_the_larger_count_and_puts_total_last():
    deltas = {"A_1": Deltas(["NMD", "RNOD"], ["t1", "t2"], np.array([[-1.0, -1.0], [1.0, -1.0]]))}
    table = preference_table(deltas, ["NMD", "RNOD"], 1e-12)
    latex = preference_latex(table, ["NMD", "RNOD"], "unused")
    assert r"A\_1 & 0 & \textbf{2} & 1 & 1 \\" in latex
    assert latex.index(r"\midrule", latex.index(r"A\_1")) < latex.index("TOTAL")
    assert "T &" not in latex  # no tie column when nothing ties


def test_preference_latex_of_an_empty_table_says_why():
    table = preference_table({}, MEASURES, 1e-12)
    assert table.empty and list(table.columns) == ["dataset", "measure", "uniform", "popularity", "ties"]
    latex = preference_latex(table, MEASURES, "No data set has both runs P and U.")
    assert "No data set has both runs P and U." in latex and latex.startswith(r"\begin{tabular}")


def test_quadrant_counts_ignore_points_on_the_axes():
    x = np.array([-1.0, -1.0, 1.0, 1.0, 0.0, -1.0, 1e-13])
    y = np.array([1.0, 2.0, -1.0, 1.0, 1.0, 0.0, -1.0])
    counts = quadrant_counts(x, y, 1e-12)
    assert (counts.second, counts.fourth) == (2, 1)


def test_scatter_pairs_follow_the_paper():
    assert scatter_pairs(MEASURES) == [
        ("NMD", "RSNOD"),
        ("NMD", "RNOD"),
        ("NMD", "NVD"),
        ("NMD", "RNSS"),
        ("NMD", "JSD"),
        ("RNOD", "NVD"),
        ("RNOD", "RNSS"),
        ("RNOD", "JSD"),
    ]
    assert scatter_pairs(["RNOD", "JSD"]) == [("RNOD", "JSD")]


def test_scatter_panels_give_pearson_r_with_fisher_ci():
    rng = np.random.default_rng(1)
    x = rng.normal(size=50)
    deltas = Deltas(["NMD", "RNOD"], [f"t{i}" for i in range(50)], np.stack([x, x + rng.normal(scale=0.5, size=50)]))
    (panel,) = scatter_panels(deltas, 1e-12, 0.95)
    r = np.corrcoef(deltas.values)[0, 1]
    assert panel.correlation.r == pytest.approx(r)
    half_width = 1.959963984540054 / np.sqrt(47)
    assert panel.correlation.low == pytest.approx(np.tanh(np.arctanh(r) - half_width))
    assert panel.correlation.high == pytest.approx(np.tanh(np.arctanh(r) + half_width))


def test_most_negative_d_picks_the_smallest_nmd_minus_rnod():
    deltas = Deltas(["NMD", "RNOD"], ["a", "b", "c", "d"], np.array([[-0.1, -0.3, 0.0, -0.25], [0.1, 0.0, 0.0, 0.25]]))
    examples = most_negative_d(deltas, 2)
    assert [example.topic for example in examples] == ["d", "b"]
    assert [example.d for example in examples] == pytest.approx([-0.5, -0.3])
    assert (examples[0].delta_nmd, examples[0].delta_rnod) == (-0.25, 0.25)
    assert list(deltas_table({"X": deltas})["d"]) == pytest.approx([-0.2, -0.3, 0.0, -0.5])


# --------------------------------------------------------------------------- which data sets take part


def test_declared_run_names_cover_every_source_type(tmp_path):
    table = pd.DataFrame({"topic": ["t1", "t1"], "run": ["R1", "R2"], "class": [0, 0], "prob": [1.0, 1.0]})
    write_table(table, tmp_path / "runs.tsv")
    spec = {
        "runs": [
            {"type": "popularity", "name": "BL-popularity-C"},
            {"type": "simulate", "systems": 2, "english_variants": 1, "prefix": "S"},
            {"type": "tsv", "path": "runs.tsv"},
            {"type": "tsv", "path": "runs.tsv", "runs": ["R2"]},
            {"type": "tsv", "path": "missing.tsv"},
            {"type": "semeval_dist", "path": "x.txt", "name": "TEAM"},
        ]
    }
    assert declared_run_names(spec, tmp_path) == [
        "BL-popularity-C",
        "S01-C",
        "S02-C",
        "S01-E",
        "R1",
        "R2",
        "R2",
        "TEAM",
    ]


def test_origin_of_baselines_on_real_gold_is_real():
    provenance = {
        "gold": {"source": "file"},
        "runs": {"P": {"source": "baseline"}, "U": {"source": "baseline"}, "S": {"source": "simulated"}},
    }
    assert origin_of_runs(provenance, ["P", "U"]) == "real"
    assert origin_of_runs(provenance, ["P", "S"]) == "partly synthetic"
    assert origin_of_runs({**provenance, "gold": {"source": "simulated"}}, ["P", "U"]) == "synthetic"


# --------------------------------------------------------------------------- rule scripts


def _write_scores(directory, dataset: str, stack: ScoreStack, gold_source="simulated") -> tuple[dict, str]:
    paths = {}
    for measure in stack.measures:
        paths[measure] = str(directory / dataset / f"{measure}.tsv")
        write_table(score_table(stack, measure), paths[measure])
    provenance = str(directory / dataset / "provenance.json")
    runs = {run: {"source": "baseline"} for run in stack.runs}
    write_json({"origin": "synthetic", "gold": {"source": gold_source}, "runs": runs}, provenance)
    return paths, provenance


def test_table_script_without_a_qualifying_data_set_writes_empty_tables_with_a_note(tmp_path):
    _, provenance = _write_scores(tmp_path, "Sem", _stack({"X": [[0.1], [0.2]], "Y": [[0.3], [0.4]]}))
    out = tmp_path / "out"
    popularity_table.main(
        {}, {"Sem": provenance}, {"Sem": "no run P"}, ["NMD", "RNOD"], "P", "U", 1e-12,
        out / "t.csv", out / "t.tex", out / "d.csv",
    )  # fmt: skip
    table = pd.read_csv(out / "t.csv")
    assert table.empty and list(table.columns) == ["dataset", "measure", "uniform", "popularity", "ties", "data_origin"]
    latex = (out / "t.tex").read_text()
    assert "No data set has both runs P and U." in latex and "Sem" in latex
    assert "SYNTHETIC" in latex
    assert list(pd.read_csv(out / "d.csv").columns)[:2] == ["dataset", "topic"]
    popularity_examples.main({}, {"Sem": provenance}, {"Sem": "no run P"}, "P", "U", out / "e.pdf", out / "e.png")
    assert (out / "e.pdf").stat().st_size > 0 and (out / "e.png").stat().st_size > 0


def test_scripts_on_real_gold_say_the_numbers_are_real(tmp_path):
    stack = _stack({"U": [[0.3, 0.2, 0.1, 0.2, 0.3]] * 2, "P": [[0.1, 0.4, 0.2, 0.1, 0.5], [0.2, 0.1, 0.3, 0.1, 0.6]]})
    paths, provenance = _write_scores(tmp_path, "Real", stack, gold_source="file")
    out = tmp_path / "out"
    table = popularity_table.main(
        {"Real": paths}, {"Real": provenance}, {}, ["NMD", "RNOD"], "P", "U", 1e-12,
        out / "t.csv", out / "t.tex", out / "d.csv",
    )  # fmt: skip
    assert set(pd.read_csv(out / "t.csv")["data_origin"]) == {"real"}
    assert "Real data" in (out / "t.tex").read_text()
    assert table.query("dataset == 'TOTAL' and measure == 'NMD'")[["uniform", "popularity"]].values.tolist() == [[3, 2]]
    panels = popularity_scatter.main(
        "Real", paths, provenance, "P", "U", 1e-12, 0.95,
        out / "s.pdf", out / "s.png", out / "s.csv", out / "s.tex",
    )  # fmt: skip
    assert [(panel.x, panel.y) for panel in panels] == [("NMD", "RNOD")]
    assert list(pd.read_csv(out / "s.csv")["data_origin"]) == ["real"]


# --------------------------------------------------------------------------- the workflow


def test_workflow_writes_the_popularity_outputs(tmp_path):
    config = tiny_config(popularity={"measures": MEASURES})
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "tiny"
    table = pd.read_csv(results / "tables" / "popularity_vs_uniform.csv")
    assert list(table.columns) == ["dataset", "measure", "uniform", "popularity", "ties", "data_origin"]
    assert set(table["dataset"]) == {"TinyDQ", "TOTAL"}  # TinySem has no baselines
    assert (table[["uniform", "popularity", "ties"]].sum(axis=1) == 14).all()
    assert set(table["data_origin"]) == {"synthetic"}
    deltas = pd.read_csv(results / "tables" / "popularity_deltas.csv")
    assert list(deltas.columns) == ["dataset", "topic", *[f"delta_{m}" for m in MEASURES], "d", "data_origin"]
    assert len(deltas) == 14
    panels = pd.read_csv(results / "tables" / "popularity_scatter" / "TinyDQ.csv")
    assert list(panels.columns) == [
        "dataset", "x", "y", "second_quadrant", "fourth_quadrant", "r", "r_low", "r_high", "n", "data_origin",
    ]  # fmt: skip
    assert len(panels) == 8
    for path in [
        "figures/popularity_scatter/TinyDQ.pdf",
        "figures/popularity_scatter/TinyDQ.png",
        "tables/popularity_scatter/TinyDQ.tex",
        "tables/popularity_vs_uniform.tex",
        "figures/popularity_examples.pdf",
        "figures/popularity_examples.png",
    ]:
        assert (results / path).stat().st_size > 0, path
    assert not (results / "figures" / "popularity_scatter" / "TinySem.pdf").exists()
    log = (results / "logs" / "popularity_table.log").read_text()
    assert "TinySem skipped" in log


def test_workflow_without_baselines_still_writes_the_tables(tmp_path):
    config = tiny_config(popularity={"measures": ["NMD", "RNOD"]})
    config["datasets"] = {"TinySem": config["datasets"]["TinySem"]}
    run_workflow(tmp_path, config)
    results = tmp_path / "results" / "tiny"
    assert pd.read_csv(results / "tables" / "popularity_vs_uniform.csv").empty
    assert "No data set has both runs" in (results / "tables" / "popularity_vs_uniform.tex").read_text()
    assert (results / "figures" / "popularity_examples.png").stat().st_size > 0
    provenance = json.loads((results / "data" / "TinySem" / "provenance.json").read_text())
    assert provenance["origin"] == "synthetic"
