"""Figures of the significance analysis: discriminative power curves (a data set's:
:mod:`ordeval.reports.figures.dataset`; a task's data sets: rule significance_curves; the OC paper's Figure 1:
rule classification_figures)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from ordeval.analysis.significance import PairwiseSignificance, dp_curve, read_significance
from ordeval.io.provenance import origins_of
from ordeval.reports.figures import (
    NAME,
    PRINT_HEIGHT,
    PRINT_WIDTH,
    Figure,
    bottom_legend,
    figure_names,
    new_figure,
    save_figure,
)

Files = Mapping[str, str | Path]


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


def _legend_columns(entries: int) -> int:
    """Columns of a legend at the right of a panel: one, two past 10 entries (names at NAME points)."""
    return 1 if entries <= 10 else 2


def dp_curves_figure(significance: PairwiseSignificance, names: Sequence[str], alpha: float, title: str) -> Figure:
    """One data set's curves at the printed width, 3 inches high (the task's figure of every data set is the
    overview), the legend at the right of the plot: outside the data and away from the data-origin note."""
    figure = new_figure(PRINT_WIDTH, 3.0)
    axes = figure.subplots()
    draw_dp_curves(axes, significance, names, alpha, title)
    columns = _legend_columns(len(names) + 1)
    axes.legend(fontsize=NAME, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, ncol=columns)
    return figure


def dp_curves_grid(
    panels: Mapping[str, PairwiseSignificance],
    names: Mapping[str, Sequence[str]],
    alpha: float,
    title: str,
    counts: Mapping[str, Sequence[int]] | None = None,
) -> Figure:
    """One panel per data set, two to a row, one legend for every panel under them; with ``counts``, one
    panel to a row, each with its own legend at its right giving every measure's number of significant pairs (the
    paper's Figure 1 table). The legends are outside the plots and away from the data-origin note (the bottom
    right corner)."""
    if counts is not None:
        rows, columns = max(1, len(panels)), 1
        panel = min(2.8, (PRINT_HEIGHT - 0.6) / rows)
        figure = new_figure(PRINT_WIDTH, panel * rows + 0.6)
    else:
        columns = 2 if len(panels) > 1 else 1
        rows = max(1, -(-len(panels) // columns))
        # the printed width; the panels share the height left by the title and the legend (NAME points)
        legend_rows = -(-max((len(names[d]) + 1 for d in panels), default=1) // 4)
        legend = 0.2 * legend_rows + 0.35
        panel = min(3.2, (PRINT_HEIGHT - 0.6 - legend) / rows)
        figure = new_figure(PRINT_WIDTH, panel * rows + 0.6 + legend)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for index, (axis, (dataset, significance)) in enumerate(zip(axes, panels.items(), strict=False)):
        labels = list(names[dataset])
        if counts is not None:
            labels = [f"{label} ({count})" for label, count in zip(labels, counts[dataset], strict=True)]
        draw_dp_curves(axis, significance, labels, alpha, dataset)
        if counts is not None:  # each panel its own legend (the counts), at its right
            columns_here = _legend_columns(len(labels) + 1)
            axis.legend(fontsize=NAME, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0, ncol=columns_here)
        elif index == 0:  # one legend for every panel, under them
            bottom_legend(figure, *axis.get_legend_handles_labels(), ncol=4)
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    figure.suptitle(title, fontsize=10)
    return figure


def _curve_panels(pvalues: Files, arrays: Files, measure_tables: Files, measures: Sequence[str], trials: int):
    """Each data set's p-values restricted to ``measures``, and the measures' names as its legend draws them."""
    panels, names = {}, {}
    for name, path in pvalues.items():
        panels[name] = read_significance(path, measure_tables[name], measures, trials, arrays[name])
        shown = figure_names(measure_tables[name])
        names[name] = [shown[m] for m in measures]
    return panels, names


def write_dp_curves_grid(
    pvalues: Files,
    arrays: Files,
    measure_tables: Files,
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    task: str,
    measures: Sequence[str],
    alpha: float,
    trials: int,
) -> None:
    """The discriminative power curves of every data set of ``pvalues`` ({data set: its p-values}, with their
    binary copies ``arrays`` and ``measure_tables``), a panel each, one legend. ``outputs``: ``pdf``, ``png``."""
    panels, names = _curve_panels(pvalues, arrays, measure_tables, measures, trials)
    figure = dp_curves_grid(panels, names, alpha, f"Discriminative power curves ({task})")
    save_figure(figure, outputs["pdf"], outputs["png"], origins_of(provenance))


def write_classification_curves(
    pvalues: Files,
    arrays: Files,
    measure_tables: Files,
    provenance: Sequence[str | Path],
    outputs: Files,
    *,
    measures: Sequence[str],
    alpha: float,
    trials: int,
) -> None:
    """The ACL 2021 paper's Figure 1: the discriminative power curves of the ordinal classification data sets
    of ``pvalues`` (as :func:`write_dp_curves_grid`), each panel's legend giving every measure's number of
    significant pairs (p < ``alpha``). ``outputs``: ``pdf``, ``png``."""
    panels, names = _curve_panels(pvalues, arrays, measure_tables, measures, trials)
    counts = {name: panel.significant(alpha).sum(axis=1).tolist() for name, panel in panels.items()}
    title = "Discriminative power curves of the ordinal classification measures"
    save_figure(
        dp_curves_grid(panels, names, alpha, title, counts), outputs["pdf"], outputs["png"], origins_of(provenance)
    )
