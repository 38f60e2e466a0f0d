"""Rule replication_summary: counts per verdict for every published table (ordeval.replication), the numbers
pooled over data sets, and the published numbers of the data sets this configuration does not have."""

from ordeval.latex import write_latex
from ordeval.latex.replication import replication_latex, summary_latex
from ordeval.provenance import origins_of
from ordeval.replication import pooled, summary, unconfigured
from ordeval.scripting import job
from ordeval.table import read_csv, write_csv

with job(snakemake) as log:
    origins = origins_of(snakemake.input.provenance)
    tolerance = snakemake.params.tolerance
    pooled_table = pooled(snakemake.input.power, origins, tolerance)
    write_csv(pooled_table, snakemake.output.pooled_csv, origins)
    write_latex(replication_latex(pooled_table), snakemake.output.pooled_tex, origins,
                "published versus reproduced: discriminative power pooled over data sets")  # fmt: skip
    tables = [read_csv(path, numeric=("reproduced", "difference", "tolerance")) for path in snakemake.input.tables]
    counts = summary([*tables, pooled_table, unconfigured(origins, tolerance)])
    write_csv(counts, snakemake.output.csv, origins)
    write_latex(summary_latex(counts), snakemake.output.tex, origins, "published versus reproduced: verdicts")
    log.info("verdicts of %d published numbers: %s", counts["numbers"][-1],
             {key: counts[key][-1] for key in counts.columns[2:-1]})  # fmt: skip
