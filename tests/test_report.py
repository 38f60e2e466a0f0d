"""The LaTeX report compiles with a real TeX engine (skipped only where none is installed)."""

import os
import shutil

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pytest

from ordeval import report
from ordeval.outputs import bold, escape, number, save_figure, tabular, write_latex

# CI installs TeX and sets ORDEVAL_REQUIRE_TEX=1: there a missing engine fails instead of skipping.
needs_tex = pytest.mark.skipif(
    shutil.which("pdflatex") is None and os.environ.get("ORDEVAL_REQUIRE_TEX") != "1",
    reason="no TeX engine installed",
)

ORIGINS = {"D1": "synthetic"}


def make_outputs(folder):
    tables = []
    for index in range(3):
        rows = [[escape(f"M{r}_x"), bold(number(0.123456 * r)), number(float("nan"))] for r in range(4)]
        fragment = tabular(["Measure", "tau", "CI"], rows, "lrr")
        path = folder / "tables" / f"table_{index}.tex"
        write_latex(fragment, path, ORIGINS, description=f"test table {index}")
        tables.append(path)
    wide = tabular(["x"] * 30, [["0.123"] * 30], "l" * 30)
    write_latex(wide, folder / "tables" / "wide.tex", ORIGINS)
    figure, axis = plt.subplots()
    axis.plot([0, 1], [1, 0])
    save_figure(figure, folder / "figures" / "line.pdf", folder / "figures" / "line.png", ORIGINS, "A line.")
    return tables, folder / "tables" / "wide.tex", folder / "figures" / "line.pdf"


@needs_tex
def test_report_with_generated_fragments_compiles_to_the_expected_pages(tmp_path):
    tables, wide, figure = make_outputs(tmp_path)
    sections = [
        report.ReportSection("Tables", [report.ReportItem("table", str(path), f"Table {i} of D1 (synthetic data)")
                                        for i, path in enumerate(tables)]),  # fmt: skip
        report.ReportSection("Figure & wide table", [
            report.ReportItem("figure", str(figure), "A line; 50% synthetic_data"),
            report.ReportItem("table", str(wide), "A wide table", landscape=True)]),
    ]  # fmt: skip
    tex = tmp_path / "report" / "ordeval.tex"
    tex.parent.mkdir()
    tex.write_text(report.latex_document(sections, "ordeval test report", "Intro with _ and %.", tex))
    pdf = report.compile_pdf(tex)
    assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")
    # title + contents, the three tables, the figure, the wide table on a landscape page
    assert report.page_count(tex) == 4
    log = tex.with_suffix(".log").read_text(errors="replace")
    assert log.count("\\input") == 0 and "LaTeX Warning: Reference" not in log
    assert "Overfull \\hbox" not in log  # the wide table was shrunk to fit


@needs_tex
def test_compile_error_is_reported_with_the_log(tmp_path):
    tex = tmp_path / "broken.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\\undefinedcommand\\end{document}\n")
    with pytest.raises(report.ReportError, match="Undefined control sequence"):
        report.compile_pdf(tex)


def test_missing_engine_names_the_packages(monkeypatch):
    monkeypatch.setattr(report.shutil, "which", lambda name: None)
    with pytest.raises(report.ReportError, match="texlive-latex-base texlive-latex-recommended"):
        report.tex_engine()


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
