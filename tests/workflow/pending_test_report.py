"""PENDING (workflow tier): the test of tests/test_report.py that runs Snakemake, moved here as it was.

Not collected (the file name does not match test_*.py). Fast-tier counterpart: tests/test_report.py
(test_without_tex_the_plan_skips_the_pdf_and_asking_for_it_names_the_packages: the plan's targets with
and without a TeX engine, and the error naming the packages).
"""

import os

import pytest

from ordeval.latex import report


def test_without_tex_the_main_job_skips_the_pdf_and_asking_for_it_names_the_packages(tmp_path, monkeypatch):
    import subprocess
    import sys

    import yaml
    from conftest import REPO, tiny_config

    (tmp_path / "config.yaml").write_text(yaml.safe_dump(tiny_config(), sort_keys=False))
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory",
               str(tmp_path), "--configfile", str(tmp_path / "config.yaml"), "--cores", "1"]  # fmt: skip
    no_tex = {**os.environ, "PATH": os.path.dirname(sys.executable)}  # no pdflatex, no latexmk
    plan = subprocess.run([*command, "--dry-run"], capture_output=True, text=True, env=no_tex)
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert "report_tex" in plan.stdout and "report_pdf" not in plan.stdout
    explicit = subprocess.run(
        [*command, "--dry-run", "results/tiny/report/ordeval.pdf"], capture_output=True, text=True, env=no_tex
    )
    assert explicit.returncode == 0 and "report_pdf" in explicit.stdout  # planned; its job then fails with:
    monkeypatch.setenv("PATH", no_tex["PATH"])
    with pytest.raises(report.ReportError, match="texlive-latex-base"):
        report.tex_engine()
