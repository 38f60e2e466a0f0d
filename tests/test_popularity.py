"""Popularity vs Uniform (SPEC 4.6): baselines, deltas, win/loss counts, scatter statistics, outputs."""

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import canonical_files, run_rule_script

from ordeval.analysis.popularity import (
    Deltas,
    compute_deltas,
    count_preferences,
    deltas_table,
    most_negative_d,
    preference_table,
    quadrant_counts,
    scatter_pairs,
    scatter_panels,
)
from ordeval.io.files import write_json
from ordeval.io.provenance import origin_of_runs
from ordeval.io.table import Table
from ordeval.reports.latex import measure_label
from ordeval.reports.latex.popularity import preference_latex
from ordeval.tasks.quantification import TASK, baselines
from ordeval.tasks.quantification.data import Dataset
from ordeval.tasks.quantification.measures import get_measure
from ordeval.tasks.stack import ScoreStack, score_files, write_scores

MEASURES = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]
LABELS = {name: measure_label(name) for name in [*MEASURES, "HIGH"]}


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


def _stack(values_by_run: dict[str, list[list[float]]], measures=("NMD", "RNOD"), lower_is_better=()) -> ScoreStack:
    """measures x topics x runs from {run: [per-measure topic scores]}."""
    runs = list(values_by_run)
    values = np.stack([np.array(values_by_run[run], dtype=float) for run in runs], axis=-1)
    return ScoreStack(list(measures), [f"t{i}" for i in range(values.shape[1])], runs, values, list(lower_is_better))


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
    rows = {
        (row["dataset"], row["measure"]): (row["uniform"], row["popularity"], row["ties"]) for row in table.records()
    }
    assert rows[("A", "NMD")] == (1, 2, 0)
    assert rows[("A", "RNOD")] == (2, 0, 1)
    assert rows[("B", "NMD")] == (0, 1, 1)
    assert rows[("TOTAL", "NMD")] == (1, 3, 1)
    assert rows[("TOTAL", "RNOD")] == (3, 1, 1)
    assert list(table["dataset"]) == ["A", "A", "B", "B", "TOTAL", "TOTAL"]


def test_preference_latex_bolds_the_larger_count_and_puts_total_last():
    deltas = {"A_1": Deltas(["NMD", "RNOD"], ["t1", "t2"], np.array([[-1.0, -1.0], [1.0, -1.0]]))}
    table = preference_table(deltas, ["NMD", "RNOD"], 1e-12)
    latex = preference_latex(table, ["NMD", "RNOD"], LABELS, "unused")
    assert r"A\_1 & 0 & \textbf{2} & 1 & 1 \\" in latex
    assert latex.index(r"\midrule", latex.index(r"A\_1")) < latex.index("TOTAL")
    assert "T &" not in latex  # no tie column when nothing ties


