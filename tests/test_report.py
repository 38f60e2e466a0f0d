"""The LaTeX report compiles with a real TeX engine (skipped only where none is installed)."""

import copy
import os
import shutil

import pytest
from conftest import REPO, tiny_config

from ordeval.reports.captions import Caption, render_caption
from ordeval.reports.figures import new_figure, save_figure
from ordeval.reports.latex import bold, escape, number, report, tabular, write_latex
from ordeval.workflow.plan import plan as make_plan

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
        write_latex(fragment, path, ORIGINS)
        tables.append(path)
    wide = tabular(["x"] * 30, [["0.123"] * 30], "l" * 30)
    write_latex(wide, folder / "tables" / "wide.tex", ORIGINS)
    figure = new_figure(4, 3)
    figure.add_subplot().plot([0, 1], [1, 0])
    save_figure(figure, folder / "figures" / "line.pdf", folder / "figures" / "line.png", ORIGINS)
    return tables, folder / "tables" / "wide.tex", folder / "figures" / "line.pdf"


@needs_tex
def test_report_with_generated_fragments_compiles_to_the_expected_pages(tmp_path):
    tables, wide, figure = make_outputs(tmp_path)
    sections = [
        report.ReportSection(
            "Tables",
            [
                report.ReportItem("table", str(path), f"Table {i} of D1 (synthetic data)")
                for i, path in enumerate(tables)
            ],
        ),
        report.ReportSection(
            "Figure & wide table",
            [
                report.ReportItem("figure", str(figure), "A line; 50% synthetic_data"),
                report.ReportItem("table", str(wide), "A wide table"),
            ],
        ),  # wider than 1.4 text widths: landscape
    ]
    tex = tmp_path / "report" / "ordeval.tex"
    tex.parent.mkdir()
    # The introduction is LaTeX already: its text parts are escaped by the caller.
    tex.write_text(report.latex_document(sections, "ordeval test report", escape("Intro with _ and %."), tex))
    pdf = report.compile_pdf(tex)
    assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")
    # title, contents and lists; the three tables, then the second section where the first ends (no page of its
    # own), with the figure (drawn 4 in wide, printed so); the wide table on a landscape page
    assert report.page_count(tex) == 3
    assert "ordeval figure: ../figures/line.pdf printed 289.0" in tex.with_suffix(".log").read_text()  # 4 in
    log = tex.with_suffix(".log").read_text(errors="replace")
    assert log.count("\\input") == 0 and "LaTeX Warning: Reference" not in log
    assert "Overfull \\hbox" not in log  # the wide table was shrunk to fit
    # beside the source only the PDF and the log: LaTeX's build files are removed once it is done
    assert sorted(path.name for path in tex.parent.iterdir()) == ["ordeval.log", "ordeval.pdf", "ordeval.tex"]


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


def test_sections_follow_their_order_with_each_items_caption_origin_and_seed(tmp_path):
    tables, wide, figure = make_outputs(tmp_path)

    def item(section, path, title, dataset="", scope=""):
        return {
            "section": section,
            "path": str(path),
            "caption": Caption(title, f"What {title} shows."),
            "dataset": dataset,
            "scope": scope or dataset,
        }

    items = [
        item("popularity", figure, "Deltas"),
        item("agreement", tables[1], "Tau", "D2"),
        item("agreement", tables[0], "Mean tau", scope="the ordinal quantification data sets"),
        item("data", wide, "The data sets"),
    ]
    sections = report.report_sections(items, seed=7)
    assert [section.title for section in sections] == ["Data sets", "Ranking agreement", "Popularity vs Uniform"]
    agreement = sections[1]
    assert [entry.path for entry in agreement.items] == [str(tables[0]), str(tables[1])]  # over the data sets first
    assert agreement.items[1].caption == (
        "What Tau shows. SYNTHETIC data: simulated gold and simulated runs (baselines computed from the simulated "
        "gold). Seed 7."
    )
    assert agreement.items[1].short == "Tau: D2" and agreement.items[1].dataset == "D2"
    assert agreement.items[0].short == "Mean tau: the ordinal quantification data sets"
    assert sections[2].items[0].kind == "figure" and sections[2].items[0].caption.startswith("What Deltas shows.")
    assert report.origin_note(figure).startswith("SYNTHETIC data") and report.origin_note(wide).startswith("SYNTHETIC")


def test_without_tex_the_pdf_is_not_wanted_and_asking_for_it_names_the_packages(monkeypatch):
    """report.pdf: auto wants the PDF only where a TeX engine is installed (the rules then leave it out); true
    always wants it, and its job then fails with an error naming the packages to install."""
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no pdflatex, no latexmk
    config = copy.deepcopy(tiny_config())
    assert not make_plan(config).pdf_wanted()
    config["report"] = {"pdf": True}
    assert make_plan(config).pdf_wanted()
    with pytest.raises(report.ReportError, match="texlive-latex-base"):
        report.tex_engine()


CAPTIONS = sorted((REPO / "workflow" / "report").glob("*/*.rst"))
#: Wildcard values of a job for every wildcard a caption may use.
WILDCARDS = {"dataset": "Sem16T4E", "task_suffix": "_oc", "measure": "JSD"}


@pytest.fixture(scope="module")
def default_config():
    from ordeval.workflow.config import load

    return make_plan(load(REPO / "config" / "config.yaml"), workdir=REPO).config


@pytest.mark.parametrize("path", CAPTIONS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_every_caption_renders_as_plain_words_and_as_the_html_reports_rst(path, default_config):
    """Each caption file beside the rules renders with a job's wildcards and the configuration (what Snakemake's
    report gives it), as plain text for the PDF -- a title, then sentences, with no file name and no maths written
    as text -- and as reStructuredText without a problem for the HTML report."""
    jinja2 = pytest.importorskip("jinja2")
    docutils = pytest.importorskip("docutils.core")
    caption = render_caption(path, WILDCARDS, default_config)
    assert caption.title and caption.text.endswith(".") and len(caption.title) <= 110, path
    for text in ("sqrt(", "^2", "<=", ">=", ".tex", ".csv", ".tsv", "{{", "}}"):
        assert text not in caption.title + caption.text, (path, text)
    source = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(path.read_text())
    namespace = type("Job", (), {"wildcards": type("W", (), WILDCARDS), "config": default_config})
    html = docutils.publish_parts(source.render(snakemake=namespace), writer="html")["html_body"]
    assert "problematic" not in html and "system-message" not in html, path


def test_caption_titles_are_unique_within_the_report():
    titles = [render_caption(path, WILDCARDS, tiny_config_plan().config).title for path in CAPTIONS]
    assert len(titles) == len(set(titles))


def tiny_config_plan():
    return make_plan(tiny_config(classification=True), check_files=False)


def test_the_html_report_refuses_another_configuration_than_the_run(tmp_path):
    import json

    from ordeval.results.manifest import report_configuration_problem

    config = {"name": "x", "seed": 1, "consistency": {"trials": 10}}
    manifest = tmp_path / "manifest.json"
    assert "is missing" in report_configuration_problem(config, manifest)
    manifest.write_text(json.dumps({"configuration": config}))
    assert report_configuration_problem(config, manifest) is None
    other = {**config, "seed": 2, "consistency": {"trials": 20}}
    problem = report_configuration_problem(other, manifest)
    assert "differs in consistency.trials, seed" in problem and "--configfile" in problem and "\n" not in problem
