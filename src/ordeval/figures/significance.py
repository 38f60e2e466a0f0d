"""Figures of the significance analysis: discriminative power curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..analysis.significance import PairwiseSignificance, dp_curve
from . import Figure, new_figure


def draw_dp_curves(
    axes, significance: PairwiseSignificance, names: Sequence[str], alpha: float, title: str = ""
) -> None:
    """The DP curve of every measure of ``significance`` (labelled by ``names``) on ``axes``, with the
    alpha level as a dashed horizontal line."""
    ranks = np.arange(1, significance.pair_count + 1)
    for row, name in enumerate(names):
        axes.plot(ranks, dp_curve(significance.p_values[row]), label=name, linewidth=1.2)
    axes.axhline(alpha, color="0.3", linestyle="--", linewidth=0.8, label=f"alpha = {alpha:g}")
    axes.set_xlim(0, max(1, significance.pair_count) + 1)
    axes.set_ylim(0, 1.02)
    axes.set_xlabel("run pair rank (decreasing p-value)")
    axes.set_ylabel("p-value")
    if title:
        axes.set_title(title, fontsize=9)


def dp_curves_figure(significance: PairwiseSignificance, names: Sequence[str], alpha: float, title: str) -> Figure:
    figure = new_figure(6.0, 4.2)
    axes = figure.subplots()
    draw_dp_curves(axes, significance, names, alpha, title)
    axes.legend(fontsize=7, ncol=2)
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
    figure = new_figure(5.2 * columns, 3.8 * rows + 0.5)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for index, (axis, (dataset, significance)) in enumerate(zip(axes, panels.items(), strict=False)):
        labels = list(names[dataset])
        if counts is not None:
            labels = [f"{label} ({count})" for label, count in zip(labels, counts[dataset], strict=True)]
        draw_dp_curves(axis, significance, labels, alpha, dataset)
        if counts is not None or index == 0:
            axis.legend(fontsize=6.5, ncol=2 if len(labels) > 6 else 1)
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    figure.suptitle(title, fontsize=10)
    return figure
