"""Rule consistency_figures: distribution of the split taus of every measure, per data set and condition."""

from __future__ import annotations

import logging

from ..analysis.consistency import read_taus
from ..figures import measure_text, save_figure
from ..figures.consistency import tau_distribution_figure
from ..provenance import read_origins
from ..scores import read_measure_table
from . import Job

log = logging.getLogger("consistency_figures")


def run(job: Job):
    """params: datasets, conditions. Inputs ``taus`` per data set and condition (data set first),
    ``measures`` and ``provenance`` per data set; outputs ``pdf``, ``png`` per data set and condition."""
    params = job.params
    conditions = params["conditions"]
    for index, dataset in enumerate(params["datasets"]):
        origins = read_origins({dataset: job.input["provenance"][index]})
        info = read_measure_table(job.input["measures"][index])
        display = dict(zip(info["measure"], info["display"], strict=True))
        for offset, condition in enumerate(conditions):
            at = index * len(conditions) + offset
            measures, taus = read_taus(job.input["taus"][at])
            title = f"{dataset}, {condition}: tau over {taus.shape[0]} random topic splits (whiskers 2.5-97.5%)"
            description = (
                f"{dataset}, condition {condition}: distribution of Kendall's tau between the run rankings on the two "
                f"topic sets of each of {taus.shape[0]} random splits (seeded), per measure, sorted by mean tau."
            )
            figure = tau_distribution_figure(taus, [measure_text(display[m]) for m in measures], title)
            save_figure(figure, job.output["pdf"][at], job.output["png"][at], origins, description)
        log.info("%s: %d figures", dataset, len(conditions))
