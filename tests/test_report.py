"""The LaTeX report compiles with a real TeX engine (skipped only where none is installed)."""

import copy
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import run_rule_script, tiny_config

from ordeval.reports.captions import CaptionBlock, caption_document, rst_text, table_caption
from ordeval.reports.figures import new_figure, save_figure
from ordeval.reports.latex import bold, escape, number, report, tabular, write_latex
from ordeval.workflow import pipeline
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
    # title, contents and lists; the three tables with the figure (drawn 4 in wide, printed so); the wide table
    # on a landscape page
    assert report.page_count(tex) == 4
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


def test_sections_follow_the_catalogue_with_captions_from_the_outputs(tmp_path):
    tables, wide, figure = make_outputs(tmp_path)
    items = [
        ("popularity", str(figure)),
        ("agreement", str(tables[1])),
        ("agreement", str(tables[0])),
        ("data", str(wide)),
        ("agreement", str(tmp_path / "figures" / "line.png")),
    ]
    sections = report.report_sections(items, seed=7)
    assert [section.title for section in sections] == ["Data sets", "Ranking agreement", "Popularity vs Uniform"]
    agreement = sections[1]
    assert [item.path for item in agreement.items] == [str(tables[1]), str(tables[0])]  # a PNG is no item
    assert agreement.items[0].caption == (
        "Test table 1. SYNTHETIC data: simulated gold and simulated runs (baselines computed from the simulated "
        "gold). Seed 7."
    )  # sentences: a capital first, a full stop after each part
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

    text = "measure,tau,note\nMAE_M,0.123456789,*x*\nkappa,1,`y`\nF1_M,0.5,z\n"
    caption = table_caption("Kendall's tau of MAE_M", text, "agreement.csv", max_rows=2)
    html = publish_parts(caption, writer="html")["body"]
    assert "<table" in html and "0.1235" in html and "0.123456789" not in html
    assert "<em>" not in html and "*x*" in html and "`y`" in html  # literal, not markup
    assert "F1_M" not in html and "first 2 of 3 rows" in html and "agreement.csv has them all" in html
    assert "MAE_M" in html and "problematic" not in html  # no reST errors


def _render(text: str, **wildcards) -> str:
    """A caption file as Snakemake's report renders it first: a Jinja template, given the file's wildcards."""
    jinja2 = pytest.importorskip("jinja2")
    snakemake = SimpleNamespace(wildcards=SimpleNamespace(**wildcards))
    return jinja2.Environment().from_string(text).render(snakemake=snakemake, categories=[], files=[])


def _html(rst: str) -> str:
    """reStructuredText as the report shows it."""
    return pytest.importorskip("docutils.core").publish_parts(rst, writer="html")["body"]


def test_a_caption_file_holds_each_files_caption_under_a_condition_on_its_wildcards():
    blocks = [
        CaptionBlock({"dataset": name}, f"Consistency of {name}.", f"measure,tau\n{measure},0.5\n", f"{name}.csv")
        for name, measure in [("A", "NMD"), ("B", "RNOD")]
    ]
    document = caption_document(blocks)
    assert document.count("{% if snakemake.wildcards.dataset == 'A' %}") == 1
    for dataset, shown, hidden in [("A", "NMD", "RNOD"), ("B", "RNOD", "NMD")]:
        html = _html(_render(document, dataset=dataset))
        assert "<table" in html and shown in html and hidden not in html
        assert f"Consistency of {dataset}." in html and "problematic" not in html
    assert _render(document, dataset="C").strip() == ""  # no block of its own: no caption
    # an output without wildcards: its one caption as it is
    assert (
        caption_document([CaptionBlock({}, "A figure of run_1.")])
        == rst_text("A figure of run_1.")
        == ("A figure of run\\_1.\n")
    )


def test_a_table_caption_keeps_the_table_literal_through_the_reports_jinja():
    # Snakemake renders every caption file as a Jinja template before reST: a cell with Jinja syntax
    # must stay as it is.
    cell = "{{ x }} {% y %} {# z #}"
    document = caption_document([CaptionBlock({"dataset": "B"}, "Table.", f"measure,tau\nRNOD,{cell}\n", "B.csv")])
    assert cell in _html(_render(document, dataset="B"))


