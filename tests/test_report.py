"""The LaTeX report compiles with a real TeX engine (skipped only where none is installed)."""

import copy
import os
import shutil

import pytest
from conftest import tiny_config

from ordeval.figures import new_figure, save_figure
from ordeval.latex import bold, escape, number, report, tabular, write_latex
from ordeval.plan import plan as make_plan

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
    figure = new_figure(4, 3)
    figure.add_subplot().plot([0, 1], [1, 0])
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
            report.ReportItem("table", str(wide), "A wide table")]),  # wider than 1.4 text widths: landscape
    ]  # fmt: skip
    tex = tmp_path / "report" / "ordeval.tex"
    tex.parent.mkdir()
    # The introduction is LaTeX already: its text parts are escaped by the caller.
    tex.write_text(report.latex_document(sections, "ordeval test report", escape("Intro with _ and %."), tex))
    pdf = report.compile_pdf(tex)
    assert pdf.is_file() and pdf.read_bytes().startswith(b"%PDF")
    # title + contents, the three tables, the figure, the wide table on a landscape page
    assert report.page_count(tex) == 4
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


def test_sections_follow_the_catalogue_with_captions_from_the_outputs(tmp_path):
    tables, wide, figure = make_outputs(tmp_path)
    items = [("popularity", str(figure)), ("agreement", str(tables[1])), ("agreement", str(tables[0])),
             ("data", str(wide)), ("agreement", str(tmp_path / "figures" / "line.png"))]  # fmt: skip
    sections = report.report_sections(items, seed=7)
    assert [section.title for section in sections] == ["Data sets", "Ranking agreement", "Popularity vs Uniform"]
    agreement = sections[1]
    assert [item.path for item in agreement.items] == [str(tables[1]), str(tables[0])]  # a PNG is no item
    assert agreement.items[0].caption == (
        "test table 1 SYNTHETIC data: simulated gold and simulated runs (baselines computed from the simulated gold)."
        " Seed 7."
    )
    assert sections[2].items[0].kind == "figure" and sections[2].items[0].caption.startswith("A line. SYNTHETIC")
    assert report.fragment_caption(wide).startswith("SYNTHETIC data")


def test_without_tex_the_plan_skips_the_pdf_and_asking_for_it_names_the_packages(monkeypatch):
    """report.pdf: auto plans the PDF only where a TeX engine is installed; true always plans it, and its
    job then fails with an error naming the packages to install."""
    monkeypatch.setattr(shutil, "which", lambda name: None)  # no pdflatex, no latexmk
    config = copy.deepcopy(tiny_config())
    automatic = make_plan(config)
    assert not automatic.pdf_wanted()
    assert "results/tiny/report/ordeval.tex" in automatic.targets("report")
    assert "results/tiny/report/ordeval.pdf" not in automatic.targets()
    assert "report/pdf" not in automatic.reported_keys()
    config["report"] = {"pdf": True}
    assert "results/tiny/report/ordeval.pdf" in make_plan(config).targets("report")
    with pytest.raises(report.ReportError, match="texlive-latex-base"):
        report.tex_engine()


def test_a_table_caption_shows_the_table_escaped_and_shortened():
    docutils = pytest.importorskip("docutils.core")
    publish_parts = docutils.publish_parts

    from ordeval.jobs.report_captions import table_caption

    text = "measure,tau,note\nMAE_M,0.123456789,*x*\nkappa,1,`y`\nF1_M,0.5,z\n"
    caption = table_caption("Kendall's tau of MAE_M", text, "agreement.csv", max_rows=2)
    html = publish_parts(caption, writer="html")["body"]
    assert "<table" in html and "0.1235" in html and "0.123456789" not in html
    assert "<em>" not in html and "*x*" in html and "`y`" in html  # literal, not markup
    assert "F1_M" not in html and "first 2 of 3 rows" in html and "agreement.csv has them all" in html
    assert "MAE_M" in html and "problematic" not in html  # no reST errors


