"""LaTeX fragments of the ranking agreement tables (docs/methods.md 4.1)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ordeval.analysis.agreement import tau_matrix
from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, number, tabular, upper_triangle_tabular


def tau_with_ci(tau: float, low: float, high: float, separator: str = " ") -> str:
    """``0.848 [0.659, 0.936]`` (3 decimals); the tau alone where the interval is missing."""
    if math.isnan(float(low)) or math.isnan(float(high)):
        return number(tau)
    return f"{number(tau)}{separator}[{number(low)}, {number(high)}]"


def tau_matrix_latex(pairs: Table, measures: Sequence[str], labels: Mapping[str, str], note: str = "") -> str:
    """Upper triangle of the tau matrix; under each tau its CI (when the table has CIs), 3 decimals; ``note``
    (LaTeX) under the table."""
    index = {name: i for i, name in enumerate(measures)}
    cells = [[""] * len(measures) for _ in measures]
    for row in pairs.records():
        ci = (
            ""
            if math.isnan(row["ci_low"])
            else "\n" + rf"{{\scriptsize [{number(row['ci_low'])}, {number(row['ci_high'])}]}}"
        )
        cells[index[row["measure_a"]]][index[row["measure_b"]]] = number(row["tau"]) + ci
    return upper_triangle_tabular([labels[name] for name in measures], cells, escaped=True, note=note)


def similarity_latex(table: Table, labels: Mapping[str, str]) -> str:
    """Measures as rows, data sets and their mean as columns, 3 decimals; the highest mean in bold."""
    columns = [column for column in table.columns if column != "measure"]
    best = max(table.column("mean", float))
    rows = []
    for row in table.records():
        cells = [number(row[column]) for column in columns]
        if row["mean"] == best:
            cells[-1] = bold(cells[-1])
        rows.append([labels[row["measure"]], *cells])
    header = ["Measure"] + [escape(column) for column in columns[:-1]] + ["Mean"]
    return tabular(header, rows, "l" + "r" * len(columns))


def combination_latex(table: Table, labels: Mapping[str, str]) -> str:
    """One row per data set (then Mean), one column per pair: tau [CI], 3 decimals."""
    pairs = list(dict.fromkeys(zip(table["measure_a"], table["measure_b"], strict=True)))
    header = ["Data set"] + [f"{labels[a]} vs {labels[b]}" for a, b in pairs]
    by_dataset: dict[str, dict] = {}
    for row in table.records():
        by_dataset.setdefault(row["dataset"], {})[(row["measure_a"], row["measure_b"])] = row
    rows = []
    for dataset, cells in by_dataset.items():
        values = [tau_with_ci(cells[p]["tau"], cells[p]["ci_low"], cells[p]["ci_high"]) for p in pairs]
        rows.append(["Mean" if dataset == "mean" else escape(dataset), *values])
    return tabular(header, rows, "l" + "c" * len(pairs), rules_after=[len(rows) - 2])


#: The shading of the ACL 2021 paper's Table 2: (tau at or above, cell colour, its name in the note), darkest first.
SHADES = ((0.8, "black!25", "dark"), (0.6, "black!10", "light"))


def paper_tau_latex(panels: Mapping[str, Table], measures: Sequence[str], labels: Mapping[str, str]) -> str:
    """The ACL 2021 paper's Table 2 layout: per data set an upper triangle of taus (rows ``measures[:-1]``,
    columns ``measures[1:]``), 3 decimals, each cell shaded by strength (:data:`SHADES`): tau >= 0.8 dark,
    0.6 <= tau < 0.8 light, tau < 0.6 none (``\\cellcolor`` of the xcolor/colortbl packages); the note under the
    table says so."""
    header = ["", *(labels[m] for m in measures[1:])]
    rows = []
    for position, (dataset, pairs) in enumerate(panels.items()):
        matrix = tau_matrix(pairs, measures)
        span = len(measures)
        rows.append([rf"\multicolumn{{{span}}}{{l}}{{({chr(97 + position)}) {escape(dataset)}}}"])
        for i, first in enumerate(measures[:-1]):
            cells = [labels[first]]
            for j in range(1, len(measures)):
                cells.append(_shaded(matrix[i, j]) if j > i else "")
            rows.append(cells)
    return tabular(header, rows, "l" + "c" * (len(measures) - 1), note=shading_note())


def shading_note() -> str:
    """What the shades of :func:`paper_tau_latex` mean (LaTeX): 'dark $\\tau \\ge 0.8$, light $0.6 \\le \\tau <
    0.8$'."""
    parts, above = [], None
    for limit, _, name in SHADES:
        parts.append(
            rf"{name} ${limit:g} \le \tau < {above:g}$" if above is not None else rf"{name} $\tau \ge {limit:g}$"
        )
        above = limit
    return "Shaded: " + ", ".join(parts) + "."


def _shaded(tau: float) -> str:
    text = number(tau)
    if math.isnan(tau):
        return text
    for limit, colour, _ in SHADES:
        if tau >= limit:
            return rf"\cellcolor{{{colour}}}{text}"
    return text
