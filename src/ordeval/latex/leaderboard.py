"""Leaderboards as LaTeX (booktabs) and Markdown."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..analysis.leaderboard import GROUPS_KEY
from ..table import Table
from . import escape, number, tabular


def _direction(lower_is_better) -> str:
    return "lower is better" if lower_is_better in (True, "True") else "higher is better"


def _has_interval(row) -> bool:
    """False for a leaderboard without intervals (the pooled protocol: NaN bounds)."""
    return not math.isnan(float(row["ci_low"]))


def leaderboard_latex(boards: Sequence[Table], labels: Mapping[str, str], level: float) -> str:
    """One block per measure: rank, run, mean, interval and group labels (as in the CSV), 3 decimals."""
    header = ["Rank", "Run", "Mean", f"{level:.0%} CI".replace("%", r"\%"), "Group"]
    rows, rules = [], []
    for board in boards:
        first = board.records()[0]
        rows.append(
            [
                rf"\multicolumn{{5}}{{l}}{{\textbf{{{labels[first['measure']]}}} "
                rf"({_direction(first['lower_is_better'])})}}"
            ]
        )
        for row in board.records():
            interval = f"[{number(row['ci_low'])}, {number(row['ci_high'])}]" if _has_interval(row) else "-"
            rows.append([str(row["rank"]), escape(row["run"]), number(row["mean"]), interval, row["group"]])
        rules.append(len(rows) - 1)
    return tabular(header, rows, "rlrll", rules_after=rules[:-1])


def _markdown_cell(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def leaderboard_markdown(
    dataset: str, boards: Sequence[Table], names: Mapping[str, str], level: float, note: str
) -> str:
    """A Markdown document: one table per measure (rank, run, mean, interval, group), the note and how to
    read the group cells (:data:`~ordeval.analysis.leaderboard.GROUPS_KEY`)."""
    lines = [f"# Leaderboard: {_markdown_cell(dataset)}", "", note, "", GROUPS_KEY, ""]
    for board in boards:
        first = board.records()[0]
        lines += [f"## {_markdown_cell(names[first['measure']])} ({_direction(first['lower_is_better'])})", ""]
        lines += [f"| Rank | Run | Mean | {level:.0%} CI | Group |", "|---:|:---|---:|:---|:---|"]
        for row in board.records():
            interval = f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]" if _has_interval(row) else "-"
            lines.append(
                f"| {row['rank']} | {_markdown_cell(row['run'])} | {row['mean']:.3f} | {interval} | {row['group']} |"
            )
        lines.append("")
    return "\n".join(lines)
