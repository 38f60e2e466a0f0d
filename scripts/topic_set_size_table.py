"""Rule topic_set_size_table: the topics a test collection needs for each measure of one data set (Sakai,
"Topic Set Size Design", Information Retrieval Journal 19(3), 2016), as CSV and LaTeX."""

from ordeval.io.provenance import read_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.topic_set_size import topic_set_size_caption, topic_set_size_latex
from ordeval.reports.table_page import write_table_page
from ordeval.stats.topic_set_size import topic_set_size_table
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params = snakemake.wildcards.dataset, snakemake.params
    stack = read_stack(snakemake.input.stack, params.measures)
    origins = read_origins({dataset: snakemake.input.provenance})
    matrices = {m: stack.matrix(m) for m in stack.measures}
    table = topic_set_size_table(matrices, alpha=params.alpha, power=params.power, fractions=params.mdd_fractions)
    write_csv(table, snakemake.output.csv, origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    write_latex(
        topic_set_size_latex(table, measure_labels(stack)),
        snakemake.output.tex,
        origins,
        topic_set_size_caption(table, dataset, params.mdd_fractions),
    )
    log.info("%s: %d measures, %d rows", dataset, len(stack.measures), len(table))
