"""Leaderboard figures: each run's mean with its interval, best first, significance groups marked.

The figure is drawn at the size the PDF prints it, whatever the number of runs: the text width wide, three panels
to a row, and at most :data:`MAX_HEIGHT` inches high (so that it shares its page with the data set's leaderboard
table). Each panel gives a run 0.22 inch while that fits; then the runs are drawn as a compact dot-and-interval plot
with as many row labels as fit (every k-th run, "rank. run"): the tables and the results page keep every run.
The group cells are written beside the intervals while every row is labelled and no cell is longer
than :data:`GROUP_CHARS`; otherwise they give way to colour: the runs that share a group with the best
run (do not differ significantly from it) are drawn in orange. The tables keep every run and group.
Drawing is linear in the number of runs: one line collection and one marker line per colour, and only
the labels that fit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.transforms import offset_copy

from ordeval.analysis.groups import parse_groups
from ordeval.analysis.leaderboard import lower_is_better
from ordeval.io.table import Table
from ordeval.reports.figures import NAME, PRINT_WIDTH, Figure, new_figure, row_labels

#: The largest figure height in inches: with its caption, the data set's leaderboard table fits on its page.
MAX_HEIGHT = 4.4
#: Inches per run while every run gets a labelled row.
ROW = 0.22
#: The smallest distance between labelled rows, in points (7-point labels).
LABEL_SPACING = 8.0
#: The longest group cell written beside an interval; longer cells give way to colour.
GROUP_CHARS = 12
#: Inches of a panel outside its plot (title of two lines, x axis), for estimating the room of each row.
PANEL_FRAME = 1.1
BEST_GROUP, OTHERS = "C1", "C0"


def _grid(panels: int) -> tuple[int, int]:
    """Columns and rows: three panels to a row, more columns once there would be over six rows."""
    columns = max(1, min(3, panels), -(-panels // 6))
    return columns, max(1, -(-panels // columns))


def _shares_best_group(groups: Sequence[str]) -> np.ndarray:
    """Per run, whether it shares a group with the first (best) run; all False without groups."""
    cells = [set(parse_groups(cell)) if isinstance(cell, str) else set() for cell in groups]
    best = cells[0] if cells else set()
    return np.array([bool(best & cell) for cell in cells], dtype=bool)


def leaderboard_figure(boards: Sequence[Table], names: Mapping[str, str], title: str) -> Figure:
    """One panel per measure: horizontal intervals with the mean as a dot, the best run on top; group
    cells at the right while every row has a label, else every k-th row labelled and the best run's
    group(s) in colour (see the module's description)."""
    columns, rows = _grid(len(boards))
    runs = max(len(board) for board in boards)
    panel = min(ROW * runs + 1.2, (MAX_HEIGHT - 0.6) / rows)
    figure = new_figure(PRINT_WIDTH, panel * rows + 0.6)  # the printed size
    spacing = max(panel - PANEL_FRAME, 0.5) * 72 / max(runs, 1)  # points between rows
    step = max(1, math.ceil(LABEL_SPACING / spacing))
    cells = [str(cell) for board in boards for cell in (board["group"] if "group" in board else [])]
    show_groups = step == 1 and max(map(len, cells), default=0) <= GROUP_CHARS
    axes = np.atleast_1d(figure.subplots(rows, columns, squeeze=False)).ravel()
    for axis, board in zip(axes, boards, strict=False):
        _panel(figure, axis, board, names, step, spacing, show_groups)
    for axis in axes[len(boards) :]:
        axis.set_axis_off()
    key = "" if show_groups else " (orange: runs sharing a group with the best, not significantly different from it)"
    figure.suptitle(title + key, fontsize=10)
    return figure


def _ordinal(number: int) -> str:
    return "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def _panel(
    figure: Figure, axis, board: Table, names: Mapping[str, str], step: int, spacing: float, show_groups: bool
) -> None:
    means = board.column("mean", float)
    low, high = board.column("ci_low", float), board.column("ci_high", float)
    count = len(board)
    positions = np.arange(count)[::-1].astype(float)
    groups = list(board["group"]) if "group" in board else [""] * count
    best = np.zeros(count, dtype=bool) if show_groups else _shares_best_group(groups)
    width = min(1.0, 0.45 * spacing)
    marker = min(3.0, max(0.8, 0.6 * spacing))
    fade = 1.0 if step == 1 else 0.5  # dense intervals make a band: lighter than the means
    for chosen, color in ((~best, OTHERS), (best, BEST_GROUP)):
        if chosen.any():
            axis.hlines(positions[chosen], low[chosen], high[chosen], color=color, linewidth=width, alpha=fade)
            axis.plot(means[chosen], positions[chosen], "o", color=color, markersize=marker)
    shown = np.arange(0, count, step)
    if show_groups:
        row_labels(axis, positions, list(board["run"]), fontsize=7)
        # Plain texts 4 points right of each interval through one shifted transform: drawn like annotations
        # with an offset (the same pixels), at a fraction of their layout cost.
        shifted = offset_copy(axis.transData, figure, x=4, y=0, units="points")
        for position, group, right in zip(positions, groups, high, strict=True):
            axis.text(right, position, group, transform=shifted, va="center", fontsize=7)
    else:
        labels = [f"{board['rank'][i]}. {board['run'][i]}" for i in shown]
        row_labels(axis, positions[shown], labels, fontsize=7)
        every = "" if step == 1 else f", every {step}{_ordinal(step)} labelled"
        axis.set_xlabel(f"{count} runs{every}", fontsize=7)
    first = board.records()[0]
    direction = "lower" if lower_is_better(first["lower_is_better"]) else "higher"
    axis.set_title(f"{names[first['measure']]}\n({direction} is better)", fontsize=NAME)  # scripts 7 pt
    axis.set_ylim(-0.7, count - 0.3)
    axis.grid(axis="x", alpha=0.3)
    axis.margins(x=0.15 if show_groups else 0.05)
