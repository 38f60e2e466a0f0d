"""Advice and estimates of ``ordeval run`` (issue 54, item 7).

Class: what ``ordeval run`` tells the user that is not true. Members: the hint after Ctrl-C ("run the same
command again", which Snakemake then refused: IncompleteFilesException), the report line without TeX ("once the
'report' stage has run" after it ran), the run-time estimate (below the real time, though documented as about
five times it)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from conftest import REPO, tiny_config

from ordeval.cli import run, run_advice
from ordeval.workflow.config import load
from ordeval.workflow.limits import estimate
from ordeval.workflow.plan import plan

ARGS = argparse.Namespace(configfile="c.yaml", target="all", cores=2)


def _project(tmp_path: Path, incomplete: bool, locks: bool) -> Path:
    snakemake = tmp_path / ".snakemake"
    if incomplete:
        (snakemake / "incomplete").mkdir(parents=True)
        (snakemake / "incomplete" / "cmVzdWx0cw==").write_text("")
    if locks:
        (snakemake / "locks").mkdir(parents=True)
        (snakemake / "locks" / "0.output.lock").write_text("results/x\n")
    return tmp_path


@pytest.mark.parametrize(
    ("incomplete", "locks", "expected"),
    [
        (False, False, "hint: to continue: ordeval run --configfile c.yaml --cores 2"),
        (
            True,
            False,
            "hint: the stopped run left outputs marked incomplete; to continue: ordeval run --configfile c.yaml "
            "--cores 2 -- --rerun-incomplete",
        ),
        (
            True,
            True,
            "hint: the stopped run left its locks and outputs marked incomplete; to continue: ordeval run "
            "--configfile c.yaml --cores 2 -- --unlock && ordeval run --configfile c.yaml --cores 2 -- "
            "--rerun-incomplete",
        ),
    ],
)
def test_the_hint_after_a_stop_gives_a_command_that_continues(tmp_path, monkeypatch, incomplete, locks, expected):
    monkeypatch.setattr(run_advice, "live_snakemake", lambda project: [])
    assert run_advice.after_stop(_project(tmp_path, incomplete, locks), ARGS, []) == [expected]


def test_no_rerun_advice_while_a_snakemake_runs_there(tmp_path, monkeypatch):
    monkeypatch.setattr(run_advice, "live_snakemake", lambda project: [4242])
    (hint,) = run_advice.after_stop(_project(tmp_path, True, True), ARGS, [])
    assert "a Snakemake is still running" in hint and "(process 4242)" in hint and "do not --unlock" in hint


def test_the_summary_names_the_latex_report_when_no_pdf_is_made(tmp_path, monkeypatch):
    """Without a PDF (report: {pdf: false}, or no TeX engine) the run's summary (ordeval run's and the Snakefile's:
    ordeval.workflow.summary) says why, and where the LaTeX source is -- not that the report stage has yet to run."""
    import shutil

    from ordeval.workflow import summary

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    results = tmp_path / "results" / "tiny"
    (results / "report").mkdir(parents=True, exist_ok=True)
    (results / "report" / "ordeval.tex").write_text("\\documentclass{article}")
    for setting, why in [(False, "report: {pdf: false}"), ("auto", "no TeX engine here")]:
        planned = plan(tiny_config(report={"pdf": setting}), workdir=tmp_path, check_files=False)
        text = "\n".join(summary.run_summary(planned.config, failed=False, workdir=tmp_path))
        assert why in text and "LaTeX source results/tiny/report/ordeval.tex" in text, text
        assert "not made yet" not in text


def _stated(text: str, pattern: str) -> list[float]:
    found = re.search(pattern, " ".join(text.split()))
    assert found, pattern
    return [float(value) for value in found.groups()]


def test_the_estimate_is_never_below_the_measured_times_it_documents():
    """docs/limits.md states what was measured on this machine and the estimate: both tied to the code."""
    limits = (REPO / "docs" / "limits.md").read_text(encoding="utf-8")
    default_measured = _stated(limits, r"default configuration \(122 jobs\) took (\d+) s, and (\d+) s with one more")
    (default_estimate,) = _stated(limits, r"its estimate is (\d+) s \(1\.3 times the slower\)")
    tiny_measured = _stated(limits, r"tiny configuration of the tests \(53 jobs\) took (\d+) s and (\d+) s")
    (tiny_estimate,) = _stated(limits, r"its estimate is (\d+) s \(2\.4 times\)")
    default = estimate(load(REPO / "config" / "config.yaml")).hours * 3600
    tiny = estimate(load_tiny()).hours * 3600
    assert round(default) == default_estimate and round(tiny) == tiny_estimate
    assert default >= 1.3 * max(default_measured) and tiny >= 2 * max(tiny_measured)


def load_tiny() -> dict:
    from ordeval.workflow.config import validate

    return validate(tiny_config(classification=True))


def test_the_duration_as_printed():
    assert run._duration(0.01) == "under a minute"
    assert run._duration(0.25) == "about 15 min"
    assert run._duration(3.21) == "about 3.2 hours"
