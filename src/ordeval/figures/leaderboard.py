"""Leaderboard figures: each run's mean with its interval, best first, significance groups marked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.transforms import offset_copy

from ..table import Table
from . import Figure, new_figure, row_labels


def leaderboard_figure(boards: Sequence[Table], names: Mapping[str, str], title: str) -> Figure:
    """One panel per measure (three to a row): horizontal interval bars, the best run on top, and the
    group letters at the right."""
    columns = max(1, min(3, len(boards)))
    rows = max(1, -(-len(boards) // columns))
    runs = max(len(board) for board in boards)
    figure = new_figure(4.2 * columns, (0.22 * runs + 1.2) * rows + 0.6)
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for axis, board in zip(axes, boards, strict=False):
        means = board.column("mean", float)
        low, high = board.column("ci_low", float), board.column("ci_high", float)
        positions = np.arange(len(board))[::-1]
        axis.errorbar(means, positions, xerr=[means - low, high - means], fmt="o", markersize=3, capsize=2, linewidth=1)
        row_labels(axis, positions, list(board["run"]), fontsize=7)
        # Plain texts 4 points right of each interval through one shifted transform: drawn like annotations
        # with an offset (the same pixels), at a fraction of their layout cost.
        shifted = offset_copy(axis.transData, figure, x=4, y=0, units="points")
        for position, group, right in zip(positions, board["group"], high, strict=True):
            axis.text(right, position, group, transform=shifted, va="center", fontsize=7)
        first = board.records()[0]
        direction = "lower" if first["lower_is_better"] in (True, "True") else "higher"
        axis.set_title(f"{names[first['measure']]} ({direction} is better)", fontsize=9)
        axis.grid(axis="x", alpha=0.3)
        axis.margins(x=0.15)
    for axis in axes[len(boards) :]:
        axis.set_axis_off()
    figure.suptitle(title, fontsize=10)
    return figure
