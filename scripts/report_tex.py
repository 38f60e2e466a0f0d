"""Rule report_tex: results/<name>/report/ordeval.tex, a LaTeX document that inputs every table fragment and
includes every figure of the configuration, each with its caption, in the catalogue's sections (a subsection per
data set); a replication's verdict counts on its first page."""

import json
from pathlib import Path

from ordeval.io.files import write_text
from ordeval.io.provenance import origins_of
from ordeval.reports.latex.report import (
    latex_document,
    replication_opening,
    report_introduction,
    report_sections,
    verdict_counts,
)
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    origins = origins_of(inputs.provenance)
    manifest = json.loads(Path(inputs.manifest).read_text(encoding="utf-8"))
    items = list(zip(params.sections, params.datasets, inputs.fragments, strict=True))
    sections = report_sections(items, params.seed)
    title = f"ordeval: meta-evaluation of ordinal classification and quantification measures ({params.name})"
    introduction = report_introduction(params.name, params.parameters, origins, manifest["git_commit"])
    summary = one_file(inputs.replication)
    opening = replication_opening(verdict_counts(summary)) if summary else ""
    write_text(latex_document(sections, title, introduction, snakemake.output.tex, opening), snakemake.output.tex)
    log.info("%d sections, %d items", len(sections), sum(len(section.items) for section in sections))
