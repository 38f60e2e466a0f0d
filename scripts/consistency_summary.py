"""Rule consistency_summary: the mean tau per measure over the data sets of one task, per condition (CSV and
LaTeX)."""

from ordeval.analysis.consistency import mean_summary, read_summary
from ordeval.io.provenance import origins_of
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.consistency import mean_summary_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_measure_tables
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params = snakemake.params
    origins = origins_of(snakemake.input.provenance)
    labels = measure_labels(read_measure_tables(snakemake.input.measures))
    for condition in params.conditions:
        summaries = keyed(snakemake.input[f"summary_{condition}"], params.datasets)
        table = mean_summary({name: read_summary(path) for name, path in summaries.items()})
        write_csv(table, snakemake.output[f"mean_{condition}"], origins)
        write_table_page(snakemake.output[f"mean_{condition}"], snakemake.output[f"mean_html_{condition}"])
        description = (
            f"System ranking consistency, condition {condition}: mean Kendall's τ between the rankings on "
            "the two topic sets per data set, and their mean; sorted by the mean, the highest of each column "
            "in bold."
        )
        write_latex(mean_summary_latex(table, labels), snakemake.output[f"mean_tex_{condition}"], origins, description)
        log.info("%s: %d measures over %d data sets", condition, len(table), len(params.datasets))
