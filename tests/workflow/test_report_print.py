"""The compiled report read as printed (the tiny pipeline's PDF): every figure is included at the size it is
drawn, so no figure text prints under 7 points (measured in the PDF with poppler's pdftohtml: the font sizes of
the figures' DejaVu text); no page holds a heading alone; no two pages are alike; the lists of tables and figures
are there, every entry printed once and whole; no page under a third full except the last of a section, no file
name of ours in the text (measured by tests/pdf_pages.py); every figure's legends clear of its data-origin note, its
other legends, its texts and its data (save_figure checks each figure it writes with
ordeval.reports.figures.legend_overlaps and says so in the job's log). The default configuration's page count (at
most 90) is checked by .ci/run on the default results, the replication's (at most 100) by
tests/workflow/test_replication_headline.py."""

from __future__ import annotations

import re
import shutil
import subprocess

import pdf_pages
import pytest

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def report(pipeline):
    pdf = pipeline.results / "report" / "ordeval.pdf"
    if not pdf.is_file():
        pytest.skip("no compiled report (no TeX engine)")
    return pdf


def test_every_figure_is_printed_at_the_size_it_is_drawn(report):
    log = report.with_suffix(".log").read_text(errors="replace").replace("\n", "")
    printed = re.findall(r"ordeval figure: (\S+\.pdf) printed ([0-9.]+)pt", log)
    assert printed
    for path, width in printed:
        figure = (report.parent / path).read_bytes()
        box = [float(v) for v in re.search(rb"/MediaBox\s*\[\s*([-0-9. ]+)\]", figure).group(1).split()]
        drawn = box[2] - box[0]  # PDF points (1/72 in)
        assert float(width) * 72 / 72.27 == pytest.approx(drawn, rel=1e-3), path  # TeX points to PDF points


def test_no_figure_text_prints_under_7_points(report):
    if shutil.which("pdftohtml") is None:
        pytest.skip("poppler's pdftohtml is not installed (Debian: poppler-utils)")
    xml = subprocess.run(
        ["pdftohtml", "-xml", "-i", "-zoom", "3", "-stdout", str(report)], capture_output=True, text=True, check=True
    ).stdout
    specs = re.findall(r'<fontspec id="(\d+)" size="(\d+)" family="([^"]+)"', xml)
    fonts = {font: (int(size) / 3, family) for font, size, family in specs}
    used = {font for font in re.findall(r'<text [^>]*font="(\d+)"', xml)}
    figure_sizes = [fonts[font][0] for font in used if "DejaVu" in fonts[font][1]]
    assert figure_sizes and min(figure_sizes) >= 6.9  # 7 points, at pdftohtml's resolution of 1/3 point


def test_no_heading_alone_on_a_page_and_no_two_pages_alike(report):
    if shutil.which("pdftotext") is None:
        pytest.skip("poppler's pdftotext is not installed (Debian: poppler-utils)")
    text = subprocess.run(["pdftotext", "-layout", str(report), "-"], capture_output=True, text=True, check=True).stdout
    pages = [page.strip() for page in text.split("\f") if page.strip()]
    assert "List of Tables" in pages[0] + pages[1] + pages[2] and any("List of Figures" in page for page in pages[:6])
    for number, page in enumerate(pages, start=1):
        lines = [line for line in page.splitlines() if line.strip()]
        body = [line for line in lines if not re.fullmatch(r"\s*\d+\s*", line)]  # without the page number
        assert len(body) > 2, f"page {number} holds only {body}"
    bodies = [re.sub(r"\s+\d+\s*$", "", page) for page in pages]
    assert len(set(bodies)) == len(bodies)


def poppler() -> None:
    if shutil.which("pdftotext") is None or shutil.which("pdfinfo") is None:
        pytest.skip("poppler's pdftotext and pdfinfo are not installed (Debian: poppler-utils)")


def test_the_lists_of_tables_and_figures_name_each_item_once_and_whole(report):
    poppler()
    entries = pdf_pages.list_entries(report)
    # every table and figure has its entry (the parser reads the lists whole): as many as the captions number
    text = " ".join(page.text() for page in pdf_pages.pages(report))
    for kind, label in (("tables", "Table"), ("figures", "Figure")):
        numbers = {int(number) for number in re.findall(rf"\b{label} (\d+):", text)}
        assert len(entries[kind]) == max(numbers) == len(numbers), kind
    for kind, found in entries.items():
        assert found, kind
        assert pdf_pages.duplicates(found) == [], kind
        assert [entry for entry in found if pdf_pages.cut(entry)] == [], kind


def test_no_page_is_under_a_third_full_but_the_last_of_a_section_and_no_file_name_is_printed(report):
    poppler()
    assert pdf_pages.problems(report) == []


def test_every_figure_is_checked_and_no_legend_covers_anything(pipeline, report):
    logs = "\n".join(
        path.read_text(encoding="utf-8", errors="replace") for path in (pipeline.results / "logs").rglob("*.log")
    )
    assert " covers " not in logs, [line for line in logs.splitlines() if " covers " in line]
    checked = {line.split(": ")[0].split()[-1] for line in logs.splitlines() if "clear of the note" in line}
    drawn = {path.relative_to(pipeline.workdir).as_posix() for path in (pipeline.results / "figures").rglob("*.pdf")}
    # every figure with a legend says so (the box plots, heatmaps and scatter plots have none)
    assert checked and checked <= drawn, checked - drawn
    assert {path for path in drawn if "/dp_curves/" in path or "/topic_set_size/" in path} <= checked
