"""Rule leaderboard_figures: per data set, every leaderboard measure's means with intervals and groups."""

from __future__ import annotations

import logging

from ..analysis.leaderboard import read_leaderboards
from ..figures import measure_text, save_figure
from ..figures.leaderboard import leaderboard_figure
from ..provenance import read_origins
from ..scores import read_measure_table
from ..table import read_csv
from . import Job, files_by

log = logging.getLogger("leaderboard_figures")


def run(job: Job):
    """params: datasets, ci_level. Inputs ``tables`` (the leaderboard CSVs), ``measures``, ``provenance``
    and outputs ``pdf``, ``png`` one per data set."""
    inputs, output = job.input, job.output
    datasets = files_by(job.params["datasets"], csv=inputs["tables"], measures_tsv=inputs["measures"],
                        provenance=inputs["provenance"], pdf=output["pdf"], png=output["png"])  # fmt: skip
    for dataset, files in datasets.items():
        table = read_csv(files["csv"], numeric=["mean", "ci_low", "ci_high"], integer=["rank"])
        boards = read_leaderboards(table)
        info = read_measure_table(files["measures_tsv"])
        names = {m: measure_text(d) for m, d in zip(info["measure"], info["display"], strict=True)}
        description = (
            f"{dataset}: every run's mean score with its {job.params['ci_level']:.0%} interval per measure, "
            "best first; "
            "runs sharing a letter do not differ significantly (randomised Tukey HSD)."
        )
        figure = leaderboard_figure(boards, names, f"{dataset}: leaderboards")
        save_figure(figure, files["pdf"], files["png"], read_origins({dataset: files["provenance"]}), description)
        log.info("%s: %d panels", dataset, len(boards))
