"""Rule replication_dataset: one data set's published numbers beside the ones reproduced here, with the
difference and a verdict (ordeval.results.replication; docs/methods.md, section 7)."""

from ordeval.io.provenance import read_origins
from ordeval.io.table import write_csv
from ordeval.reports.latex import write_latex
from ordeval.reports.latex.replication import replication_latex
from ordeval.reports.table_page import write_table_page
from ordeval.results.replication import Reproduced, published_numbers, verdicts
from ordeval.stats.splits import CONDITIONS
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    dataset = snakemake.wildcards.dataset
    origins = read_origins({dataset: snakemake.input.provenance})
    reproduced = Reproduced.read(
        dataset,
        origins[dataset],
        agreement=snakemake.input.agreement,
        consistency={condition: snakemake.input[f"consistency_{condition}"] for condition in CONDITIONS},
        power=one_file(snakemake.input.power),
        pooled=one_file(snakemake.input.pooled),
        means=snakemake.input.means,
        classes=snakemake.params.classes,
        popularity=one_file(snakemake.input.popularity),
    )
    rows = [row for row in published_numbers() if row.dataset == dataset]
    table = verdicts(rows, reproduced, snakemake.params.tolerance)
    write_csv(table, snakemake.output.csv, origins, [reproduced.row_origin(row) for row in rows])
    write_table_page(snakemake.output.csv, snakemake.output.html)
    write_latex(replication_latex(table), snakemake.output.tex, origins, f"{dataset}: published versus reproduced")
    log.info("%s: %d published numbers, verdicts %s", dataset, len(table), sorted(set(table["verdict"])))
