"""Rule replication_summary: counts per verdict for every published table of the configured data sets
(ordeval.results.replication), and the numbers pooled over data sets, each row's data origin that of the numbers it
counts; and the page a replicator reads first (ordeval.reports.replication_page)."""

from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import write_latex
from ordeval.reports.latex.replication import replication_latex, summary_latex
from ordeval.reports.replication_page import measure_names, write_replication_page
from ordeval.reports.table_page import write_table_page
from ordeval.results.replication import (
    headline,
    pooled,
    pooled_origin,
    summary,
    summary_origins,
    total_counts,
)
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    origins = origins_of(snakemake.input.provenance)
    tolerance = snakemake.params.tolerance
    pooled_table = pooled(snakemake.input.power, origins, tolerance)
    pooled_origins = [pooled_origin(origins)] * len(pooled_table)
    write_csv(pooled_table, snakemake.output.pooled_csv, origins, pooled_origins)
    write_table_page(snakemake.output.pooled_csv, snakemake.output.pooled_html)
    write_latex(
        replication_latex(pooled_table),
        snakemake.output.pooled_tex,
        origins,
        "Published versus reproduced: discriminative power pooled over data sets.",
    )
    tables = [
        Table.read(path, sep=",", numeric=("reproduced", "difference", "tolerance")) for path in snakemake.input.tables
    ]
    counts = summary([*tables, pooled_table])
    pooled_table = pooled_table.with_column("data_origin", pooled_origins)
    row_origins = summary_origins([*tables, pooled_table])
    write_csv(counts, snakemake.output.csv, origins, row_origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    by_dataset = {table["dataset"][0]: table for table in tables if len(table)}
    if len(pooled_table):
        by_dataset["pooled"] = pooled_table
    write_replication_page(
        snakemake.output.page,
        f"{snakemake.params.name}: published versus reproduced",
        counts.with_column("data_origin", row_origins),
        by_dataset,
        measure_names(),
        {**origins, "pooled": pooled_origins[0] if pooled_origins else ""},
    )
    write_latex(
        summary_latex(counts),
        snakemake.output.tex,
        origins,
        "Published versus reproduced: the verdicts per published table.",
    )
    log.info("verdicts %s", headline(total_counts(counts)))