def test_preference_latex_of_an_empty_table_says_why():
    table = preference_table({}, MEASURES, 1e-12)
    assert len(table) == 0 and list(table.columns) == ["dataset", "measure", "uniform", "popularity", "ties"]
    latex = preference_latex(table, MEASURES, LABELS, "No data set has both runs P and U.")
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
    table = Table({"topic": ["t1", "t1"], "run": ["R1", "R2"], "class": [0, 0], "prob": [1.0, 1.0]})
    table.write(tmp_path / "runs.tsv")
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
    assert TASK.declared_runs(spec, tmp_path) == [
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


# --------------------------------------------------------------------------- directions


def test_a_higher_is_better_measure_prefers_the_baseline_it_scores_higher():
    """HIGH scores Popularity higher than Uniform on two topics: it prefers Popularity there."""
    stack = _stack(
        {"U": [[0.3, 0.2, 0.1], [0.5, 0.5, 0.5]], "P": [[0.1, 0.4, 0.2], [0.7, 0.6, 0.4]]},
        measures=("NMD", "HIGH"),
        lower_is_better=(True, False),
    )
    deltas = compute_deltas(stack, "P", "U")
    np.testing.assert_allclose(deltas.of("HIGH"), [0.2, 0.1, -0.1])  # the table of deltas keeps the raw delta
    np.testing.assert_allclose(deltas.oriented("HIGH"), [-0.2, -0.1, 0.1])  # < 0: prefers Popularity
    table = preference_table({"A": deltas}, ["NMD", "HIGH"], 1e-12)
    rows = {
        (row["dataset"], row["measure"]): (row["uniform"], row["popularity"], row["ties"]) for row in table.records()
    }
    assert rows[("A", "HIGH")] == (1, 2, 0)
    assert rows[("A", "NMD")] == (2, 1, 0)
    assert rows[("TOTAL", "HIGH")] == (1, 2, 0)
    assert count_preferences(np.array([0.2, 0.1, -0.1]), 1e-12, lower_is_better=False) == count_preferences(
        np.array([-0.2, -0.1, 0.1]), 1e-12
    )


def test_scatter_panels_use_oriented_deltas():
    """A measure and its negation (higher is better) prefer the same baseline on every topic."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=20)
    deltas = Deltas(["NMD", "HIGH"], [f"t{i}" for i in range(20)], np.stack([x, -x]), [True, False])
    (panel,) = [panel for panel in scatter_panels(deltas, 1e-12, 0.95) if panel.y == "HIGH"]
    assert panel.correlation.r == pytest.approx(1.0)
    assert (panel.quadrants.second, panel.quadrants.fourth) == (0, 0)


# --------------------------------------------------------------------------- the popularity scripts


def _write_scores(directory, dataset: str, stack: ScoreStack, gold_source="simulated") -> tuple[str, str]:
    paths = write_scores(stack, score_files(stack, directory / dataset))
    provenance = str(directory / dataset / "provenance.json")
    runs = {run: {"source": "baseline"} for run in stack.runs}
    origin = "synthetic" if gold_source == "simulated" else "real"  # as the record's own sources make it
    write_json({"dataset": dataset, "origin": origin, "gold": {"source": gold_source}, "runs": runs}, provenance)
    return str(paths["stack"]), provenance


def _write_canonical(directory, dataset: str, stack: ScoreStack) -> dict[str, str]:
    """Canonical gold, runs and arrays of ``dataset`` (three classes, the topics and runs of ``stack``), as
    rule prepare_data writes them beside its provenance (written again, unchanged)."""
    folder = directory / dataset
    provenance = json.loads((folder / "provenance.json").read_text())
    rng = np.random.default_rng(0)
    data = Dataset(
        dataset,
        ["a", "b", "c"],
        list(stack.topics),
        list(stack.runs),
        provenance,
        gold=rng.dirichlet(np.ones(3), len(stack.topics)),
        runs=rng.dirichlet(np.ones(3), (len(stack.runs), len(stack.topics))),
    )
    files = canonical_files(folder)
    TASK.write_canonical(data, files)
    return {key: files[key] for key in ("gold", "runs", "arrays")}


def _settings(measures) -> dict:
    """The params the popularity rules share (workflow/rules/popularity.smk, POPULARITY_SETTINGS)."""
    return {"popularity_run": "P", "uniform_run": "U", "ci_level": 0.95, "measures": measures}


def _outputs(folder, stem, *exts) -> dict[str, str]:
    return {ext: str(folder / f"{stem}.{ext}") for ext in exts}


def _table_outputs(folder) -> dict[str, str]:
    """The outputs of rule popularity_tables, written to ``folder``."""
    return {
        **_outputs(folder, "t", "csv", "html", "tex"),
        "deltas": str(folder / "d.csv"),
        "deltas_html": str(folder / "d.html"),
    }


def test_tables_without_a_qualifying_data_set_are_empty_with_a_note(tmp_path):
    _, provenance = _write_scores(tmp_path, "Sem", _stack({"X": [[0.1], [0.2]], "Y": [[0.3], [0.4]]}))
    out = tmp_path / "out"
    settings = _settings([])  # no data set compared: no measures either
    gathering = {"skipped": {"Sem": "no run P"}, "datasets": [], "all_datasets": ["Sem"]}
    output = _table_outputs(out)
    run_rule_script(
        "popularity_tables",
        input={"stack": [], "tables": [], "provenance": [provenance]},
        output=output,
        params={**settings, **gathering, "tie_tolerance": 1e-12},
    )
    table = Table.read(out / "t.csv", sep=",")
    assert len(table) == 0
    assert table.columns == ["dataset", "measure", "uniform", "popularity", "ties", "data_origin"]
    latex = (out / "t.tex").read_text()
    assert "No data set has both P and U." in latex and "Sem: no run P" in latex
    assert "SYNTHETIC" in latex
    assert Table.read(out / "d.csv", sep=",").columns[:2] == ["dataset", "topic"]
    inputs = {"stack": [], "tables": [], "gold": [], "runs": [], "arrays": [], "provenance": [provenance]}
    gathering = {**gathering, "compared": [], "classes": {}}
    log = tmp_path / "examples.log"
    run_rule_script(
        "popularity_examples",
        input=inputs,
        output=_outputs(out, "e", "pdf", "png"),
        params={**settings, **gathering},
        log=str(log),
    )
    assert (out / "e.pdf").stat().st_size > 0 and (out / "e.png").stat().st_size > 0
    assert "0 example panels" in log.read_text()


def test_scripts_on_real_gold_say_the_numbers_are_real(tmp_path):
    stack = _stack({"U": [[0.3, 0.2, 0.1, 0.2, 0.3]] * 2, "P": [[0.1, 0.4, 0.2, 0.1, 0.5], [0.2, 0.1, 0.3, 0.1, 0.6]]})
    stack_path, provenance = _write_scores(tmp_path, "Real", stack, gold_source="file")
    canonical = _write_canonical(tmp_path, "Real", stack)
    out = tmp_path / "out"
    settings = _settings(["NMD", "RNOD"])
    # per data set: the scatter table and plots
    scatter = _outputs(out, "s", "csv", "html", "tex", "pdf", "png")
    run_rule_script(
        "popularity_scatter",
        input={"stack": stack_path, "tables": [], "provenance": provenance},
        output=scatter,
        params={**settings, "tie_tolerance": 1e-12},
        wildcards={"dataset": "Real"},
    )
    panels = Table.read(scatter["csv"], sep=",")
    assert list(zip(panels["x"], panels["y"], strict=True)) == [("NMD", "RNOD")]
    assert list(panels["data_origin"]) == ["real"] and "Real data" in Path(scatter["tex"]).read_text()
    assert Path(scatter["pdf"]).stat().st_size > 0 and Path(scatter["png"]).stat().st_size > 0
    # over the data sets: the preference table and the deltas
    gathering = {"skipped": {}, "datasets": ["Real"], "all_datasets": ["Real"]}
    output = _table_outputs(out)
    run_rule_script(
        "popularity_tables",
        input={"stack": [stack_path], "tables": [], "provenance": [provenance]},
        output=output,
        params={**settings, **gathering, "tie_tolerance": 1e-12},
    )
    table = Table.read(out / "t.csv", sep=",", integer=["uniform", "popularity"])
    assert set(table["data_origin"]) == {"real"}
    assert "Real data" in (out / "t.tex").read_text()
    total = [row for row in table.records() if row["dataset"] == "TOTAL" and row["measure"] == "NMD"]
    assert [[row["uniform"], row["popularity"]] for row in total] == [[3, 2]]
    # an OQ data set with NMD and RNOD: its example topics are drawn from its canonical data
    inputs = {
        "stack": [stack_path],
        "tables": [],
        **{key: [path] for key, path in canonical.items()},
        "provenance": [provenance],
    }
    gathering = {**gathering, "compared": ["Real"], "classes": {"Real": ["a", "b", "c"]}}
    log = tmp_path / "examples.log"
    run_rule_script(
        "popularity_examples",
        input=inputs,
        output=_outputs(out, "e", "pdf", "png"),
        params={**settings, **gathering},
        log=str(log),
    )
    assert (out / "e.png").stat().st_size > 0 and "2 example panels" in log.read_text()
