"""Rule leaderboard_pooled: one data set's leaderboards under the official SemEval protocol (every measure on one
confusion matrix over all items): ranks, no significance groups (``ordeval score --protocol pooled`` adds the
paired randomisation test), as CSV, LaTeX and Markdown."""

from ordeval.analysis.leaderboard import pipeline_pooled_leaderboards
from ordeval.io.provenance import read_provenance
from ordeval.reports.leaderboard_text import write_leaderboards
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job

with job(snakemake) as log:
    dataset, params, inputs, output = snakemake.wildcards.dataset, snakemake.params, snakemake.input, snakemake.output
    stack = read_stack(inputs.stack, params.measures)
    provenance = read_provenance(inputs.provenance)
    items = provenance.get("summary", {}).get("items")
    boards = pipeline_pooled_leaderboards(
        stack,
        inputs.pooled,
        dataset=dataset,
        items=items,
        alpha=params.alpha,
        level=params.ci_level,
        origins={dataset: provenance["origin"]},
    )
    write_leaderboards(boards, output.csv, output.tex, output.md)
    write_table_page(output.csv, output.html)
    log.info("%s: %d measures x %d runs (pooled)", dataset, len(boards.boards), len(stack.runs))
