"""Rule report_intro: the first page of Snakemake's HTML report for this configuration (ordeval.reports.captions): what
ordeval is, where the data come from, and a replication's counts per verdict with a link to every published
number beside the reproduced one."""

from ordeval.io.files import write_text
from ordeval.io.provenance import origins_of
from ordeval.reports.captions import report_intro
from ordeval.reports.latex.report import verdict_counts
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    params = snakemake.params
    origins = origins_of(snakemake.input.provenance)
    summary = one_file(snakemake.input.replication)
    counts = verdict_counts(summary) if summary else None
    write_text(
        report_intro(params.name, params.seed, origins, counts, one_file(snakemake.input.page) or ""),
        snakemake.output.rst,
    )
    log.info(
        "%s: %d data sets%s", params.name, len(origins), f", {counts['numbers']} published numbers" if counts else ""
    )
