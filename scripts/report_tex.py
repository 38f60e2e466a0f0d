"""Rule report_tex: results/<name>/report/ordeval.tex, a LaTeX document that inputs every table fragment and
includes every figure the rules print (workflow/rules/report.smk), each with its caption (the caption file the
HTML report shows beside it), in sections per analysis with a subsection per data set; a replication's verdict
counts on its first page."""

from ordeval.reports.jobs.report import write_report_tex
from ordeval.workflow.config import parameters
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    params, inputs = snakemake.params, snakemake.input
    sections = write_report_tex(
        inputs.printed,
        inputs.captions,
        inputs.provenance,
        inputs.manifest,
        one_file(inputs.replication),
        snakemake.output,
        sections=params.sections,
        wildcards=params.wildcards,
        config=params.config,
        parameters=parameters(params.config),
        name=params.name,
        task_titles=params.task_titles,
    )
    log.info("%d sections, %d items", len(sections), sum(len(section.items) for section in sections))
