"""Leaderboards as text: LaTeX (booktabs) and Markdown (the HTML results page:
:mod:`ordeval.reports.leaderboard_page`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.groups import GROUPS_KEY
from ordeval.analysis.leaderboard import Leaderboards, pipeline_pooled_leaderboards
from ordeval.analysis.leaderboard import lower_is_better as is_lower
from ordeval.io.files import write_text
from ordeval.io.provenance import origin_sentence, read_provenance
from ordeval.io.table import Table, write_csv
from ordeval.reports.latex import comment, escape, measure_label, number, tabular
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_stack


def _direction(lower_is_better) -> str:
    return "lower is better" if is_lower(lower_is_better) else "higher is better"


def _has_interval(row) -> bool:
    """False for a leaderboard without intervals (the pooled protocol: NaN bounds)."""
    return not math.isnan(float(row["ci_low"]))


def _columns(boards: Sequence[Table]) -> tuple[bool, bool]:
    """Whether any row has an interval, and whether any has a group: a column (and the key to the group
    cells) is shown only where it says something (the pooled protocol has no intervals; ranks without a
    test have no groups)."""
    rows = [row for board in boards for row in board.records()]
    return any(_has_interval(row) for row in rows), any(row["group"] for row in rows)


def _cells(row, intervals: bool, groups: bool, value: str, interval: str) -> list[str]:
    return (
        [str(row["rank"]), row["run"], value] + ([interval] if intervals else []) + ([row["group"]] if groups else [])
    )


def leaderboard_latex(
    boards: Sequence[Table], labels: Mapping[str, str], level: float, value_header: str = "Mean"
) -> str:
    """One block per measure: rank, run, the score (``value_header``: the mean over topics, or the pooled
    score), its interval and the group labels (as in the CSV; those two where any row has them), 3 decimals."""
    intervals, groups = _columns(boards)
    header = _cells(
        {"rank": "Rank", "run": "Run", "group": "Group"},
        intervals,
        groups,
        value_header,
        f"{level:.0%} CI".replace("%", r"\%"),
    )
    rows, rules = [], []
    for board in boards:
        first = board.records()[0]
        rows.append(
            [
                rf"\multicolumn{{{len(header)}}}{{l}}{{\textbf{{{labels[first['measure']]}}} "
                rf"({_direction(first['lower_is_better'])})}}"
            ]
        )
        for row in board.records():
            interval = f"[{number(row['ci_low'])}, {number(row['ci_high'])}]" if _has_interval(row) else "-"
            cells = _cells(row, intervals, groups, number(row["mean"]), interval)
            rows.append([cells[0], escape(cells[1]), *cells[2:]])
        rules.append(len(rows) - 1)
    return tabular(header, rows, "rlr" + "l" * (len(header) - 3), rules_after=rules[:-1])


def _markdown_cell(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def leaderboard_markdown(
    dataset: str,
    boards: Sequence[Table],
    names: Mapping[str, str],
    level: float,
    note: str,
    value_header: str = "Mean",
) -> str:
    """A Markdown document: one table per measure (rank, run, the score under ``value_header``, its
    interval and group where any row has them), the note and, with groups, how to read the group cells
    (:data:`~ordeval.analysis.groups.GROUPS_KEY`)."""
    intervals, groups = _columns(boards)
    lines = [f"# Leaderboard: {_markdown_cell(dataset)}", "", note, ""] + ([GROUPS_KEY, ""] if groups else [])
    header = _cells(
        {"rank": "Rank", "run": "Run", "group": "Group"}, intervals, groups, value_header, f"{level:.0%} CI"
    )
    align = ["---:", ":---", "---:"] + [":---"] * (len(header) - 3)
    for board in boards:
        first = board.records()[0]
        lines += [f"## {_markdown_cell(names[first['measure']])} ({_direction(first['lower_is_better'])})", ""]
        lines += ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
        for row in board.records():
            interval = f"[{row['ci_low']:.3f}, {row['ci_high']:.3f}]" if _has_interval(row) else "-"
            cells = _cells(row, intervals, groups, f"{row['mean']:.3f}", interval)
            lines.append("| " + " | ".join(_markdown_cell(cell) for cell in cells) + " |")
        lines.append("")
    return "\n".join(lines)


def compact_latex(boards: Sequence[Table], labels: Mapping[str, str]) -> str:
    """Every measure's leaderboard side by side, for print: a row per run (in the order of the first measure's
    board), a column per measure holding the run's mean (3 decimals) and its significance groups, the measure's
    direction in its header (a down arrow: lower is better)."""
    runs = list(boards[0]["run"]) if boards else []
    others = sorted({run for board in boards for run in board["run"]} - set(runs))
    cells = {}
    header = ["Run"]
    for board in boards:
        records = board.records()
        measure = records[0]["measure"]
        arrow = r"$\downarrow$" if is_lower(records[0]["lower_is_better"]) else r"$\uparrow$"
        header.append(f"{labels[measure]} {arrow}")
        for row in records:
            group = f" {row['group']}" if row.get("group") else ""
            cells[(measure, row["run"])] = number(row["mean"]) + (
                rf"\,\textit{{{escape(group.strip())}}}" if group else ""
            )
    measures = [board.records()[0]["measure"] for board in boards]
    rows = [[escape(run)] + [cells.get((measure, run), "-") for measure in measures] for run in runs + others]
    return tabular(header, rows, "l" + "r" * len(measures))


# --------------------------------------------------------------------------- one data set's leaderboards


def leaderboard_labels(boards: Leaderboards) -> dict[str, str]:
    """{measure: LaTeX label} of the leaderboards' measures (the registry's markup, else the escaped name)."""
    return {
        measure: measure_label(boards.display[measure], boards.markup.get(measure, "")) for measure in boards.display
    }


def leaderboards_markdown(boards: Leaderboards) -> str:
    return leaderboard_markdown(
        boards.dataset, boards.tables(), boards.display, boards.level, boards.note, boards.value_header
    )


def leaderboards_latex(boards: Leaderboards) -> str:
    return leaderboard_latex(boards.tables(), leaderboard_labels(boards), boards.level, boards.value_header)


def write_leaderboards(boards: Leaderboards, csv: str | Path, tex: str | Path, markdown: str | Path) -> None:
    """The leaderboards as CSV (with a ``data_origin`` column where the origin is known), LaTeX (headed by
    comments on the setting -- the topics or items, the intervals, the test, as the Markdown states it -- and the
    data origin where known) and Markdown."""
    comments = [comment(boards.setting)]
    if boards.origins:
        write_csv(boards.table(), csv, boards.origins)
        comments.append(comment(origin_sentence(boards.origins)))
    else:
        boards.table().write(csv, sep=",")
    write_text("\n".join(comments) + "\n" + leaderboards_latex(boards), tex)
    write_text(leaderboards_markdown(boards), markdown)


# --------------------------------------------------------------------------- the pipeline's official-protocol boards


def pooled_items(provenance: Mapping) -> int | None:
    """How many items a data set's pooled scores pool (its provenance record's summary), where it says."""
    return provenance.get("summary", {}).get("items")


def write_pooled_leaderboards(
    stack: str | Path,
    pooled: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    dataset: str,
    measures: Sequence[str],
    alpha: float,
    level: float,
) -> Leaderboards:
    """The leaderboards of ``measures`` on data set ``dataset`` under the official SemEval protocol (every measure
    on one confusion matrix over all items: ``pooled``, its pooled.tsv): ranks, no significance groups
    (:func:`~ordeval.analysis.leaderboard.pipeline_pooled_leaderboards`). ``outputs``: ``csv``, ``html`` (its
    page), ``tex``, ``md``."""
    scores = read_stack(stack, measures)
    record = read_provenance(provenance)
    boards = pipeline_pooled_leaderboards(
        scores,
        pooled,
        dataset=dataset,
        items=pooled_items(record),
        alpha=alpha,
        level=level,
        origins={dataset: record["origin"]},
    )
    write_leaderboards(boards, outputs["csv"], outputs["tex"], outputs["md"])
    write_table_page(outputs["csv"], outputs["html"])
    return boards
