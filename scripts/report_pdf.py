"""Rule report_pdf: compile results/<name>/report/ordeval.tex with a real TeX engine."""

import logging

from ordeval.report import compile_pdf, page_count

log = logging.getLogger("report_pdf")


def main(tex_path):
    """Compile ``tex_path`` (latexmk, else pdflatex); without a TeX engine the error names the packages."""
    pdf = compile_pdf(tex_path)
    log.info("%s: %d pages", pdf, page_count(tex_path))
    return pdf


if "snakemake" in globals():
    from rule_logging import logged

    with logged(snakemake.log[0], "report_pdf"):
        main(snakemake.input.tex)
