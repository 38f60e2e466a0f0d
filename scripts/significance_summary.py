"""Rule significance_summary: for the data sets of one task, discriminative power (per data set and pooled)
and the contradictions between measures (counts, the exact run pairs, and with identical runs collapsed), each
as CSV and LaTeX (docs/methods.md 4.4, 4.5)."""

from ordeval.analysis.significance import (
    collapse_identical_runs,
    contradiction_counts,
    contradiction_table,
    discriminative_power,
    discriminative_power_table,
    read_identical_sets,
    read_significance,
)
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.significance import (
    contradiction_counts_latex,
    contradictions_latex,
    discriminative_power_latex,
)
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, inputs, output = snakemake.params, snakemake.input, snakemake.output
    alpha, trials, measures = params.alpha, params.hsd_trials, params.measures
    test = f"randomised Tukey HSD, B = {trials} trials, α = {alpha:g}"
    origins = origins_of(inputs.provenance)
    files = {key: keyed(inputs[key], params.datasets) for key in ("pvalues", "arrays", "measures", "identical_runs")}
    powers, contradictions, identical_set_of, labels = {}, [], {}, {}
    for dataset in params.datasets:
        pvalues, arrays, measures_tsv, identical_runs = (files[key][dataset] for key in files)
        significance = read_significance(pvalues, measures_tsv, measures, trials, arrays)
        labels.update(measure_labels(read_measure_table(measures_tsv)))
        powers[dataset] = discriminative_power(significance, alpha)
        contradictions.append(contradiction_table(significance, alpha, dataset))
        identical_set_of[dataset] = read_identical_sets(identical_runs)
        log.info("%s: significant pairs per measure %s", dataset, powers[dataset].significant.tolist())
    power_table = discriminative_power_table(powers)
    write_csv(power_table, output.power_csv, origins)
    write_table_page(output.power_csv, output.power_html)
    write_latex(
        discriminative_power_latex(power_table, labels),
        output.power_tex,
        origins,
        f"Discriminative power: % of the T run pairs with p < alpha (S in parentheses), {test}; "
        "POOLED = sum S / sum T. Bold >= 50%, underlined < 40%.",
    )
    detail = Table.concat(contradictions)
    counts = contradiction_counts(detail, params.datasets, measures)
    write_csv(counts, output.counts_csv, origins)
    write_table_page(output.counts_csv, output.counts_html)
    write_latex(
        contradiction_counts_latex(counts, labels),
        output.counts_tex,
        origins,
        f"Contradictions: run pairs significant under both measures whose better run differs ({test}).",
    )
    write_csv(detail, output.contradictions_csv, origins)
    write_table_page(output.contradictions_csv, output.contradictions_html)
    write_latex(
        contradictions_latex(detail, labels),
        output.contradictions_tex,
        origins,
        f"Contradictions: measure 1 says run X is significantly better than run Y, measure 2 the reverse ({test}).",
    )
    collapsed = collapse_identical_runs(detail, identical_set_of)
    write_csv(collapsed, output.collapsed_csv, origins)
    write_table_page(output.collapsed_csv, output.collapsed_html)
    write_latex(
        contradictions_latex(collapsed, labels),
        output.collapsed_tex,
        origins,
        "Contradictions as in contradictions.tex, runs with identical scores under every measure collapsed into "
        "one row (e.g. BL-popularity-{C,E}); Pairs = individual run pairs in the row.",
    )
    log.info("%d contradicting run pairs (%d rows with identical runs collapsed)", len(detail), len(collapsed))
