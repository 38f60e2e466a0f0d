"""Rule leaderboard_tables: per data set, the leaderboard of every leaderboard measure (mean, interval,
rank, significance groups from the randomised Tukey HSD) as CSV, LaTeX and Markdown."""

from __future__ import annotations

import logging

from ..analysis.leaderboard import leaderboard
from ..analysis.significance import read_pvalue_table
from ..files import write_text
from ..latex import measure_labels, write_latex
from ..latex.leaderboard import leaderboard_latex, leaderboard_markdown
from ..provenance import origin_sentence, read_origins
from ..scores import read_stack
from ..table import Table, write_csv
from . import Job, files_by

log = logging.getLogger("leaderboard_tables")


def run(job: Job):
    """params: datasets, measures ({data set: measures}), alpha, ci_level, trials. Inputs ``stack``,
    ``pvalues``, ``provenance`` and outputs ``csv``, ``tex``, ``md`` one per data set."""
    params = job.params
    alpha, level, trials = params["alpha"], params["ci_level"], params["trials"]
    inputs, output = job.input, job.output
    datasets = files_by(params["datasets"], stack=inputs["stack"], pvalues=inputs["pvalues"],
                        provenance=inputs["provenance"], csv=output["csv"], tex=output["tex"],
                        md=output["md"])  # fmt: skip
    for dataset, files in datasets.items():
        scored = read_stack(files["stack"])
        directions = dict(zip(scored.measures, scored.lower_is_better, strict=True))
        significance = read_pvalue_table(files["pvalues"], directions, trials)
        stack = scored.subset(params["measures"][dataset])
        boards = [
            leaderboard(
                stack.matrix(m), stack.runs, m, stack.direction_of(m), significance.matrix(m), alpha, level
            ).table()
            for m in stack.measures
        ]
        origins = read_origins({dataset: files["provenance"]})
        setting = (
            f"{dataset}: mean over {len(stack.topics)} topics with {level:.0%} t intervals, rank, and significance "
            f"groups (runs sharing a letter do not differ significantly: randomised Tukey HSD, B = {trials}, "
            f"alpha = {alpha:g})."
        )
        write_csv(Table.concat(boards), files["csv"], origins)
        write_latex(leaderboard_latex(boards, measure_labels(stack), level), files["tex"], origins, setting)
        names = dict(zip(stack.measures, stack.display, strict=True))
        write_text(
            leaderboard_markdown(dataset, boards, names, level, f"{setting} {origin_sentence(origins)}"), files["md"]
        )
        log.info("%s: %d measures x %d runs", dataset, len(boards), len(stack.runs))
