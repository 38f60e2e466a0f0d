"""Figure of the ranking agreement analysis: the heatmap of the averaged tau matrix."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..analysis.agreement import tau_matrix
from ..table import Table
from . import Figure, new_figure


def tau_heatmap(pairs: Table, measures: Sequence[str], names: Sequence[str], title: str = "") -> Figure:
    """The symmetric tau matrix as a heatmap, each cell annotated with its tau (2 decimals);
    ``names`` label the measures."""
    matrix = tau_matrix(pairs, measures)
    size = 1.0 + 0.55 * len(measures)
    figure = new_figure(size + 1.2, size + 0.2)
    axes = figure.subplots()
    lowest = min(0.0, float(np.nanmin(matrix)))
    image = axes.imshow(matrix, cmap="viridis", vmin=lowest, vmax=1.0)
    axes.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    axes.set_yticks(range(len(names)), names, fontsize=8)
    threshold = lowest + 0.6 * (1.0 - lowest)
    for (i, j), value in np.ndenumerate(matrix):
        if not np.isnan(value):
            colour = "black" if value > threshold else "white"
            axes.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=6.5, color=colour)
    figure.colorbar(image, ax=axes, label="Kendall's tau", shrink=0.8)
    if title:
        axes.set_title(title, fontsize=9)
    return figure
