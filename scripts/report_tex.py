"""Rule report_tex: results/<name>/report/ordeval.tex, a LaTeX document that inputs every table fragment and
includes every figure the rules print (workflow/rules/report.smk), each with its caption (the caption file the
HTML report shows beside it), in sections per analysis with a subsection per data set; a replication's verdict
counts on its first page."""

import json
from pathlib import Path

from ordeval.io.files import write_text
from ordeval.io.provenance import origins_of
from ordeval.reports.latex.report import (
    latex_document,
    printed_items,
    replication_opening,
    report_introduction,
    report_parameters,
    report_sections,
    verdict_counts,
)
from ordeval.workflow.config import parameters
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    origins = origins_of(inputs.provenance)
    manifest = json.loads(Path(inputs.manifest).read_text(encoding="utf-8"))
    items = printed_items(inputs.printed, inputs.captions, params.sections, params.wildcards, params.config)
    sections = report_sections(items, params.config["seed"])
    title = f"ordeval: meta-evaluation of ordinal classification and quantification measures ({params.name})"
    introduction = report_introduction(
        params.name, report_parameters(parameters(params.config)), origins, manifest["git_commit"]
    )
    summary = one_file(inputs.replication)
    opening = replication_opening(verdict_counts(summary)) if summary else ""
    write_text(latex_document(sections, title, introduction, snakemake.output.tex, opening), snakemake.output.tex)
    log.info("%d sections, %d items", len(sections), sum(len(section.items) for section in sections))
