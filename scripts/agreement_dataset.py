"""Rule agreement_dataset: Kendall's τ (with CIs) between the run rankings of every pair of measures on one
data set (docs/methods.md 4.1), as CSV (unrounded) and LaTeX."""

from ordeval.analysis.agreement import ranking_agreement
from ordeval.io.provenance import read_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.agreement import tau_matrix_latex
from ordeval.reports.table_page import write_table_page
from ordeval.stats.intervals import CI_METHODS
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params = snakemake.wildcards.dataset, snakemake.params
    level, variant, method = params.ci_level, params.kendall, params.ci_method
    stack = read_stack(snakemake.input.stack, params.measures)
    origins = read_origins({dataset: snakemake.input.provenance})
    agreement = ranking_agreement(stack.means(), stack.measures, stack.lower_is_better, level, variant, method)
    pairs = agreement.pair_table()
    write_csv(pairs, snakemake.output.csv, origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    description = (
        f"{dataset}: Kendall's τ-{variant} between the rankings of {agreement.runs} runs by mean score, "
        f"for every pair of measures, with {level:.0%} CIs ({CI_METHODS[method]}) below the taus."
    )
    write_latex(
        tau_matrix_latex(pairs, stack.measures, measure_labels(stack)), snakemake.output.tex, origins, description
    )
    low = min(pairs.column("tau", float)) if len(pairs) else float("nan")
    log.info("%s: %d measure pairs over %d runs, lowest tau %.3f", dataset, len(pairs), agreement.runs, low)
