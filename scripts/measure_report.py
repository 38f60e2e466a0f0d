"""Rule measure_report: one measure of ``measure_reports`` (``ordeval evaluate-measure``) next to the established
measures of its task, from the tables of the pipeline's analyses: Markdown, HTML, LaTeX (its PDF: rule
measure_report_pdf): ``results/<name>/measures/<measure>/report.*``."""

from ordeval.reports.measure_report import write_measure_report
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    name, params, inputs = snakemake.wildcards.measure, snakemake.params, snakemake.input
    files = {
        "agreement": keyed(inputs.agreement, params.datasets),
        "similarity": inputs.similarity,
        "consistency": {
            (d, c): path
            for c in params.conditions
            for d, path in keyed(inputs[f"consistency_{c}"], params.datasets).items()
        },
        "power": inputs.power,
        "topic_set_size": keyed(inputs.topic_set_size, params.datasets),
    }
    report = write_measure_report(
        name,
        params.task,
        files,
        snakemake.output,
        plugins=params.plugins,
        property_instances=params.property_instances,
        seed=params.seed,
    )
    log.info("%s (%s): %d sections", name, params.task, len(report.sections))
