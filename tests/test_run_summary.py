"""The summary a run ends with (ordeval.workflow.summary, printed by the Snakefile's onsuccess/onerror and by
`ordeval run`), without Snakemake: where the PDF (or why there is none, and the LaTeX source), the HTML report's
command and the tables are, a replication's verdict counts, and on failure each failed job's rule, log and error,
found from Snakemake's log of the run or, where it names none, from the job logs written during the run."""

from __future__ import annotations

import os
import shlex
import time

from ordeval.io.table import Table, write_csv
from ordeval.results.replication import summary
from ordeval.workflow.summary import (
    config_items,
    failed_jobs,
    html_report_command,
    run_started,
    run_summary,
)

CONFIG = {"name": "demo", "report": {"pdf": "auto"}}
SNAKEMAKE_LOG = """Building DAG of jobs...
[Sat Nov 28 22:16:31 2026]
localrule agreement_heatmap:
    input: results/demo/tables/agreement/mean.csv
    log: results/demo/logs/agreement_heatmap/heatmap.log
[Sat Nov 28 22:16:32 2026]
Error in rule score_runs:
    message: None
    jobid: 5
    input: results/demo/data/TinySem/gold.tsv
    output: results/demo/scores/TinySem/NMD.tsv
    log: results/demo/logs/score_runs/TinySem.log (check log file(s) for error details)
    wildcards: dataset=TinySem
Shutting down, this might take some time.
"""


def _results(tmp_path):
    results = tmp_path / "results" / "demo"
    (results / "tables").mkdir(parents=True)
    (results / "figures").mkdir()
    return results


def test_a_finished_run_says_where_the_pdf_the_html_command_and_the_tables_are(tmp_path):
    results = _results(tmp_path)
    (results / "report").mkdir()
    (results / "report" / "ordeval.pdf").write_bytes(b"%PDF")
    lines = run_summary(
        CONFIG,
        failed=False,
        html_command="snakemake --report results/demo/report.html",
        here=tmp_path,
        workdir=tmp_path,
    )
    assert lines == [
        "ordeval: configuration 'demo' done: results in results/demo/",
        "PDF report: results/demo/report/ordeval.pdf",
        "HTML report: snakemake --report results/demo/report.html",
        "tables: results/demo/tables/ (CSV with every digit, and LaTeX); figures: results/demo/figures/",
    ]


def test_without_a_pdf_the_summary_says_why_and_where_the_latex_source_is(tmp_path, monkeypatch):
    results = _results(tmp_path)
    (results / "report").mkdir()
    (results / "report" / "ordeval.tex").write_text("\\documentclass{article}")
    monkeypatch.setenv("PATH", str(tmp_path / "no-tex-here"))  # no pdflatex
    pdf = [line for line in run_summary(CONFIG, failed=False, workdir=tmp_path, here=tmp_path) if "PDF" in line]
    assert pdf == [
        "PDF report: not compiled: no TeX engine here (Debian: apt-get install texlive-latex-base "
        "texlive-latex-recommended texlive-latex-extra latexmk lmodern); LaTeX source results/demo/report/ordeval.tex"
    ]
    off = {**CONFIG, "report": {"pdf": False}}
    assert "report: {pdf: false}" in run_summary(off, failed=False, workdir=tmp_path, here=tmp_path)[1]


def test_a_replication_gives_the_verdict_counts_of_its_summary_table(tmp_path):
    results = _results(tmp_path)
    verdicts = Table(
        {
            "source": ["a paper, Table 3"] * 4,
            "dataset": ["X"] * 4,
            "verdict": ["exact", "exact", "fixed by the set-up", "not comparable"],
        }
    )
    (results / "tables" / "replication").mkdir()
    write_csv(summary([verdicts]), results / "tables" / "replication" / "summary.csv", {"X": "real"})
    lines = run_summary(CONFIG, failed=False, workdir=tmp_path, here=tmp_path)
    assert (
        "replication: of 4 published numbers: 2 exact, 0 within randomisation error, 0 differ, 1 fixed by the "
        "set-up, 1 not comparable; every number: results/demo/tables/replication/published_vs_reproduced.html"
    ) in lines


