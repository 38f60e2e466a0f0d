"""LaTeX fragments of the system ranking consistency tables (docs/methods.md 4.2)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ordeval.analysis.consistency import beaten_worst
from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, number, tabular, upper_triangle_tabular

#: LaTeX math symbols (no package needed) that stand for the measures in "outperforms" columns.
SYMBOLS = (
    r"\spadesuit",
    r"\heartsuit",
    r"\diamondsuit",
    r"\clubsuit",
    r"\star",
    r"\dagger",
    r"\ddagger",
    r"\natural",
    r"\sharp",
    r"\flat",
    r"\bullet",
    r"\circ",
    r"\ast",
    r"\triangleleft",
    r"\triangleright",
    r"\oplus",
    r"\otimes",
    r"\odot",
    r"\ominus",
    r"\diamond",
)
#: The ACL 2021 paper's marks (its Table 3): k = how many of the worst measures a measure beats.
PAPER_MARKS = {
    8: "]",
    7: "[",
    6: r"$\spadesuit$",
    5: r"$\clubsuit$",
    4: r"$\heartsuit$",
    3: r"$\diamondsuit$",
    2: r"$\ddagger$",
    1: r"$\dagger$",
}


def symbols(measures: Sequence[str]) -> dict[str, str]:
    """A LaTeX math symbol per measure, in the given (configured) order; numbers beyond the list."""
    return {name: SYMBOLS[i] if i < len(SYMBOLS) else f"({i + 1})" for i, name in enumerate(measures)}


def consistency_note(splits: int, defined: int, ve2: float) -> str:
    """A consistency table's note (LaTeX): the random splits drawn, those in which every measure's tau is defined
    (the trials the comparison uses), and VE2."""
    return rf"{splits} random splits, {defined} with every $\tau$ defined; VE2 = {_ve2(ve2)}."


def comparison_latex(summary: Table, symbol_of: Mapping[str, str], labels: Mapping[str, str], note: str = "") -> str:
    """Measure, its symbol (the legend), mean tau (4 decimals) and the symbols of the measures it
    significantly outperforms; rows sorted by mean tau (as the summary is); ``note`` (LaTeX) under the table."""
    rows = []
    for row in summary.records():
        beaten = row["outperforms"].split()
        marks = "$" + r"\,".join(symbol_of[other] for other in beaten) + "$" if beaten else ""
        rows.append([labels[row["measure"]], f"${symbol_of[row['measure']]}$", number(row["mean_tau"], 4), marks])
    return tabular(["Measure", "Symbol", r"Mean $\tau$", "Significantly better than"], rows, "lcrl", note=note)


def effect_size_latex(pairs: Table, order: Sequence[str], labels: Mapping[str, str], note: str = "") -> str:
    """Upper triangle (measures in ``order``, sorted by mean tau) of effect sizes
    (mean_a - mean_b)/sqrt(VE2), 3 decimals; significant differences in bold; ``note`` (LaTeX) under the table."""
    index = {name: i for i, name in enumerate(order)}
    cells = [[""] * len(order) for _ in order]
    for row in pairs.records():
        text = number(row["effect_size"])
        cells[index[row["measure_a"]]][index[row["measure_b"]]] = bold(text) if row["significant"] else text
    return upper_triangle_tabular([labels[name] for name in order], cells, escaped=True, note=note)


def mean_summary_latex(table: Table, labels: Mapping[str, str]) -> str:
    """Measures (sorted) by data set, then the mean; 4 decimals, the highest of each column in bold."""
    columns = [column for column in table.columns if column != "measure"]
    best = {column: max(table.column(column, float)) for column in columns}
    rows = [
        [labels[row["measure"]]]
        + [bold(number(row[c], 4)) if row[c] == best[c] else number(row[c], 4) for c in columns]
        for row in table.records()
    ]
    header = ["Measure"] + [escape(column) for column in columns[:-1]] + ["Mean"]
    return tabular(header, rows, "l" + "r" * len(columns))


def mark(k: int) -> str:
    return PAPER_MARKS.get(k, f"({k})") if k else ""


def paper_consistency_latex(
    panels: Mapping[str, Mapping[str, Table]], headings: Mapping[str, str], labels: Mapping[str, str]
) -> str:
    """The ACL 2021 paper's Table 3 layout: per data set, (a) the full split and (b) 10 vs 10 side by
    side, each headed by its VE2, the measures sorted by mean tau (3 decimals) with a mark saying how
    many of the worst measures each significantly outperforms (legend under the table).

    ``panels``: data set -> condition -> summary table; ``headings``: condition -> column heading."""
    conditions = list(headings)
    header = ["", *(rf"\multicolumn{{2}}{{c}}{{{escape(headings[c])}}}" for c in conditions)]
    rows = []
    for dataset, summaries in panels.items():
        columns = []
        for condition in conditions:
            summary = summaries[condition]
            ve2 = float(summary.column("ve2", float)[0])
            marks = beaten_worst(summary)
            lines = [[f"VE2 = {_ve2(ve2)}", ""]] + [
                [labels[m], f"{number(t)}{mark(k)}"]
                for m, t, k in zip(summary["measure"], summary.column("mean_tau", float), marks, strict=True)
            ]
            columns.append(lines)
        rows.append([rf"\multicolumn{{{1 + 2 * len(conditions)}}}{{l}}{{{escape(dataset)}}}"])
        for line in range(max(len(column) for column in columns)):
            cells = [""]
            for column in columns:
                cells += column[line] if line < len(column) else ["", ""]
            rows.append(cells)
    legend = ", ".join(f"{PAPER_MARKS[k]} = beats the {k} worst" for k in sorted(PAPER_MARKS, reverse=True))
    rows.append([rf"\multicolumn{{{1 + 2 * len(conditions)}}}{{l}}{{\footnotesize {legend}}}"])
    return tabular(header, rows, "l" + "lr" * len(conditions), rules_after=[len(rows) - 2])


def _ve2(value: float) -> str:
    if math.isnan(value):
        return "-"
    mantissa, exponent = f"{value:.2e}".split("e")
    return rf"${mantissa} \times 10^{{{int(exponent)}}}$" if value else "0"
