"""Figure of the topic set size design: topics against the minimum detectable difference, per measure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.ticker import FuncFormatter, NullFormatter

from ordeval.reports.figures import PRINT_WIDTH, TEXT, Figure, bottom_legend, new_figure

DESIGN_TITLES = {"paired_t": "paired t-test", "anova": "one-way ANOVA", "ci": "CI width"}
MARKERS = "os^vD<>ph*"


def topic_set_size_figure(
    curves: Mapping[str, Mapping[str, np.ndarray]],
    fractions: Sequence[float],
    names: Mapping[str, str] | None = None,
    title: str = "",
    runs: int | None = None,
) -> Figure:
    """One panel per design (``curves[design][measure]``: topics at each of ``fractions``, as
    :func:`ordeval.stats.topic_set_size.topic_curves` gives them), one line per measure; x: the minimum detectable
    difference as a percentage of the measure's score range, y: topics (log scale). ``names`` label the
    measures; ``runs``: m of the ANOVA panel's title."""
    names = names or {}
    designs = list(curves)
    # the printed width, the panels side by side and one legend under them (names at NAME points), above the
    # data-origin note
    legend_rows = -(-max((len(curves[design]) for design in designs), default=1) // 4)
    figure = new_figure(PRINT_WIDTH, 2.7 + 0.22 * legend_rows)  # under its table on one page
    axes = np.atleast_1d(figure.subplots(1, max(1, len(designs)), squeeze=False, sharey=True)).ravel()
    percent = 100 * np.asarray(fractions, dtype=float)
    for axis, design in zip(axes, designs, strict=False):
        for index, (measure, topics) in enumerate(curves[design].items()):
            axis.plot(
                percent,
                np.asarray(topics, dtype=float),
                marker=MARKERS[index % len(MARKERS)],
                markersize=3,
                linewidth=1.0,
                label=names.get(measure, measure),
            )
        axis.set_yscale("log")
        axis.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))  # plain text, no math
        axis.yaxis.set_minor_formatter(NullFormatter())
        heading = DESIGN_TITLES.get(design, design)
        if design == "anova" and runs:
            heading += f" (m = {runs})"
        axis.set_title(heading, fontsize=9)
        axis.set_xlabel(
            "smallest difference (% of range)" if design != "ci" else "CI width (% of range)", fontsize=TEXT
        )
        axis.grid(alpha=0.3, which="both")
    axes[0].set_ylabel("topics needed")
    if designs:
        bottom_legend(figure, *axes[0].get_legend_handles_labels(), ncol=4)
    if title:
        figure.suptitle(title, fontsize=10)
    return figure


def dataset_figure(
    matrices: Mapping[str, np.ndarray],
    names: Mapping[str, str] | None = None,
    title: str = "",
    *,
    alpha: float = 0.05,
    power: float = 0.8,
) -> Figure:
    """The figure of one data set's ``{measure: topics x runs scores}``: every design's curves at
    :data:`~ordeval.stats.topic_set_size.CURVE_FRACTIONS`, the ANOVA over the data set's runs."""
    from ordeval.stats.topic_set_size import CURVE_FRACTIONS, DESIGNS, topic_curves

    curves = {design: topic_curves(matrices, design, alpha=alpha, power=power) for design in DESIGNS}
    runs = {np.shape(scores)[1] for scores in matrices.values()}
    return topic_set_size_figure(curves, CURVE_FRACTIONS, names, title, runs=runs.pop() if len(runs) == 1 else None)
