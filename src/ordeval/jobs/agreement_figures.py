"""Rule agreement_figures: heatmap of the tau matrix averaged over the data sets of each task."""

from __future__ import annotations

import logging

from ..figures import measure_text, save_figure
from ..figures.agreement import tau_heatmap
from ..provenance import read_origins
from ..scores import read_measure_table
from ..table import read_csv
from . import Job, files_by

log = logging.getLogger("agreement_figures")


def run(job: Job):
    """params: tasks (per task: datasets, measures), kendall. Inputs ``tables`` (the mean tau table)
    and ``measures`` (the first data set's measures.tsv) and outputs ``pdf``, ``png`` one per task;
    ``provenance`` one per data set (``datasets``)."""
    params = job.params
    provenance = dict(zip(params["datasets"], job.input["provenance"], strict=True))
    per_task = files_by([summary["task"] for summary in params["tasks"]], mean_csv=job.input["tables"],
                        measures_tsv=job.input["measures"], pdf=job.output["pdf"], png=job.output["png"])  # fmt: skip
    for summary in params["tasks"]:
        summary = {
            **summary,
            **per_task[summary["task"]],
            "provenance": {n: provenance[n] for n in summary["datasets"]},
        }
        pairs = read_csv(summary["mean_csv"], numeric=["tau", "ci_low", "ci_high"])
        info = read_measure_table(summary["measures_tsv"])
        display = dict(zip(info["measure"], info["display"], strict=True))
        measures = summary["measures"]
        names = [measure_text(display[m]) for m in measures]
        count = len(summary["provenance"])
        title = f"Kendall's tau-{params['kendall']} between run rankings, mean over {count} data sets"
        description = (
            f"Kendall's tau between the measures' run rankings, averaged over {', '.join(summary['provenance'])}."
        )
        figure = tau_heatmap(pairs, measures, names, title)
        save_figure(figure, summary["pdf"], summary["png"], read_origins(summary["provenance"]), description)
        log.info("%s: heatmap of %d measures", summary["task"], len(measures))