def test_every_reported_table_shows_its_rows_in_the_caption_file_of_its_rule_output(tmp_path, monkeypatch):
    """Script report_captions with the params rule report_captions gives it (pipeline.report_captions): one
    caption file per reported rule output (the one report_marks gives the output), holding every file's caption
    and a table's own rows under the condition on its wildcards."""
    monkeypatch.chdir(tmp_path)
    planned = make_plan(tiny_config(classification=True), workdir=tmp_path, check_files=False)
    captions, marks = pipeline.report_captions(planned), pipeline.report_marks(planned)
    outputs = planned.reported_outputs()
    assert set(captions) == {Path(output.caption).stem for output in outputs}
    assert {mark.caption for mark in marks.values()} == {output.caption for output in outputs}
    # the consistency summaries of every data set: one rule output, one caption file
    summaries = captions["consistency-summary-half"]
    assert [block["wildcards"] for block in summaries] == [{"dataset": name} for name in planned.datasets]
    assert marks[planned.path("consistency/summary", "csv", condition="half")].caption.endswith(
        "consistency-summary-half.rst"
    )
    tables = {}  # stand-ins for every reported table, each with a row of its own
    for index, output in enumerate(output for output in outputs if output.path.endswith(".csv")):
        assert marks[output.template].caption == output.caption
        tables[output.path] = (output, f"ROW_{index}")
        Path(output.path).parent.mkdir(parents=True, exist_ok=True)
        Path(output.path).write_text(f"measure,tau\nROW_{index},0.123456789\n")
    assert len(tables) > len(captions) / 2
    files = {name: planned.path("report/captions", key=name) for name in captions}
    table_inputs = [block["table"] for blocks in captions.values() for block in blocks if block["table"]]
    assert sorted(table_inputs) == sorted(tables)
    run_rule_script(
        "report_captions",
        input={"tables": table_inputs},
        output={"captions": list(files.values())},
        params={"captions": captions},
    )
    for path, (output, row) in tables.items():
        wildcards = {name: value for name, value in output.values.items() if "{" + name + "}" in output.template}
        rendered = _render(Path(output.caption).read_text(), **wildcards)
        assert row.replace("_", "\\_") in rendered and rendered.count("ROW\\_") == 1, path  # its own rows only
        assert rst_text(planned.caption(output.key, **output.values)) in rendered, path
    html = _html(_render(Path(files["consistency-summary-half"]).read_text(), dataset="TinyDQ"))
    (row,) = [
        row
        for path, (output, row) in tables.items()
        if output.values.get("dataset") == "TinyDQ"
        and output.key == "consistency/summary"
        and output.values["condition"] == "half"
    ]
    assert "<table" in html and row in html and "0.1235" in html and "problematic" not in html


def test_report_marks_name_the_caption_category_and_subcategory_of_every_reported_output(tmp_path):
    planned = make_plan(tiny_config(classification=True), workdir=tmp_path, check_files=False)
    marks = pipeline.report_marks(planned)
    assert set(marks) == {output.template for output in planned.reported_outputs()}
    assert all("{dataset}" not in mark.caption for mark in marks.values())  # one caption per rule output
    per_dataset = marks[planned.path("agreement/dataset", "csv")]
    assert per_dataset.subcategory == "{dataset}" and per_dataset.category.endswith("Ranking agreement")
    summary = marks[planned.path("agreement/mean", "csv", task_suffix="{task_suffix}")]
    assert summary.subcategory(SimpleNamespace(task_suffix="_oc")) == "classification"
    assert summary.subcategory(SimpleNamespace(task_suffix="")) == "quantification"
    assert marks[planned.path("agreement/dnkt", "csv")].subcategory == "DNKT_{measure}"
    categories = sorted({mark.category for mark in marks.values()})
    assert [category[:3] for category in categories] == [f"{i:02d} " for i in range(len(categories))]


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