def test_a_failed_run_names_the_failed_job_its_log_and_its_error(tmp_path):
    results = _results(tmp_path)
    log = tmp_path / ".snakemake" / "log" / "2026-11-28T221626.596184.snakemake.log"
    log.parent.mkdir(parents=True)
    log.write_text(SNAKEMAKE_LOG)
    job_log = results / "logs" / "score_runs" / "TinySem.log"
    job_log.parent.mkdir(parents=True)
    job_log.write_text(
        "2026-11-28 22:16:31,001 score_runs[TinySem] INFO reading\n"
        "2026-11-28 22:16:32,002 score_runs[TinySem] ERROR score_runs[TinySem] "
        "failed: gold.txt, line 3: negative probability -0.2\n"
    )
    lines = run_summary(CONFIG, failed=True, snakemake_logs=[str(log)], workdir=tmp_path, here=tmp_path)
    assert lines[:3] == [
        "ordeval: configuration 'demo' FAILED: results in results/demo/",
        "failed: rule score_runs (dataset=TinySem), log results/demo/logs/score_runs/TinySem.log",
        "  score_runs[TinySem] failed: gold.txt, line 3: negative probability -0.2",
    ]
    assert lines[-1] == "Snakemake's log: .snakemake/log/2026-11-28T221626.596184.snakemake.log"


def test_where_snakemake_s_log_names_no_failed_job_the_job_logs_of_the_run_do(tmp_path):
    """A log without the ``Error in rule`` block (cut short, or another format): the job logs written since the run
    started (the time in the name of Snakemake's log) that record an error; older ones are not this run's."""
    results = _results(tmp_path)
    log = tmp_path / ".snakemake" / "log" / "2026-11-28T221626.596184.snakemake.log"
    log.parent.mkdir(parents=True)
    log.write_text("Building DAG of jobs...\n")
    started = run_started(log)
    assert started is not None and time.localtime(started).tm_min == 16
    fresh = results / "logs" / "agreement_dataset" / "TinySem.log"
    old = results / "logs" / "agreement_dataset" / "TinyDQ.log"
    fresh.parent.mkdir(parents=True)
    for path in (fresh, old):
        path.write_text(f"t {path.stem} ERROR agreement_dataset[{path.stem}] failed: no scores\n")
    os.utime(fresh, (started + 5, started + 5))
    os.utime(old, (started - 3600, started - 3600))
    jobs = failed_jobs([log], results / "logs", tmp_path)
    assert [(job.rule, job.logs, job.error) for job in jobs] == [
        (
            "agreement_dataset",
            ["results/demo/logs/agreement_dataset/TinySem.log"],
            "agreement_dataset[TinySem] failed: no scores",
        )
    ]
    assert failed_jobs([tmp_path / "unreadable.log"], results / "logs", tmp_path) == []


def test_the_html_command_runs_as_printed_from_here_or_from_elsewhere(tmp_path):
    project = tmp_path / "project"
    (project / "config").mkdir(parents=True)
    items = config_items({"data_root": "/data/raw dir", "seed": 3, "report": {"pdf": False}})
    assert items == ["data_root=/data/raw dir", "seed=3", 'report={"pdf": false}']
    here = html_report_command(
        "results/r", [project / "config" / "r.yaml"], items, snakefile=project / "Snakefile", here=project
    )
    assert shlex.split(here) == [
        "snakemake",
        "--report",
        "results/r/report.html",
        "--configfile",
        "config/r.yaml",
        "--config",
        *items,
    ]
    elsewhere = html_report_command("results/r", ["config/r.yaml"], project=project, here=tmp_path)
    assert shlex.split(elsewhere) == [
        "snakemake",
        "--snakefile",
        str(project / "Snakefile"),
        "--directory",
        str(project),
        "--report",
        str(project / "results/r/report.html"),
        "--configfile",
        str(project / "config" / "r.yaml"),
    ]
    first = html_report_command("results/r", ["config/r.yaml"], ["seed=3"], here=project, after_report=True)
    assert first == (
        "snakemake --cores all --configfile config/r.yaml report --config seed=3 && "
        "snakemake --report results/r/report.html --configfile config/r.yaml --config seed=3"
    )
