"""The whole pipeline on a tiny configuration in a temporary directory (run once per module)."""

import pandas as pd
import pytest
from conftest import run_workflow, tiny_config
from tabular_check import check_tabular

from ordeval.scoring import read_score_matrix

TINY_SHAPES = {"TinySem": (12, 7), "TinyDQ": (14, 10)}  # topics, runs


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """(workdir, config, results folder) after running the whole workflow on the tiny config."""
    workdir = tmp_path_factory.mktemp("tiny")
    config = tiny_config()
    run_workflow(workdir, config)
    return workdir, config, workdir / "results" / "tiny"


def test_pipeline_runs_on_tiny_config_and_then_has_nothing_to_do(tiny_run):
    workdir, config, results = tiny_run
    for dataset, (topics, runs) in TINY_SHAPES.items():
        for measure in config["measures"]:
            these_topics, these_runs, values = read_score_matrix(results / "scores" / dataset / f"{measure}.tsv")
            assert values.shape == (topics, runs)
        assert (results / "data" / dataset / "gold.tsv").is_file()
    second = run_workflow(workdir, config, "--dry-run")
    assert "Nothing to be done" in second.stdout + second.stderr


def _csv(path, columns):
    """Read a CSV and check that its columns are ``columns`` then ``data_origin``."""
    frame = pd.read_csv(path)
    assert list(frame.columns) == [*columns, "data_origin"], path
    return frame


def test_agreement_outputs(tiny_run):
    _, _, results = tiny_run
    tables = results / "tables" / "agreement"
    pair_columns = ["measure_a", "measure_b", "tau", "ci_low", "ci_high"]
    measures = ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD"]  # default
    for name in [*TINY_SHAPES, "mean"]:
        frame = _csv(tables / f"{name}.csv", pair_columns)
        assert len(frame) == 45 and frame.measure_a.iloc[0] == "NMD" and frame.measure_b.iloc[0] == "RNADW"
        assert frame.tau.between(-1, 1).all()
        assert frame.ci_low.isna().all() == (name == "mean")
        check_tabular((tables / f"{name}.tex").read_text())
    similarity = _csv(tables / "similarity.csv", ["measure", *TINY_SHAPES, "mean"])
    assert similarity.measure.tolist() == measures
    for measure in ["JSD", "NMD", "RNOD"]:
        frame = _csv(tables / f"dnkt_{measure}.csv", ["dataset", *pair_columns])
        assert frame.dataset.tolist() == [d for d in [*TINY_SHAPES, "mean"] for _ in range(3)]
        check_tabular((tables / f"dnkt_{measure}.tex").read_text())
    for ext in ["pdf", "png"]:
        assert (results / "figures" / "agreement" / f"mean_heatmap.{ext}").stat().st_size > 0


def test_consistency_outputs(tiny_run):
    _, config, results = tiny_run
    measures = config["measures"]  # the consistency default: every scored measure
    for dataset in TINY_SHAPES:
        for condition in ["half", "10v10"]:
            taus = pd.read_csv(results / "consistency" / dataset / f"{condition}.tsv", sep="\t")
            assert list(taus.columns) == measures and len(taus) == config["consistency"]["trials"]
            stem = results / "tables" / "consistency" / f"{dataset}_{condition}"
            table = _csv(f"{stem}.csv", ["measure", "mean_tau", "outperforms", "ve2", "trials"])
            assert sorted(table.measure) == sorted(measures)
            assert table.mean_tau.is_monotonic_decreasing
            _csv(f"{stem}_pairs.csv", ["measure_a", "measure_b", "difference", "effect_size", "p_value", "significant"])
            for suffix in ["", "_pairs"]:
                check_tabular(open(f"{stem}{suffix}.tex").read())
            for ext in ["pdf", "png"]:
                assert (results / "figures" / "consistency" / f"{dataset}_{condition}.{ext}").stat().st_size > 0
    for condition in ["half", "10v10"]:
        mean = _csv(results / "tables" / "consistency" / f"mean_{condition}.csv", ["measure", *TINY_SHAPES, "mean"])
        assert mean["mean"].is_monotonic_decreasing
        check_tabular((results / "tables" / "consistency" / f"mean_{condition}.tex").read_text())


def test_report_inputs_every_table_and_includes_every_figure(tiny_run):
    import os
    import shutil

    from ordeval.outputs import figure_caption

    _, config, results = tiny_run
    document = (results / "report" / "ordeval.tex").read_text()
    fragments = sorted(results.glob("tables/**/*.tex"))
    figures = sorted(results.glob("figures/**/*.pdf"))
    assert fragments and figures
    for path in fragments:
        assert f"\\input{{{os.path.relpath(path, results / 'report')}}}" in document, path
    for path in figures:
        assert f"{{{os.path.relpath(path, results / 'report')}}}" in document, path
        assert "SYNTHETIC data" in figure_caption(path.with_suffix(".png")), path
    assert document.count("\\caption") == len(fragments) + len(figures)  # \\caption or \\captionof
    assert f"Seed {config['seed']}." in document and "SYNTHETIC" in document
    if shutil.which("pdflatex"):  # report: pdf: auto
        assert (results / "report" / "ordeval.pdf").read_bytes().startswith(b"%PDF")


def test_html_report_has_every_figure_and_table(tiny_run):
    workdir, config, results = tiny_run
    run_workflow(workdir, config, "--report", "results/tiny/report.html")
    html = (results / "report.html").read_text(errors="replace")
    assert "2 Ranking agreement" in html and "7 Popularity vs Uniform" in html
    for path in [*results.glob("figures/**/*.png"), *results.glob("tables/**/*.csv")]:
        assert path.name in html, path
