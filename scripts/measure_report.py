"""Rule measure_report: one measure of ``measure_reports`` (``ordeval evaluate-measure``) next to the established
measures of its task, from the tables of the pipeline's analyses: Markdown, HTML, LaTeX (its PDF: rule
measure_report_pdf): ``results/<name>/measures/<measure>/report.*``."""

from ordeval.io.files import write_text
from ordeval.properties import check_measure
from ordeval.reports.measure_report import build_report, html, latex, markdown
from ordeval.tasks import get_task
from ordeval.tasks.plugins import load_plugins
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    name, params, inputs, output = snakemake.wildcards.measure, snakemake.params, snakemake.input, snakemake.output
    load_plugins(params.plugins)
    measure = get_task(params.task).registry[name]
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
    report = build_report(measure, files, check_measure(measure, trials=params.property_instances, seed=params.seed))
    write_text(markdown(report), output.md)
    write_text(html(report), output.html)
    write_text(latex(report), output.tex)
    log.info("%s (%s): %d sections", name, params.task, len(report.sections))