def _report_caption_html(path) -> str:
    """A caption file as Snakemake's report shows it: rendered as a Jinja template, then as reST."""
    jinja2 = pytest.importorskip("jinja2")
    publish_parts = pytest.importorskip("docutils.core").publish_parts
    rendered = jinja2.Environment().from_string(path.read_text()).render(snakemake=None, categories=[], files=[])
    return publish_parts(rendered, writer="html")["body"]


def _report_captions_job(tmp_path, tables: dict[str, str]):
    """The report_captions job (workflow/rules/report.smk) for one entry caption and the CSV ``tables``
    ({data set: text}) of a per-data-set entry; returns {data set: its table's caption file}."""
    from ordeval.jobs import Job, report_captions

    csv_paths = {name: tmp_path / "tables" / f"{name}.csv" for name in tables}
    for name, text in tables.items():
        csv_paths[name].parent.mkdir(parents=True, exist_ok=True)
        csv_paths[name].write_text(text)
    folder = tmp_path / "report" / "captions"
    captions = {name: folder / f"table-tables-{name}.rst" for name in tables}
    job = Job(
        "report_captions",
        input={"tables": [str(path) for path in csv_paths.values()]},
        output={"captions": [str(folder / "consistency-summary.rst")], "tables": [str(p) for p in captions.values()]},
        params={
            "captions": ["Consistency of each data set."],
            "table_captions": ["Consistency of each data set."] * len(tables),
            "max_rows": 10,
        },  # fmt: skip
    )
    report_captions.run(job)
    return captions


def test_each_reported_table_has_a_caption_of_its_own_that_shows_it(tmp_path):
    # Every reported CSV table (one per data set of a per-data-set entry too) has its own caption file.
    planned = make_plan(tiny_config(), workdir=tmp_path)
    captions = planned.table_captions()
    tables = [entry["table"] for entry in captions.values()]
    assert len(set(tables)) == len(tables) and all(path.endswith(".csv") for path in tables)
    summaries = [
        planned.path("consistency/summary", "csv", dataset=name, condition="half") for name in planned.datasets
    ]
    assert len(planned.datasets) > 1 and set(summaries) <= set(tables)
    assert not any("{" in path or "by-dataset" in path for path in captions)
    # The report_captions job writes each one showing its own table.
    written = _report_captions_job(tmp_path, {"A": "measure,tau\nNMD,0.25\n", "B": "measure,tau\nRNOD,0.5\n"})
    for dataset, shown, hidden in [("A", "NMD", "RNOD"), ("B", "RNOD", "NMD")]:
        html = _report_caption_html(written[dataset])
        assert "<table" in html and shown in html and hidden not in html
        assert "Consistency of each data set." in html and "problematic" not in html


def test_a_table_caption_keeps_the_table_literal_through_the_reports_jinja(tmp_path):
    # Snakemake renders every caption file as a Jinja template before reST: a cell with Jinja syntax
    # must stay as it is.
    written = _report_captions_job(tmp_path, {"B": "measure,tau\nRNOD,{{ x }} {% y %} {# z #}\n"})
    assert "{{ x }} {% y %} {# z #}" in _report_caption_html(written["B"])


def test_the_html_report_refuses_another_configuration_than_the_run(tmp_path):
    import json

    from ordeval.manifest import report_configuration_problem

    config = {"name": "x", "seed": 1, "consistency": {"trials": 10}}
    manifest = tmp_path / "manifest.json"
    assert "is missing" in report_configuration_problem(config, manifest)
    manifest.write_text(json.dumps({"configuration": config}))
    assert report_configuration_problem(config, manifest) is None
    other = {**config, "seed": 2, "consistency": {"trials": 20}}
    problem = report_configuration_problem(other, manifest)
    assert "differs in consistency.trials, seed" in problem and "--configfile" in problem and "\n" not in problem
