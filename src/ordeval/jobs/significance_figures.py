"""Rule significance_figures: discriminative power curves per data set and for the data sets of each task."""

from __future__ import annotations

import logging

from ..analysis.significance import read_significance
from ..figures import measure_text, save_figure
from ..figures.significance import dp_curves_figure, dp_curves_grid
from ..provenance import read_origins
from ..scores import read_measure_table
from . import Job, files_by

log = logging.getLogger("significance_figures")


def _names(files: dict, measures: list[str]) -> list[str]:
    info = read_measure_table(files["measures_tsv"])
    display = dict(zip(info["measure"], info["display"], strict=True))
    return [measure_text(display[m]) for m in measures]


def run(job: Job):
    """params: datasets, tasks (per task: datasets, measures), alpha, trials. Inputs ``pvalues``,
    ``measures``, ``provenance`` and outputs ``curves_pdf``, ``curves_png`` one per data set; outputs
    ``all_pdf``, ``all_png`` one per task."""
    params = job.params
    alpha, trials = params["alpha"], params["trials"]
    setting = f"randomised Tukey HSD, B = {trials}; dashed line: alpha = {alpha:g}"
    inputs, output = job.input, job.output
    datasets = files_by(params["datasets"], pvalues=inputs["pvalues"], measures_tsv=inputs["measures"],
                        provenance=inputs["provenance"], curves_pdf=output["curves_pdf"],
                        curves_png=output["curves_png"])  # fmt: skip
    per_task = files_by([summary["task"] for summary in params["tasks"]], pdf=output["all_pdf"], png=output["all_png"])
    for summary in params["tasks"]:
        measures = summary["measures"]
        panels, names = {}, {}
        for dataset in summary["datasets"]:
            files = datasets[dataset]
            panels[dataset] = read_significance(files["pvalues"], files["measures_tsv"], measures, trials)
            names[dataset] = _names(files, measures)
            origins = read_origins({dataset: files["provenance"]})
            figure = dp_curves_figure(panels[dataset], names[dataset], alpha, f"{dataset}: discriminative power curves")
            description = (
                f"{dataset}: discriminative power curves, the p-values of all {panels[dataset].pair_count} run pairs "
                f"sorted in decreasing order, per measure ({setting})."
            )
            save_figure(figure, files["curves_pdf"], files["curves_png"], origins, description)
        origins = read_origins({name: datasets[name]["provenance"] for name in summary["datasets"]})
        figure = dp_curves_grid(panels, names, alpha, f"Discriminative power curves ({summary['task']})")
        description = f"Discriminative power curves of {', '.join(summary['datasets'])} ({setting})."
        save_figure(figure, per_task[summary["task"]]["pdf"], per_task[summary["task"]]["png"], origins, description)
        log.info("%s: curves of %d data sets", summary["task"], len(panels))
