"""Rule agreement_dnkt: Kendall's τ (with CIs) between the run rankings of DNKT, M and their harmonic mean
DNKT_M, per data set and averaged over the data sets (docs/methods.md 4.1), as CSV and LaTeX."""

from ordeval.analysis.agreement import combination_measures, combination_table, ranking_agreement
from ordeval.io.provenance import origins_of
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.agreement import combination_latex
from ordeval.reports.table_page import write_table_page
from ordeval.stats.intervals import CI_METHODS
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    measure, params = snakemake.wildcards.measure, snakemake.params
    level, variant, method = params.ci_level, params.kendall, params.ci_method
    origins = origins_of(snakemake.input.provenance)
    measures = combination_measures(measure)
    agreements, labels = {}, {}
    for name, path in keyed(snakemake.input.stack, snakemake.params.datasets).items():
        stack = read_stack(path, measures)
        agreements[name] = ranking_agreement(stack.means(), measures, stack.lower_is_better, level, variant, method)
        labels.update(measure_labels(stack))
    table = combination_table(agreements)
    write_csv(table, snakemake.output.csv, origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    description = (
        f"Kendall's τ-{variant} (with {level:.0%} CIs, {CI_METHODS[method]}) between the run rankings of "
        f"DNKT, {measure} and their harmonic mean DNKT_{measure}, per data set and averaged over the data sets "
        "(mean: no CI)."
    )
    write_latex(combination_latex(table, labels), snakemake.output.tex, origins, description)
    log.info("DNKT_%s: %d data sets", measure, len(agreements))
