"""The replication's headline counts, from a real run of config/replication.yaml on the real data (as the README
runs it: ../shared/data/raw beside the project, its own --configfile and nothing else): summary.csv, the PDF's
first page, the published-versus-reproduced page, the HTML report's first page, the summary the run ends with,
docs/replicator.md and the README say the same numbers (one function, results.replication.total_counts, computes
them); no number of a synthetic data set is exact or within randomisation error, and every run-pair count has the
verdict of its own. Skipped without the real data."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pdf_pages
import pytest
from conftest import REPO, SHARED_RAW, no_shared_data, project_copy

from ordeval.io.table import read_csv
from ordeval.results.replication import VERDICTS, headline, total_counts

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def replication(tmp_path_factory):
    if not (SHARED_RAW / "Sem16T4CE").is_dir():
        pytest.skip(no_shared_data(SHARED_RAW / "Sem16T4CE"))
    base = tmp_path_factory.mktemp("replication")
    project = project_copy(base / "project", data=True)  # resources/: the real data, as after `ordeval fetch`
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "config/replication.yaml"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=3000,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = project / "results" / "replication"
    return results, done.stdout + done.stderr


def test_every_document_says_the_same_counts(replication):
    results, output = replication
    counts = total_counts(read_csv(results / "tables" / "replication" / "summary.csv"))
    assert counts["numbers"] == 484 and sum(counts[verdict] for verdict in VERDICTS) == 484
    line = headline(counts)  # "of 484 published numbers: 226 exact, 40 within ..., 54 fixed by the set-up, ..."
    # the summary the run ends with, and the README's example of it
    assert f"replication: {line}; every number: results/replication/tables/replication/" in output, output[-3000:]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert f"replication: {line}; every number:" in readme
    # docs/replicator.md: "gives, of the 484 published numbers: 226 exact, 40 within randomisation error, ..."
    guide = " ".join((REPO / "docs" / "replicator.md").read_text(encoding="utf-8").split())
    assert f"gives, {line.replace('of ', 'of the ', 1)} (runs or gold not public)" in guide
    # the published-versus-reproduced page: the counts table
    page = (results / "tables" / "replication" / "published_vs_reproduced.html").read_text(encoding="utf-8")
    shown = dict(re.findall(r'<span class="verdict \w+">([^<]+)</span></td><td class="num">(\d+)</td>', page))
    assert {verdict: int(shown[verdict]) for verdict in VERDICTS} == {v: counts[v] for v in VERDICTS}
    assert f"Of the {counts['numbers']} published numbers" in page
    # the HTML report's first page
    intro = (results / "report" / "intro.rst").read_text(encoding="utf-8")
    for verdict in VERDICTS:
        assert f"   * - {verdict}\n     - {counts[verdict]}\n" in intro
    # the PDF's first page
    if shutil.which("pdftotext") and (results / "report" / "ordeval.pdf").is_file():
        first = subprocess.run(
            ["pdftotext", "-f", "1", "-l", "1", "-layout", str(results / "report" / "ordeval.pdf"), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert re.search(rf"Published versus reproduced: {counts['numbers']} numbers", first)
        for verdict in VERDICTS:
            assert re.search(rf"{re.escape(verdict.capitalize())}\s+{counts[verdict]}\n", first), (verdict, first)


def test_no_synthetic_number_is_exact_and_run_pairs_are_fixed_by_the_set_up(replication):
    results, _ = replication
    folder = results / "tables" / "replication"
    for path in sorted(folder.glob("*.csv")):
        if path.stem == "summary":
            continue
        table = read_csv(path)
        for record, origin in zip(table.records(), _origins(path), strict=True):
            if origin != "real":
                assert record["verdict"] not in ("exact", "within randomisation error"), (path.name, record)
            if record["statistic"] == "dp_pairs":
                assert record["verdict"] == "fixed by the set-up", (path.name, record)
            if record["verdict"] == "exact":  # the verdict can be read off what is shown: "1.000" beside "1"
                assert float(record["reproduced_printed"]) == float(record["published"]), (path.name, record)


def _origins(path):
    import csv

    with open(path, encoding="utf-8", newline="") as handle:
        return [row["data_origin"] for row in csv.DictReader(handle)]


def test_the_replication_pdf_reads_at_a_glance(replication):
    """At most 100 pages, every list entry once and whole, no page under a third full but the last of a section,
    no file name of ours printed (tests/pdf_pages.py; the tiny pipeline's PDF: tests/workflow/test_report_print.py)."""
    results, _ = replication
    pdf = results / "report" / "ordeval.pdf"
    if not pdf.is_file() or shutil.which("pdftotext") is None:
        pytest.skip("no compiled report (no TeX engine) or no poppler")
    assert pdf_pages.problems(pdf, max_pages=100) == []
