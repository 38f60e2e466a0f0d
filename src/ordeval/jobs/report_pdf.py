"""Rule report_pdf: compile results/<name>/report/ordeval.tex with a real TeX engine."""

from __future__ import annotations

import logging

from ..latex.report import compile_pdf, page_count
from . import Job

log = logging.getLogger("report_pdf")


def run(job: Job):
    """Compile the report (latexmk, else pdflatex); without a TeX engine the error names the packages."""
    pdf = compile_pdf(job.input["tex"])
    log.info("%s: %d pages", pdf, page_count(job.input["tex"]))
    return pdf
