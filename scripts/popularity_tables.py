"""Rule popularity_tables: Popularity vs Uniform per topic (docs/methods.md 4.6) over the data sets that have
both runs: the topics on which each measure prefers either baseline (with TOTAL rows) and the per-topic deltas."""

from ordeval.analysis.popularity import compared_origins, compute_deltas, deltas_table, preference_table, total_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import measure_label, measure_labels, write_latex
from ordeval.reports.latex.popularity import preference_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, output = snakemake.params, snakemake.output
    provenance = keyed(snakemake.input.provenance, params.all_datasets)
    runs = [params.popularity_run, params.uniform_run]
    tolerance, measures = params.tie_tolerance, params.measures
    # Labels from the scores' measure tables; a measure's escaped name where no data set is compared.
    deltas, labels = {}, {measure: measure_label(measure) for measure in measures}
    for dataset, path in keyed(snakemake.input.stack, params.datasets).items():
        stack = read_stack(path, measures)
        labels.update(measure_labels(stack))
        deltas[dataset] = compute_deltas(stack, *runs)
    origins = compared_origins(provenance, list(deltas), runs)
    skipped = "; ".join(f"{name}: {reason}" for name, reason in params.skipped.items())
    note = f"No data set has both {runs[0]} and {runs[1]}." + (f" Left out: {skipped}." if skipped else "")
    table = preference_table(deltas, measures, tolerance, origins)
    write_csv(table, output.csv, total_origins(table, origins))
    write_table_page(output.csv, output.html)
    description = (
        f"Popularity vs Uniform: topics on which each measure prefers {runs[1]} (U) or {runs[0]} (P), "
        f"ties (|Delta| <= {tolerance:g}) in T where any; the larger count in bold; TOTAL sums the data sets "
        "(one TOTAL per data origin when they differ)." + (f" Left out: {skipped}." if skipped else "")
    )
    write_latex(preference_latex(table, measures, labels, note), output.tex, origins, description)
    write_csv(deltas_table(deltas), output.deltas, origins)
    write_table_page(output.deltas, output.deltas_html)
    log.info("compared %d data sets; left out: %s", len(deltas), skipped or "none")
