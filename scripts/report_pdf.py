"""Rules report_pdf and measure_report_pdf: compile a report's .tex (results/<name>/report/ordeval.tex, or one
measure's results/<name>/measures/<measure>/report.tex) with a real TeX engine (latexmk, else pdflatex); without
one, the error names the packages to install."""

from pathlib import Path

from ordeval.reports.latex.report import compile_pdf, page_count
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    pdf = compile_pdf(snakemake.input.tex)
    if Path(pdf) != Path(snakemake.output.pdf).resolve():
        raise RuntimeError(f"{pdf}: expected {snakemake.output.pdf}")
    log.info("%s: %d pages", pdf, page_count(snakemake.input.tex))
