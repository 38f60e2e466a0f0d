"""Rule significance_overlap: the significance overlap SSO = b/(a+b+c) of every pair of measures on one data
set (docs/methods.md 4.5), as CSV and LaTeX."""

from ordeval.analysis.significance import overlap_table, read_significance
from ordeval.io.provenance import read_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.significance import sso_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    significance = read_significance(inputs.pvalues, inputs.measures, params.measures, params.hsd_trials, inputs.arrays)
    labels = measure_labels(read_measure_table(inputs.measures))
    origins = read_origins({dataset: inputs.provenance})
    overlap = overlap_table(significance, params.alpha)
    write_csv(overlap, snakemake.output.csv, origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    test = f"randomised Tukey HSD, B = {params.hsd_trials} trials, α = {params.alpha:g}"
    write_latex(
        sso_latex(overlap, params.measures, labels),
        snakemake.output.tex,
        origins,
        f"{dataset}: significance overlap SSO = b/(a+b+c) in % (a/b/c) of pairs of measures; "
        f"a, c = run pairs significant only with the row / column measure, b = with both ({test}).",
    )
    log.info("%s: %d measure pairs", dataset, len(overlap))
