"""Rule datasets_table: one row per data set (the ACL 2021 paper's Table 1, for every configured data set)."""

from ordeval.io.provenance import read_provenance
from ordeval.io.table import write_csv
from ordeval.reports.latex import write_latex
from ordeval.reports.latex.datasets import DESCRIPTION, datasets_latex, datasets_table
from ordeval.reports.table_page import write_table_page
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    records = [read_provenance(path) for path in snakemake.input.provenance]
    provenance = {record["dataset"]: record for record in records}
    origins = {name: record["origin"] for name, record in provenance.items()}
    table = datasets_table(provenance)
    write_csv(table, snakemake.output.csv, origins)
    write_table_page(snakemake.output.csv, snakemake.output.html)
    write_latex(datasets_latex(table), snakemake.output.tex, origins, DESCRIPTION)
    log.info("%d data sets", len(table))
