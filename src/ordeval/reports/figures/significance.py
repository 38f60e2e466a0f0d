"""Figures of the significance analysis: discriminative power curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ordeval.analysis.significance import PairwiseSignificance, dp_curve
from ordeval.reports.figures import NAME, PRINT_HEIGHT, PRINT_WIDTH, Figure, new_figure


def draw_dp_curves(
    axes, significance: PairwiseSignificance, names: Sequence[str], alpha: float, title: str = ""
) -> None:
    """The DP curve of every measure of ``significance`` (labelled by ``names``) on ``axes``, with the
    alpha level as a dashed horizontal line."""
    ranks = np.arange(1, significance.pair_count + 1)
    for row, name in enumerate(names):
        axes.plot(ranks, dp_curve(significance.p_values[row]), label=name, linewidth=1.2)
    axes.axhline(alpha, color="0.3", linestyle="--", linewidth=0.8, label=f"α = {alpha:g}")
    axes.set_xlim(0, max(1, significance.pair_count) + 1)
    axes.set_ylim(0, 1.02)
    axes.set_xlabel("run pair rank (decreasing p-value)")
    axes.set_ylabel("p-value")
    if title:
        axes.set_title(title, fontsize=9)


def dp_curves_figure(significance: PairwiseSignificance, names: Sequence[str], alpha: float, title: str) -> Figure:
    figure = new_figure(PRINT_WIDTH, 3.9)  # the printed size; the legend (names at NAME points) at the right
    axes = figure.subplots()
    draw_dp_curves(axes, significance, names, alpha, title)
    axes.legend(fontsize=NAME, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    return figure


def dp_curves_grid(
    panels: Mapping[str, PairwiseSignificance],
    names: Mapping[str, Sequence[str]],
    alpha: float,
    title: str,
    counts: Mapping[str, Sequence[int]] | None = None,
) -> Figure:
    """One panel per data set (two to a row), the legend in the first; with ``counts``, each panel's
    legend also gives every measure's number of significant pairs (the paper's Figure 1 table)."""
    columns = 2 if len(panels) > 1 else 1
    rows = max(1, -(-len(panels) // columns))
    # the printed width; the panels share the height left for them (names at NAME points in the legends)
    legend_rows = -(-max((len(names[d]) + 1 for d in panels), default=1) // (2 if counts is not None else 4))
    legend = 0.2 * legend_rows + 0.35
    panel = min(3.2, (PRINT_HEIGHT - 0.6 - (legend * rows if counts is not None else legend)) / rows)
    figure = new_figure(
        PRINT_WIDTH,
        (panel + (legend if counts is not None else 0)) * rows + 0.6 + (0 if counts is not None else legend),
    )
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for index, (axis, (dataset, significance)) in enumerate(zip(axes, panels.items(), strict=False)):
        labels = list(names[dataset])
        if counts is not None:
            labels = [f"{label} ({count})" for label, count in zip(labels, counts[dataset], strict=True)]
        draw_dp_curves(axis, significance, labels, alpha, dataset)
        if counts is not None:  # each panel its own legend (the counts), below it
            axis.legend(fontsize=NAME, ncol=2, loc="upper center", bbox_to_anchor=(0.5, -0.28))
        elif index == 0:  # one legend for every panel, below them
            figure.legend(*axis.get_legend_handles_labels(), fontsize=NAME, ncol=4, loc="outside lower center")
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    figure.suptitle(title, fontsize=10)
    return figure
