"""Rule leaderboard_tables: per data set, the leaderboard of every leaderboard measure (mean, interval,
rank, significance groups from the randomised Tukey HSD) as CSV, LaTeX, Markdown and a self-contained HTML
page; for ordinal classification also under the official SemEval protocol (pooled over all items)."""

from __future__ import annotations

import logging

from ..analysis.leaderboards import build_leaderboards, read_pooled
from ..analysis.significance import read_pvalue_table
from ..leaderboard_page import write_leaderboard_page
from ..provenance import origin_sentence, read_provenance
from ..scores import read_stack
from ..table import Table
from . import Job, files_by

log = logging.getLogger("leaderboard_tables")

#: Why the pipeline's pooled leaderboards have no significance groups.
POOLED_WITHOUT_TEST = (
    "the pipeline ranks the pooled scores only; 'ordeval score --protocol pooled' adds the paired "
    "randomisation test of each run pair"
)


def run(job: Job):
    """params: datasets, measures ({data set: measures}), pooled (the OC data sets), alpha, ci_level,
    trials. Inputs ``stack``, ``pvalues``, ``provenance`` and outputs ``csv``, ``tex``, ``md``, ``html`` one
    per data set; input ``pooled`` and outputs ``pooled_csv``, ``pooled_tex``, ``pooled_md`` one per OC
    data set."""
    params = job.params
    alpha, level, trials = params["alpha"], params["ci_level"], params["trials"]
    inputs, output = job.input, job.output
    datasets = files_by(params["datasets"], stack=inputs["stack"], pvalues=inputs["pvalues"],
                        provenance=inputs["provenance"], csv=output["csv"], tex=output["tex"],
                        md=output["md"], html=output["html"])  # fmt: skip
    pooled = files_by(params["pooled"], scores=inputs["pooled"], csv=output["pooled_csv"],
                      tex=output["pooled_tex"], md=output["pooled_md"])  # fmt: skip
    for dataset, files in datasets.items():
        scored = read_stack(files["stack"])
        directions = dict(zip(scored.measures, scored.lower_is_better, strict=True))
        significance = read_pvalue_table(files["pvalues"], directions, trials)
        stack = scored.subset(params["measures"][dataset])
        provenance = read_provenance(files["provenance"])
        origins = {dataset: provenance["origin"]}
        boards = build_leaderboards(stack, significance, dataset=dataset, alpha=alpha, level=level,
                                    test=f"randomised Tukey HSD, B = {trials}", origins=origins)  # fmt: skip
        boards.write(files["csv"], files["tex"], files["md"])
        page = [table.with_column("protocol", ["per-topic"] * len(table)) for table in boards.tables()]
        if dataset in pooled:
            items = provenance.get("summary", {}).get("items")
            scores = read_pooled(Table.read(pooled[dataset]["scores"]), stack.measures, stack.runs)
            official = build_leaderboards(stack, None, dataset=dataset, protocol="pooled", pooled=scores,
                                          items=items, alpha=alpha, level=level, no_test_reason=POOLED_WITHOUT_TEST,
                                          origins=origins)  # fmt: skip
            official.write(pooled[dataset]["csv"], pooled[dataset]["tex"], pooled[dataset]["md"])
            page += [table.with_column("protocol", ["pooled"] * len(table)) for table in official.tables()]
        write_leaderboard_page(files["html"], f"{dataset}: leaderboard", page, boards.display, stack, "per-topic",
                               origin_sentence(origins), level, boards.setting)  # fmt: skip
        log.info("%s: %d measures x %d runs%s", dataset, len(boards.boards), len(stack.runs),
                 " (and the pooled protocol)" if dataset in pooled else "")  # fmt: skip
