"""Rule agreement_figures: heatmap of the tau matrix averaged over the data sets of each task."""

from __future__ import annotations

import logging

from ..figures import save_figure
from ..figures.agreement import tau_heatmap
from ..provenance import read_origins
from ..scores import read_measure_table
from ..table import read_csv
from . import Job

log = logging.getLogger("agreement_figures")


def run(job: Job):
    for group in job.params["groups"]:
        pairs = read_csv(group["mean_csv"], numeric=["tau", "ci_low", "ci_high"])
        info = read_measure_table(group["measures_tsv"])
        display = dict(zip(info["measure"], info["display"], strict=True))
        measures = group["measures"]
        names = [display[m] for m in measures]
        count = len(group["provenance"])
        title = f"Kendall's tau-{job.params['kendall']} between run rankings, mean over {count} data sets"
        description = (
            f"Kendall's tau between the measures' run rankings, averaged over {', '.join(group['provenance'])}."
        )
        figure = tau_heatmap(pairs, measures, names, title)
        save_figure(figure, group["pdf"], group["png"], read_origins(group["provenance"]), description)
        log.info("%s: heatmap of %d measures", group["task"], len(measures))
