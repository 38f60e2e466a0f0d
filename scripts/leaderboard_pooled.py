"""Rule leaderboard_pooled: one data set's leaderboards under the official SemEval protocol (every measure on one
confusion matrix over all items): ranks, no significance groups (``ordeval score --protocol pooled`` adds the
paired randomisation test), as CSV, its page, LaTeX and Markdown."""

from ordeval.reports.leaderboard_text import write_pooled_leaderboards
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs = snakemake.wildcards.dataset, snakemake.params, snakemake.input
    boards = write_pooled_leaderboards(
        inputs.stack,
        inputs.pooled,
        inputs.provenance,
        snakemake.output,
        dataset=dataset,
        measures=params.measures,
        alpha=params.alpha,
        level=params.ci_level,
    )
    log.info("%s: %d measures (pooled)", dataset, len(boards.boards))
