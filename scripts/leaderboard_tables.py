"""Rule leaderboard_tables: one data set's leaderboard of every leaderboard measure (mean, interval, rank,
significance groups from the randomised Tukey HSD) as CSV, LaTeX, Markdown and a self-contained HTML page
(with the official protocol's boards too where the data set has pooled scores), and every measure side by side
for print (LaTeX)."""

from ordeval.reports.jobs.leaderboard import write_leaderboard_tables
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    pooled = one_file(inputs.pooled)
    boards = write_leaderboard_tables(
        inputs.stack,
        inputs.pvalues,
        inputs.arrays,
        inputs.provenance,
        pooled,
        snakemake.output,
        dataset=dataset,
        measures=params.measures,
        alpha=params.alpha,
        level=params.ci_level,
        trials=params.hsd_trials,
    )
    log.info("%s: %d measures%s", dataset, len(boards.boards), " (and the pooled protocol)" if pooled else "")
