"""Figure of the consistency analysis: the distribution of every measure's split taus."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ordeval.reports.figures import NAME, PRINT_WIDTH, Figure, new_figure

#: The figure's width: under half the printed width, so that the two conditions of a data set print side by side
#: (:func:`ordeval.reports.latex.layout.pairable`).
WIDTH = 0.48 * PRINT_WIDTH


def tau_distribution_figure(taus: np.ndarray, names: Sequence[str], title: str = "") -> Figure:
    """Box plots of every measure's taus over the trials, measures sorted by mean tau (highest first);
    the mean is marked by a dot (the title says so: no legend to cover a box). ``names`` label the columns of
    ``taus``. Drawn half the printed width wide (:data:`WIDTH`)."""
    taus = np.asarray(taus, dtype=float)
    means = np.nanmean(taus, axis=0)
    order = np.argsort(-means, kind="stable")
    columns = [taus[:, i][~np.isnan(taus[:, i])] for i in order]
    figure = new_figure(WIDTH, 3.6)
    axes = figure.subplots()
    axes.boxplot(columns, whis=(2.5, 97.5), showfliers=False, widths=0.6)
    axes.plot(range(1, len(order) + 1), means[order], "o", color="C3", markersize=4)
    axes.set_xticks(range(1, len(order) + 1), [names[i] for i in order], rotation=60, ha="right", fontsize=NAME)
    axes.set_ylabel("Kendall's τ between the two topic sets")
    axes.grid(axis="y", alpha=0.3)
    if title:
        axes.set_title(title, fontsize=8)
    return figure
