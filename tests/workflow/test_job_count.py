"""The number of jobs the README and docs/ARCHITECTURE.md give for the default pipeline is Snakemake's count
(``snakemake -n``, with the PDF): a change of the rule layout that changes it fails here until they say so."""

import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO

pytestmark = pytest.mark.workflow

#: How the documents state the count: "<N> jobs (Snakemake's count with the PDF".
STATED = re.compile(r"(\d+)\s+jobs\s+\(Snakemake's\s+count\s+with\s+the\s+PDF")


def test_the_documents_give_snakemakes_job_count_of_the_default_pipeline(tmp_path):
    if not shutil.which("latexmk"):
        pytest.skip("the documents count the jobs with the PDF, which needs TeX (latexmk)")
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "-n",
        "--cores",
        "2",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(tmp_path),
        "--configfile",
        str(REPO / "config" / "config.yaml"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    count = int(re.search(r"^total\s+(\d+)\s*$", done.stdout + done.stderr, re.M).group(1))
    documents = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    stated = {path.name: [int(n) for n in STATED.findall(path.read_text(encoding="utf-8"))] for path in documents}
    assert any(stated.values()) and stated["ARCHITECTURE.md"], "docs/ARCHITECTURE.md states the count"
    for document, numbers in stated.items():
        assert numbers == [count] * len(numbers), f"{document} says {numbers} jobs, snakemake -n counts {count}"
