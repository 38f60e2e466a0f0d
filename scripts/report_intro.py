"""Rule report_intro: the first page of Snakemake's HTML report for this configuration (ordeval.reports.captions): what
ordeval is, where the data come from, and a replication's counts per verdict with a link to every published
number beside the reproduced one."""

from ordeval.reports.jobs.report import write_report_intro
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    counts = write_report_intro(
        inputs.provenance,
        one_file(inputs.replication),
        one_file(inputs.page),
        snakemake.output,
        name=params.name,
        seed=params.seed,
        start=list(zip(params.start, inputs.start, strict=True)),
    )
    log.info("%s: %s", params.name, f"{counts['numbers']} published numbers" if counts else "no replication")
