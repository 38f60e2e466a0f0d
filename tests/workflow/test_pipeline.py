"""The whole pipeline on the tiny configuration (run once per session): every stage's outputs, their
formats, the plugin measures everywhere, directions honoured, the reports, and nothing to do afterwards."""

import copy
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import OC_MEASURES, PLAIN_OUTPUT, REPO, run_workflow
from tabular_check import check_tabular

from ordeval.analysis.classification import PROPERTY_ORDER
from ordeval.analysis.groups import parse_groups
from ordeval.io.files import png_description
from ordeval.tasks.stack import read_score_matrix, read_stack

OQ = {"TinySem": (12, 7), "TinyDQ": (14, 10)}  # topics, runs
OC = {"TinyOC": (14, 7)}
SHAPES = {**OQ, **OC}
PLUGIN = ["MAXDIFF", "OVERLAP"]
#: The papers' agreement list, then the measures the papers do not know.
OQ_AGREEMENT = ["NMD", "RNADW", "RNOD", "RNADW2", "RNOD2", "NVD", "RNSS", "JSD", "DNKT", "RSNOD", *PLUGIN]
OQ_SIGNIFICANCE = ["NMD", "RSNOD", "RNOD", "NVD", "RNSS", "JSD", *PLUGIN]


def csv(path, columns):
    """A CSV whose columns are ``columns`` then ``data_origin``."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
    assert list(frame.columns) == [*columns, "data_origin"], path
    return frame


def test_every_run_is_scored_on_every_topic_and_a_second_run_has_nothing_to_do(pipeline):
    for dataset, (topics, runs) in SHAPES.items():
        stack = read_stack(pipeline.results / "scores" / dataset / "stack.npz")
        expected = OC_MEASURES if dataset in OC else [m for m in pipeline.config["measures"] if m not in OC_MEASURES]
        assert stack.measures == expected and stack.values.shape == (len(expected), topics, runs)
        for measure in expected:
            these_topics, these_runs, values = read_score_matrix(
                pipeline.results / "scores" / dataset / f"{measure}.tsv"
            )
            assert (these_topics, these_runs) == (stack.topics, stack.runs)
            np.testing.assert_array_equal(values, stack.matrix(measure))
        means = pd.read_csv(pipeline.results / "scores" / dataset / "means.tsv", sep="\t")
        np.testing.assert_allclose(means[expected].to_numpy().T, stack.means(), rtol=1e-12)
    directions = pd.read_csv(pipeline.results / "scores" / "TinyDQ" / "measures.tsv", sep="\t", keep_default_na=False)
    assert dict(zip(directions.measure, directions.lower_is_better, strict=True))["OVERLAP"] == False  # noqa: E712
    second = pipeline.again("--dry-run")
    assert "Nothing to be done" in second.stdout + second.stderr


def test_agreement_outputs_rank_by_each_measures_direction(pipeline):
    tables = pipeline.results / "tables" / "agreement"
    columns = ["measure_a", "measure_b", "tau", "ci_low", "ci_high"]
    for name in [*OQ, "mean"]:
        frame = csv(tables / f"{name}.csv", columns)
        assert len(frame) == len(OQ_AGREEMENT) * (len(OQ_AGREEMENT) - 1) // 2
        assert frame.measure_a.iloc[0] == "NMD" and frame.measure_b.iloc[0] == "RNADW"
        assert frame.tau.between(-1, 1).all() and frame.ci_low.isna().all() == (name == "mean")
        check_tabular((tables / f"{name}.tex").read_text())
    # OVERLAP = 1 - NVD, higher is better: ranked best first it agrees perfectly with NVD
    pair = csv(tables / "TinyDQ.csv", columns).query("measure_a == 'NVD' and measure_b == 'OVERLAP'")
    assert pair.tau.iloc[0] == pytest.approx(1.0)
    assert csv(tables / "similarity.csv", ["measure", *OQ, "mean"]).measure.tolist() == OQ_AGREEMENT
    for measure in ["JSD", "NMD", "RNOD"]:
        frame = csv(tables / f"dnkt_{measure}.csv", ["dataset", *columns])
        assert frame.dataset.tolist() == [d for d in [*OQ, "mean"] for _ in range(3)]
    oc = csv(tables / "mean_oc.csv", columns)
    assert len(oc) == 36 and oc.measure_a.iloc[0] == "alpha_ORD"
    for suffix in ("", "_oc"):
        assert (pipeline.results / "figures" / "agreement" / f"mean_heatmap{suffix}.png").stat().st_size > 0


def test_consistency_outputs(pipeline):
    config = pipeline.config
    for dataset in SHAPES:
        expected = OC_MEASURES if dataset in OC else [m for m in config["measures"] if m not in OC_MEASURES]
        for condition in ["half", "10v10"]:
            taus = pd.read_csv(pipeline.results / "consistency" / dataset / f"{condition}.tsv", sep="\t")
            assert list(taus.columns) == expected and len(taus) == config["consistency"]["trials"]
            stem = pipeline.results / "tables" / "consistency" / f"{dataset}_{condition}"
            table = csv(f"{stem}.csv", ["measure", "mean_tau", "outperforms", "ve2", "trials"])
            assert sorted(table.measure) == sorted(expected) and table.mean_tau.is_monotonic_decreasing
            csv(f"{stem}_pairs.csv", ["measure_a", "measure_b", "difference", "effect_size", "p_value", "significant"])
            for suffix in ["", "_pairs"]:
                check_tabular(Path(f"{stem}{suffix}.tex").read_text())
            assert (pipeline.results / "figures" / "consistency" / f"{dataset}_{condition}.pdf").stat().st_size > 0
    for condition in ["half", "10v10"]:
        mean = csv(pipeline.results / "tables" / "consistency" / f"mean_{condition}.csv", ["measure", *OQ, "mean"])
        assert mean["mean"].is_monotonic_decreasing
        csv(pipeline.results / "tables" / "consistency" / f"mean_{condition}_oc.csv", ["measure", *OC, "mean"])


def test_significance_outputs(pipeline):
    results, tables = pipeline.results, pipeline.results / "tables"
    for dataset in SHAPES:
        pvalues = pd.read_csv(results / "significance" / dataset / "pvalues.tsv", sep="\t")
        assert list(pvalues.columns) == ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]
        assert pvalues.p.between(0, 1).all()
        csv(tables / "sso" / f"{dataset}.csv", ["measure_a", "measure_b", "a", "b", "c", "sso"])
        assert (results / "figures" / "dp_curves" / f"{dataset}.png").stat().st_size > 0
    power = csv(tables / "discriminative_power.csv", ["dataset", "measure", "significant", "pairs", "percent"])
    assert list(dict.fromkeys(power.dataset)) == [*OQ, "POOLED"]
    assert list(dict.fromkeys(power.measure)) == OQ_SIGNIFICANCE
    power_oc = csv(tables / "discriminative_power_oc.csv", ["dataset", "measure", "significant", "pairs", "percent"])
    assert (
        list(dict.fromkeys(power_oc.dataset)) == [*OC, "POOLED"]
        and list(dict.fromkeys(power_oc.measure)) == OC_MEASURES
    )
    csv(tables / "contradictions.csv", ["dataset", "measure_a", "measure_b", "run_x", "run_y"])
    groups = pd.read_csv(results / "significance" / "TinyDQ" / "identical_runs.tsv", sep="\t")
    assert set(groups.loc[groups.run.str.startswith("BL-popularity"), "identical_set"]) == {"BL-popularity-{C,E}"}
    for suffix in ("", "_oc"):
        assert (results / "figures" / "dp_curves" / f"all{suffix}.png").stat().st_size > 0


def test_popularity_outputs_follow_each_measures_direction(pipeline):
    results = pipeline.results
    table = csv(
        results / "tables" / "popularity_vs_uniform.csv", ["dataset", "measure", "uniform", "popularity", "ties"]
    )
    assert set(table.dataset) == {"TinyDQ", "TOTAL"}  # the others have no baselines
    assert (table[["uniform", "popularity", "ties"]].sum(axis=1) == 14).all()
    counts = table.set_index(["dataset", "measure"])
    # OVERLAP = 1 - NVD with the opposite direction: the same preferences
    assert counts.loc[("TinyDQ", "OVERLAP")].tolist()[:3] == counts.loc[("TinyDQ", "NVD")].tolist()[:3]
    deltas = csv(
        results / "tables" / "popularity_deltas.csv",
        ["dataset", "topic", *[f"delta_{m}" for m in OQ_SIGNIFICANCE], "d"],
    )
    assert len(deltas) == 14
    for path in [
        "figures/popularity_scatter/TinyDQ.png",
        "tables/popularity_scatter/TinyDQ.tex",
        "figures/popularity_examples.png",
    ]:
        assert (results / path).stat().st_size > 0, path
    assert not (results / "figures" / "popularity_scatter" / "TinySem.pdf").exists()
    assert (
        "TinySem: it has no run BL-popularity-C or BL-uniform-C"
        in (results / "logs" / "popularity_tables.log").read_text()
    )


def test_leaderboards_agree_with_the_scores_and_the_hsd_pvalues(pipeline):
    results = pipeline.results
    alpha = 0.05
    for dataset in SHAPES:
        board = csv(
            results / "tables" / "leaderboard" / f"{dataset}.csv",
            ["measure", "rank", "run", "mean", "ci_low", "ci_high", "group", "lower_is_better"],
        )
        means = pd.read_csv(results / "scores" / dataset / "means.tsv", sep="\t").set_index("run")
        pvalues = pd.read_csv(results / "significance" / dataset / "pvalues.tsv", sep="\t")
        for measure, rows in board.groupby("measure", sort=False):
            np.testing.assert_allclose(rows.set_index("run")["mean"], means.loc[rows.run, measure], rtol=1e-12)
            assert (rows.ci_low <= rows["mean"]).all() and (rows["mean"] <= rows.ci_high).all()
            letters = dict(zip(rows.run, rows.group, strict=True))
            for pair in pvalues[pvalues.measure == measure].itertuples():
                shares = bool(set(parse_groups(letters[pair.run_a])) & set(parse_groups(letters[pair.run_b])))
                assert shares == (pair.p >= alpha), (dataset, measure, pair.run_a, pair.run_b, pair.p)
        assert (
            (results / "tables" / "leaderboard" / f"{dataset}.md").read_text().startswith(f"# Leaderboard: {dataset}")
        )
        assert (results / "figures" / "leaderboard" / f"{dataset}.png").stat().st_size > 0


def test_classification_outputs(pipeline):
    tables = pipeline.results / "tables" / "oc"
    columns = [
        "measure",
        "ordinal",
        "handles_constant",
        "handles_imbalance",
        "similarity_cluster",
        "consistency",
        "mean_tau",
        "discriminative_power",
        "pooled_dp_percent",
    ]
    properties = csv(tables / "properties.csv", columns)
    # the paper's Table 4 row order, not the Table 2 order of the other OC tables
    assert properties.measure.tolist() == list(PROPERTY_ORDER) and sorted(PROPERTY_ORDER) == sorted(OC_MEASURES)
    assert set(properties.consistency) <= {"good", "fair", "poor"} and set(properties.similarity_cluster) <= {
        "A",
        "B",
        "A/B",
    }
    kappa = csv(
        tables / "kappa_constant.csv", ["dataset", "run", "class", "topics", "defined", "kappa_zero", "kappa_not_zero"]
    )
    assert kappa.run.tolist() == ["BL-neutral"] and (kappa.kappa_zero == kappa.defined).all()
    pooled = csv(tables / "pooled.csv", ["dataset", "run", *OC_MEASURES])
    assert len(pooled) == 7
    conventions = pd.read_csv(pipeline.results / "scores" / "TinyOC" / "conventions.tsv", sep="\t")
    assert {"measure", "case", "cells"} <= set(conventions.columns)
    for name in ["agreement", "consistency", "properties", "kappa_constant", "pooled", "conventions"]:
        check_tabular((tables / f"{name}.tex").read_text())
    assert (pipeline.results / "figures" / "oc" / "dp_curves.png").stat().st_size > 0
    data = csv(
        pipeline.results / "tables" / "datasets.csv",
        [
            "dataset",
            "type",
            "venue",
            "description",
            "language",
            "classes",
            "topics",
            "items",
            "runs",
            "runs_from_files",
            "baseline_runs",
            "simulated_runs",
            "topics_with_empty_gold_class",
        ],
    )
    assert data.type.tolist() == ["OQ", "OQ", "OC"]


def test_report_inputs_every_table_and_includes_every_figure(pipeline):
    results = pipeline.results
    document = (results / "report" / "ordeval.tex").read_text()

    # printed once: the contradictions grouped (the plain list holds the same pairs), the leaderboards side by
    # side (tables/leaderboard/<dataset>_compact.tex; the per-measure tables, the figures and the results pages
    # are for the screen)
    def for_the_screen(path):
        name = path.relative_to(results).as_posix()
        return (name.startswith("tables/contradictions") and "grouped" not in name) or (
            "/leaderboard/" in name and not name.endswith("_compact.tex")
        )

    fragments = sorted(path for path in results.glob("tables/**/*.tex") if not for_the_screen(path))
    figures = sorted(path for path in results.glob("figures/**/*.pdf") if not for_the_screen(path))
    assert fragments and figures
    for path in fragments:  # input, or a long table set in the document itself (its header repeated)
        first_row = path.read_text(encoding="utf-8").split("\\midrule", 1)[1].split("\\\\", 1)[0].strip()
        assert f"{{{os.path.relpath(path, results / 'report')}}}" in document or first_row in document, path
    for path in figures:
        assert f"{{{os.path.relpath(path, results / 'report')}}}" in document, path
        assert "SYNTHETIC data" in png_description(path.with_suffix(".png")), path
    assert f"Seed {pipeline.config['seed']}." in document and "SYNTHETIC" in document
    assert r"\section{Ordinal classification}" in document
    if shutil.which("pdflatex"):  # report: pdf: auto
        assert (results / "report" / "ordeval.pdf").read_bytes().startswith(b"%PDF")
        if shutil.which("pdffonts"):  # Type 1 / TrueType only: no bitmap Type 3 fonts
            import subprocess

            pdf = str(results / "report" / "ordeval.pdf")
            fonts = subprocess.run(["pdffonts", pdf], capture_output=True, text=True)
            assert fonts.returncode == 0 and "Type 1" in fonts.stdout and "Type 3" not in fonts.stdout


def test_html_report_has_every_figure_and_table_with_captions(pipeline):
    from ordeval.reports.catalogue import CATEGORIES, category

    pipeline.again("--report", f"results/{pipeline.config['name']}/report.html")
    html = (pipeline.results / "report.html").read_text(errors="replace")
    for key in ["agreement", "popularity", "leaderboard", "topic_set_size", "classification", "paper"]:
        assert category(key) in html, category(key)  # "04 Ranking agreement": numbered in the catalogue's order
    # The report's menu lists the categories sorted by name (menu.js: localeCompare), whatever their order
    # in its data: the two-digit numbers make that the catalogue's order.
    data = re.search(r"var categories = (\{.*?\});?\s*</script>", html, re.S)
    names = sorted(json.loads(data.group(1)))
    known = [category(key) for key in CATEGORIES]
    assert set(names) <= set(known) and names == [name for name in known if name in names], names
    assert names[-1] == category("paper")
    # every figure, and every table as its page (tables/**/<table>.html), with its caption
    for path in [*pipeline.results.glob("figures/**/*.png"), *pipeline.results.glob("tables/**/*.html")]:
        assert path.name in html, path
    assert "Kendall" in html  # a caption


def test_html_report_of_another_configuration_is_refused_in_one_line(pipeline):
    other_seed = f"seed={pipeline.config['seed'] + 1}"
    result = pipeline.again("--report", "elsewhere.html", "--config", other_seed, check=False)
    assert result.returncode != 0 and not (pipeline.workdir / "elsewhere.html").exists()
    line = [line for line in result.stderr.splitlines() if line.startswith("ordeval: report:")]
    assert len(line) == 1 and "differs in seed" in line[0] and "--configfile" in line[0]


def test_manifest_records_the_inputs_and_the_configuration(pipeline):
    import json

    manifest = json.loads((pipeline.results / "manifest.json").read_text())
    assert manifest["configuration"]["name"] == pipeline.config["name"]
    assert manifest["seeds"]["seed"] == pipeline.config["seed"]
    assert "numpy" in manifest["dependencies"]


def test_a_changed_parameter_re_runs_the_jobs_that_use_it_only(pipeline):
    """Rules pass settings as params, which Snakemake records: changing one re-runs the jobs given it
    (and what reads their outputs), nothing upstream."""
    changed = copy.deepcopy(pipeline.config)
    changed["significance"]["hsd_trials"] += 1
    planned = run_workflow(pipeline.workdir, changed, "--dry-run", *PLAIN_OUTPUT)
    output = planned.stdout + planned.stderr
    table = output[output.index("Job stats:") : output.index("\ntotal")].splitlines()[3:]
    rules = {line.split()[0] for line in table}
    assert any(rule.startswith("significance_pvalues") for rule in rules), rules
    assert not any(rule.startswith(("prepare_data", "score_runs", "consistency_taus")) for rule in rules), rules
    changed_params = output[output.index("params have changed since last execution:") :].splitlines()[1]
    assert "significance_pvalues" in changed_params
    # the same configuration again (also written back for the other tests): nothing to do
    again = pipeline.again("--dry-run")
    assert "Nothing to be done" in again.stdout + again.stderr


def test_a_cold_run_to_a_pipe_prints_at_most_a_line_per_job_and_its_log_keeps_everything(pipeline):
    """Where the output is not a terminal (CI, a pipe, here) the workflow profile's logger draws no bar: the job
    counts, errors and the summary only, at most about a line per job; no job's inputs (the library modules) or
    log lines (jobs log to their files). Snakemake's log of the run (.snakemake/log/) keeps every job."""
    lines = pipeline.output.splitlines()
    log = re.search(r"^Snakemake's log: (\S+)$", pipeline.output, re.M).group(1)  # the summary names it
    text = (pipeline.workdir / log).read_text()
    jobs = int(re.search(r"(\d+) of (\d+) steps \(100%\) done", text).group(2))
    assert len(lines) <= jobs + 40, len(lines)  # the header, the job table, the summary
    assert "src/ordeval/" not in pipeline.output and " INFO " not in pipeline.output
    assert len(re.findall(r"^Finished jobid: \d+ \(Rule: \w+\)$", text, re.M)) == jobs  # every job, in the log
    assert f"ordeval: configuration {pipeline.config['name']!r} done" in pipeline.output
    # the summary has the shape of the README's example (another configuration's name, log and --configfile)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = re.search(r"ends with a summary of where\neverything is:\n\n```text\n(.*?)```", readme, re.S).group(1)
    name = pipeline.config["name"]
    start = lines.index(next(line for line in lines if line.startswith("ordeval: configuration ")))
    for shown, ran in zip(example.splitlines(), lines[start:], strict=False):
        pattern = re.escape(shown).replace("synthetic", re.escape(name))
        pattern = re.sub(r"2026\\-11\\-28T230512\\.123456", r"[0-9T.-]+", pattern)
        pattern = pattern.replace(re.escape("snakemake --report"), r"snakemake (--snakefile \S+ )?--report")
        if shown.startswith("PDF report:") and not shutil.which("pdflatex"):
            pattern = r"PDF report: not compiled: .*"
        assert re.fullmatch(pattern + r"( --configfile \S+)?", ran), (shown, ran)
