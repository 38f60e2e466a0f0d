"""Figure of the consistency analysis: the distribution of every measure's split taus."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ordeval.reports.figures import NAME, PRINT_WIDTH, SMALL, Figure, new_figure


def tau_distribution_figure(taus: np.ndarray, names: Sequence[str], title: str = "") -> Figure:
    """Box plots of every measure's taus over the trials, measures sorted by mean tau (highest first);
    the mean is marked by a dot. ``names`` label the columns of ``taus``."""
    taus = np.asarray(taus, dtype=float)
    means = np.nanmean(taus, axis=0)
    order = np.argsort(-means, kind="stable")
    columns = [taus[:, i][~np.isnan(taus[:, i])] for i in order]
    figure = new_figure(min(PRINT_WIDTH, 1.6 + 0.45 * len(names)), 3.6)  # at most the printed width
    axes = figure.subplots()
    axes.boxplot(columns, whis=(2.5, 97.5), showfliers=False, widths=0.6)
    axes.plot(range(1, len(order) + 1), means[order], "o", color="C3", markersize=4, label="mean")
    axes.set_xticks(range(1, len(order) + 1), [names[i] for i in order], rotation=60, ha="right", fontsize=NAME)
    axes.set_ylabel("Kendall's τ between the two topic sets")
    axes.grid(axis="y", alpha=0.3)
    axes.legend(loc="lower left", fontsize=SMALL)
    if title:
        axes.set_title(title, fontsize=9)
    return figure
