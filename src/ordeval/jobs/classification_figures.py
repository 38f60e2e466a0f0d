"""Rule classification_figures: the discriminative power curves of the ordinal classification data sets
(the ACL 2021 paper's Figure 1), each measure's number of significant pairs in the legend."""

from __future__ import annotations

import logging

from ..figures import save_figure
from ..figures.significance import dp_curves_grid
from ..provenance import read_origins
from . import Job, files_by
from .significance_figures import _names
from .significance_tables import load_significance

log = logging.getLogger("classification_figures")


def run(job: Job):
    """params: datasets (the OC data sets), measures, alpha, trials. Inputs ``pvalues``, ``measures``,
    ``provenance`` one per data set; outputs ``pdf``, ``png``."""
    params = job.params
    alpha, trials, measures = params["alpha"], params["trials"], params["measures"]
    datasets = files_by(params["datasets"], pvalues=job.input["pvalues"], measures_tsv=job.input["measures"],
                        provenance=job.input["provenance"])  # fmt: skip
    panels, names, counts = {}, {}, {}
    for name, files in datasets.items():
        panels[name], _ = load_significance(files, measures, trials)
        names[name] = _names(files, measures)
        counts[name] = panels[name].significant(alpha).sum(axis=1).tolist()
    origins = read_origins({name: files["provenance"] for name, files in datasets.items()})
    figure = dp_curves_grid(panels, names, alpha, "Discriminative power curves of the ordinal classification measures",
                            counts)  # fmt: skip
    description = (
        "Discriminative power curves of the ordinal classification measures (the ACL 2021 paper's Figure 1): "
        f"p-values of all run pairs (randomised Tukey HSD, B = {trials}) sorted in decreasing order; the dashed "
        f"line is alpha = {alpha:g}; the legend gives each measure's number of significant pairs."
    )
    save_figure(figure, job.output["pdf"], job.output["png"], origins, description)
    log.info("%d panels", len(panels))
