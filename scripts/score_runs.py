"""Rule score_runs: every run of one data set scored on every topic with every measure it scores: the scores as
computed (``scores.npz``, from which rule score_table writes a table per measure and rule score_stack the stack the
analyses read), the means (and their page for the HTML report) and the measures' directions."""

from ordeval.reports.table_page import write_table_page
from ordeval.tasks.jobs import score_dataset
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, output, dataset = snakemake.params, snakemake.output, snakemake.wildcards.dataset
    stack = score_dataset(dataset, params.task, params.spec, snakemake.input, params.measures, output, params.plugins)
    write_table_page(output.means, output.means_html)
    log.info("%s: scored %d runs x %d topics with %d measures", dataset, *stack.values.shape[::-1])
