"""LaTeX fragments of the Popularity vs Uniform analysis (docs/methods.md 4.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ordeval.analysis.popularity import TOTAL, Panel
from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, number, tabular


def _pair(uniform: int, popularity: int) -> list[str]:
    """The two counts as LaTeX cells, the larger one in bold (neither when equal)."""
    cells = [str(uniform), str(popularity)]
    if uniform != popularity:
        larger = 0 if uniform > popularity else 1
        cells[larger] = bold(cells[larger])
    return cells


def left_out_note(skipped: Mapping[str, str]) -> str:
    """The data sets left out of a comparison, grouped by why (plain text): 'Left out: A, B: it has no run
    BL-popularity-C or BL-uniform-C.'; "" when none is."""
    reasons: dict[str, list[str]] = {}
    for name, reason in skipped.items():
        reasons.setdefault(reason, []).append(name)
    if not reasons:
        return ""
    return "Left out: " + "; ".join(f"{', '.join(names)}: {reason}" for reason, names in reasons.items()) + "."


def preference_latex(
    table: Table, measures: Sequence[str], labels: Mapping[str, str], note: str, left_out: str = ""
) -> str:
    """Data sets as rows, a U(niform) / P(opularity) column pair per measure (a T(ie) column too
    when any topic ties); the larger count of each pair in bold; the TOTAL row(s) last, after a rule.
    ``note`` fills the body when the table has no rows; ``left_out`` (LaTeX: the data sets left out,
    :func:`left_out_note`) is the note under a table that has rows."""
    with_ties = any(int(value) > 0 for value in table["ties"]) if len(table) else False
    per_measure = 3 if with_ties else 2
    header = [
        [""] + [rf"\multicolumn{{{per_measure}}}{{c}}{{{labels[m]}}}" for m in measures],
        ["Data set"] + (["U", "P", "T"] if with_ties else ["U", "P"]) * len(measures),
    ]
    align = "l" + "r" * per_measure * len(measures)
    if not len(table):
        return tabular(header, [[rf"\multicolumn{{{len(align)}}}{{l}}{{{escape(note)}}}"]], align)
    counts = {(row["dataset"], row["measure"]): row for row in table.records()}
    rows = []
    for name in dict.fromkeys(table["dataset"]):
        row = [escape(name)]
        for measure in measures:
            cell = counts[(name, measure)]
            row += _pair(int(cell["uniform"]), int(cell["popularity"]))
            if with_ties:
                row.append(str(int(cell["ties"])))
        rows.append(row)
    totals = sum(1 for name in dict.fromkeys(table["dataset"]) if str(name).startswith(TOTAL))
    return tabular(header, rows, align, rules_after=[len(rows) - totals - 1], note=left_out)


def panels_latex(panels: Sequence[Panel], labels: Mapping[str, str], level: float) -> str:
    """x, y, 2nd / 4th quadrant counts, Pearson r and its CI, one row per panel (3 decimals)."""
    header = [r"$\Delta$ x", r"$\Delta$ y", "2nd", "4th", "$r$", f"{level:.0%} CI".replace("%", r"\%")]
    rows = [
        [
            labels[panel.x],
            labels[panel.y],
            str(panel.quadrants.second),
            str(panel.quadrants.fourth),
            number(panel.correlation.r),
            f"[{number(panel.correlation.low)}, {number(panel.correlation.high)}]",
        ]
        for panel in panels
    ]
    return tabular(header, rows, "llrrrl")
