"""Figures of the Popularity vs Uniform analysis: scatter plots of deltas (rule popularity_scatter) and example
topics (drawn here, written by :mod:`ordeval.reports.figures.examples`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ordeval.analysis.popularity import (
    Deltas,
    Example,
    Panel,
    compared_origins,
    compute_deltas,
    scatter_panels,
)
from ordeval.reports.figures import (
    NAME,
    PRINT_HEIGHT,
    PRINT_WIDTH,
    SMALL,
    Figure,
    bottom_legend,
    measure_text,
    new_figure,
    save_figure,
)
from ordeval.tasks.stack import read_stack

Files = Mapping[str, str | Path]


def _annotation(panel: Panel, level: float) -> str:
    correlation = panel.correlation
    r = (
        "r undefined"
        if np.isnan(correlation.r)
        else f"r = {signed(correlation.r)} [{signed(correlation.low)}, {signed(correlation.high)}]"
    )
    return f"2nd quadrant: {panel.quadrants.second}, 4th: {panel.quadrants.fourth}\n{r}"


MINUS = "\u2212"


def signed(value: float, places: int = 3) -> str:
    """A number as the figures print it: a minus sign, not a hyphen."""
    return f"{value:.{places}f}".replace("-", MINUS)


def _delta_label(deltas: Deltas, measure: str, names: Mapping[str, str]) -> str:
    lower = deltas.lower_is_better[deltas.measures.index(measure)]
    return f"{'' if lower else MINUS}\u0394{names[measure]}"


def scatter_figure(
    title: str, deltas: Deltas, panels: Sequence[Panel], names: Mapping[str, str], level: float
) -> Figure:
    """A grid of scatter plots, one per panel: the oriented delta of x against that of y per topic
    (negative: prefers Popularity), with the axes through 0, the quadrant counts and Pearson r.
    The points are rasterised, so that the PDF stays small and fast with many topics."""
    columns = max(1, min(3, len(panels)))
    rows = max(1, -(-len(panels) // columns))
    # the printed width, three panels to a row; the quadrant counts and r above each panel, at SMALL points; at
    # most 2.1 inches a row, so that three rows print on a page with the data set's table of quadrant counts
    figure = new_figure(PRINT_WIDTH, min(2.1 * rows, PRINT_HEIGHT - 0.6) + 0.6)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for axis, panel in zip(axes, panels, strict=False):
        x = deltas.oriented(panel.x) + 0.0  # + 0.0 turns -0.0 into 0.0: the same bytes every run
        y = deltas.oriented(panel.y) + 0.0
        axis.scatter(x, y, s=7, alpha=0.5, linewidths=0, rasterized=True)
        axis.axhline(0, color="0.5", linewidth=0.6)
        axis.axvline(0, color="0.5", linewidth=0.6)
        axis.set_xlabel(_delta_label(deltas, panel.x, names), fontsize=NAME)
        axis.set_ylabel(_delta_label(deltas, panel.y, names), fontsize=NAME)
        axis.set_title(_annotation(panel, level), fontsize=SMALL)
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    if not panels:
        axes[0].text(0.5, 0.5, "No pair of measures to plot", ha="center", va="center")
    figure.suptitle(f"{title} (r with its {level:.0%} CI)", fontsize=10)
    return figure


@dataclass(frozen=True)
class ExamplePanel:
    """What one panel of :func:`examples_figure` shows: ``distributions[k]`` over ``classes`` is
    drawn as the bars labelled ``labels[k]`` (gold, Popularity, Uniform)."""

    title: str
    example: Example
    classes: list[str]
    labels: list[str]
    distributions: np.ndarray  # labels x classes


def examples_figure(panels: Sequence[ExamplePanel], title: str, note: str = "") -> Figure:
    """Grouped bar charts of the distributions of each example topic, two panels to a row, one legend for every
    panel under them (outside the bars, above the data-origin note); ``note`` is shown instead when there are no
    panels."""
    columns = 2
    rows = max(1, -(-len(panels) // columns))
    figure = new_figure(PRINT_WIDTH, min(2.7 * rows, PRINT_HEIGHT - 0.8) + 0.8)  # the printed width
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for axis, panel in zip(axes, panels, strict=False):
        positions = np.arange(len(panel.classes))
        width = 0.8 / len(panel.labels)
        for offset, (label, distribution) in enumerate(zip(panel.labels, panel.distributions, strict=True)):
            axis.bar(positions + (offset - (len(panel.labels) - 1) / 2) * width, distribution, width, label=label)
        axis.set_xticks(positions, panel.classes)
        axis.set_ylim(0, 1.05)
        axis.set_ylabel("probability")
        example = panel.example
        axis.set_title(
            f"{panel.title}, topic {example.topic}\n"
            f"\u0394NMD = {signed(example.delta_nmd)}, \u0394RNOD = {signed(example.delta_rnod)}, "
            f"d = {signed(example.d)}",
            fontsize=8,
        )
    if panels:
        handles, labels = axes[0].get_legend_handles_labels()
        bottom_legend(figure, handles, labels, ncol=len(labels), fontsize=SMALL)
    for axis in axes[len(panels) :]:
        axis.set_axis_off()
    if not panels:
        axes[0].text(0, 0.5, note, ha="left", va="center", wrap=True, fontsize=9)
    figure.suptitle(title, fontsize=10)
    return figure


def write_scatter_figure(
    stack: str | Path,
    provenance: str | Path,
    outputs: Files,
    *,
    dataset: str,
    measures: Sequence[str],
    runs: Sequence[str],
    tolerance: float,
    level: float,
) -> None:
    """On data set ``dataset`` (its score stack at ``stack``), the scatter plots of the oriented deltas
    M(runs[0]) - M(runs[1]) of the pairs of measures compared (:func:`~ordeval.analysis.popularity.
    scatter_panels`), each with its quadrant counts and Pearson r (``level`` interval). ``outputs``: ``pdf``,
    ``png``."""
    scores = read_stack(stack, measures)
    deltas = compute_deltas(scores, *runs)
    panels = scatter_panels(deltas, tolerance, level)
    names = {m: measure_text(d) for m, d in zip(scores.measures, scores.display, strict=True)}
    title = f"{dataset}: oriented Δ = M({runs[0]}) − M({runs[1]}) per topic (< 0: prefers {runs[0]})"
    origins = compared_origins({dataset: provenance}, [dataset], runs)
    save_figure(scatter_figure(title, deltas, panels, names, level), outputs["pdf"], outputs["png"], origins)
