"""Figure of the ranking agreement analysis: the heatmap of the averaged tau matrix (rule agreement_heatmap)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.agreement import tau_matrix
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, read_csv
from ordeval.reports.figures import NAME, PRINT_WIDTH, SMALL, TEXT, Figure, figure_names, new_figure, save_figure


def tau_heatmap(pairs: Table, measures: Sequence[str], names: Sequence[str], title: str = "") -> Figure:
    """The symmetric tau matrix as a heatmap, each cell annotated with its tau (2 decimals);
    ``names`` label the measures."""
    matrix = tau_matrix(pairs, measures)
    # drawn at the width it is printed at: names at NAME points, values at SMALL
    figure = new_figure(PRINT_WIDTH, min(0.75 * PRINT_WIDTH, 1.4 + 0.3 * len(measures)))
    axes = figure.subplots()
    lowest = min(0.0, float(np.nanmin(matrix)))
    image = axes.imshow(matrix, cmap="viridis", vmin=lowest, vmax=1.0)
    axes.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=NAME)
    axes.set_yticks(range(len(names)), names, fontsize=NAME)
    threshold = lowest + 0.6 * (1.0 - lowest)
    for (i, j), value in np.ndenumerate(matrix):
        if not np.isnan(value):
            colour = "black" if value > threshold else "white"
            axes.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=SMALL, color=colour)
    colorbar = figure.colorbar(image, ax=axes, shrink=0.8)
    colorbar.set_label("Kendall's τ", fontsize=TEXT)
    if title:
        axes.set_title(title, fontsize=9)
    return figure


def write_heatmap(
    mean: str | Path,
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    variant: str,
) -> None:
    """The heatmap of the taus between ``measures`` averaged over a task's data sets (``mean``: their mean
    agreement CSV), titled with the number of data sets. ``outputs``: ``pdf``, ``png``."""
    origins = origins_of(provenance)
    pairs = read_csv(mean, numeric=["tau", "ci_low", "ci_high"])
    names = figure_names(measure_tables)
    title = f"Kendall's τ-{variant} between run rankings, mean over {len(origins)} data sets"
    save_figure(
        tau_heatmap(pairs, measures, [names[m] for m in measures], title), outputs["pdf"], outputs["png"], origins
    )
