"""Rule leaderboard_tables: one data set's leaderboard of every leaderboard measure (mean, interval, rank,
significance groups from the randomised Tukey HSD) as CSV, LaTeX, Markdown and a self-contained HTML page
(with the official protocol's boards too where the data set has pooled scores), and every measure side by side
for print (LaTeX)."""

from ordeval.analysis.leaderboard import build_leaderboards, pipeline_pooled_leaderboards
from ordeval.analysis.significance import read_pvalue_table
from ordeval.io.provenance import origin_sentence, read_provenance
from ordeval.reports.latex import write_latex
from ordeval.reports.leaderboard_page import write_leaderboard_page
from ordeval.reports.leaderboard_text import compact_latex, leaderboard_labels, write_leaderboards
from ordeval.tasks.stack import read_stack
from ordeval.workflow.scripting import job, one_file

with job(snakemake) as log:
    dataset, params, inputs, output = snakemake.wildcards.dataset, snakemake.params, snakemake.input, snakemake.output
    alpha, level, trials = params.alpha, params.ci_level, params.hsd_trials
    scored = read_stack(inputs.stack)
    directions = dict(zip(scored.measures, scored.lower_is_better, strict=True))
    significance = read_pvalue_table(inputs.pvalues, directions, trials, inputs.arrays)
    stack = scored.subset(params.measures)
    provenance = read_provenance(inputs.provenance)
    origins = {dataset: provenance["origin"]}
    boards = build_leaderboards(
        stack,
        significance,
        dataset=dataset,
        alpha=alpha,
        level=level,
        test=f"randomised Tukey HSD, B = {trials}",
        origins=origins,
    )
    write_leaderboards(boards, output.csv, output.tex, output.md)
    # for print: every measure side by side, a row per run (the report's appendix)
    compact = (
        f"{dataset}: every run's mean over the topics under every measure side by side (the arrow points to "
        f"the better end), with its significance groups: runs sharing a letter do not differ significantly "
        f"(randomised Tukey HSD, B = {trials}, α = {alpha}); each run's {level:.0%} interval and rank are "
        f"in tables/leaderboard/{dataset}.csv"
    )
    write_latex(compact_latex(boards.tables(), leaderboard_labels(boards)), output.compact, origins, compact)
    page = [table.with_column("protocol", ["per-topic"] * len(table)) for table in boards.tables()]
    pooled = one_file(inputs.pooled)
    if pooled is not None:
        items = provenance.get("summary", {}).get("items")
        official = pipeline_pooled_leaderboards(
            stack, pooled, dataset=dataset, items=items, alpha=alpha, level=level, origins=origins
        )
        page += [table.with_column("protocol", ["pooled"] * len(table)) for table in official.tables()]
    write_leaderboard_page(
        output.html,
        f"{dataset}: leaderboard",
        page,
        boards.display,
        stack,
        "per-topic",
        origin_sentence(origins),
        level,
        boards.setting,
    )
    log.info(
        "%s: %d measures x %d runs%s",
        dataset,
        len(boards.boards),
        len(stack.runs),
        " (and the pooled protocol)" if pooled else "",
    )
