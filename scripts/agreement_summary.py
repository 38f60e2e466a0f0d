"""Rule agreement_summary: the tau matrix averaged over the data sets of one task, and each measure's average
similarity with the other measures (mean of the taus involving it), per data set and averaged."""

from ordeval.analysis.agreement import mean_pair_table, similarity_table
from ordeval.io.provenance import origins_of
from ordeval.io.table import read_csv, write_csv
from ordeval.reports.latex import measure_labels, write_latex
from ordeval.reports.latex.agreement import similarity_latex, tau_matrix_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_measure_table
from ordeval.workflow.scripting import job, keyed

with job(snakemake) as log:
    params, output = snakemake.params, snakemake.output
    origins = origins_of(snakemake.input.provenance)
    names = params.datasets
    tables = keyed(snakemake.input.tables, names)
    pairs = {name: read_csv(tables[name], numeric=["tau", "ci_low", "ci_high"]) for name in names}
    labels = {}
    for path in snakemake.input.measures:
        labels.update(measure_labels(read_measure_table(path)))
    listing = ", ".join(names)
    mean = mean_pair_table(list(pairs.values()))
    write_csv(mean, output.mean_csv, origins)
    write_table_page(output.mean_csv, output.mean_html)
    description = (
        f"Kendall's τ-{params.kendall} between the measures' run rankings, averaged over the data sets {listing}."
    )
    write_latex(tau_matrix_latex(mean, params.measures, labels), output.mean_tex, origins, description)
    similarity = similarity_table(pairs, params.measures)
    write_csv(similarity, output.similarity_csv, origins)
    write_table_page(output.similarity_csv, output.similarity_html)
    description = (
        "Average similarity of each measure with the other measures (mean of the taus involving it), "
        f"per data set and averaged over {listing}; the highest mean in bold."
    )
    write_latex(similarity_latex(similarity, labels), output.similarity_tex, origins, description)
    log.info("averaged %d measure pairs over %d data sets", len(mean), len(names))
