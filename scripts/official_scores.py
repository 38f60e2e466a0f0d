"""Rule official_scores: an ordinal classification data set under the official SemEval protocol (every measure on
one confusion matrix over all items, per run) and the counts of the measures' 0/0 conventions, as TSV and as pages
for the HTML report."""

from ordeval.reports.table_page import write_table_page
from ordeval.tasks.classification import official_scores
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    params, output, dataset = snakemake.params, snakemake.output, snakemake.wildcards.dataset
    runs = official_scores(
        dataset, params.spec, snakemake.input, params.measures, output.pooled, output.conventions, params.plugins
    )
    write_table_page(output.pooled, output.pooled_html)
    write_table_page(output.conventions, output.conventions_html)
    log.info("%s: %d runs under the official protocol", dataset, runs)
