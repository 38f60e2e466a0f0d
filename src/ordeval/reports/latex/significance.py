"""LaTeX fragments of discriminative power, significance overlap and contradictions (docs/methods.md 4.4, 4.5)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, number, tabular, underline

#: Emphasis thresholds in percent: (bold at or above, underlined below).
DP_EMPHASIS = (50.0, 40.0)
SSO_EMPHASIS = (90.0, 70.0)


def emphasised(value: float, thresholds: tuple[float, float], decimals: int = 3) -> str:
    """``value`` with ``decimals`` decimals, bold at or above thresholds[0], underlined below
    thresholds[1]; '-' when undefined."""
    text = number(value, decimals)
    if math.isnan(float(value)):
        return text
    if value >= thresholds[0]:
        return bold(text)
    if value < thresholds[1]:
        return underline(text)
    return text


def discriminative_power_latex(table: Table, labels: Mapping[str, str], decimals: int = 3) -> str:
    """Measures x data sets (and POOLED): 'DP% (S)', T under each data set's name; DP >= 50% bold,
    < 40% underlined (:data:`DP_EMPHASIS`; the note under the table says so)."""
    datasets = list(dict.fromkeys(table["dataset"]))
    measures = list(dict.fromkeys(table["measure"]))
    cells = {(row["dataset"], row["measure"]): row for row in table.records()}
    header = [
        ["Measure", *(escape(dataset) for dataset in datasets)],
        ["", *(f"$T = {int(cells[(dataset, measures[0])]['pairs'])}$" for dataset in datasets)],
    ]
    rows = []
    for measure in measures:
        row = [labels[measure]]
        for dataset in datasets:
            cell = cells[(dataset, measure)]
            row.append(f"{emphasised(float(cell['percent']), DP_EMPHASIS, decimals)} ({int(cell['significant'])})")
        rows.append(row)
    bold_from, underlined_below = (f"{value:g}" for value in DP_EMPHASIS)
    note = (
        rf"\% of $T$ pairs with $p < \alpha$ ($S$); POOLED $= \sum S / \sum T$; bold $\ge {bold_from}$\%, "
        rf"underlined $< {underlined_below}$\%."
    )
    return tabular(header, rows, "l" + "r" * len(datasets), note=note)


def sso_latex(table: Table, measures: Sequence[str], labels: Mapping[str, str], decimals: int = 3) -> str:
    """Upper triangle of measures x measures: 'SSO% (a/b/c)'; SSO >= 90% bold, < 70% underlined,
    '-' where undefined."""
    cells = {(row["measure_a"], row["measure_b"]): row for row in table.records()}
    header = ["", *(labels[measure] for measure in measures[1:])]
    rows = []
    for i, first in enumerate(measures[:-1]):
        row = [labels[first]]
        for j, second in enumerate(measures[1:], start=1):
            if j <= i:
                row.append("")
                continue
            cell = cells[(first, second)]
            sso = float(cell["sso"])
            row.append(
                f"{emphasised(sso, SSO_EMPHASIS, decimals)} ({int(cell['a'])}/{int(cell['b'])}/{int(cell['c'])})"
            )
        rows.append(row)
    return tabular(header, rows, "l" + "r" * (len(measures) - 1))


def contradiction_counts_latex(counts: Table, labels: Mapping[str, str]) -> str:
    """Pairs of measures x data sets: number of contradicting run pairs, and the total."""
    datasets = list(dict.fromkeys(counts["dataset"]))
    pairs = list(dict.fromkeys(zip(counts["measure_a"], counts["measure_b"], strict=True)))
    value = {
        (row["dataset"], row["measure_a"], row["measure_b"]): int(row["contradictions"]) for row in counts.records()
    }
    header = ["Measure 1", "Measure 2", *(escape(dataset) for dataset in datasets), "Total"]
    rows = []
    for first, second in pairs:
        numbers = [value.get((dataset, first, second), 0) for dataset in datasets]
        rows.append([labels[first], labels[second], *map(str, numbers), str(sum(numbers))])
    return tabular(header, rows, "ll" + "r" * (len(datasets) + 1))


def contradictions_latex(contradictions: Table, labels: Mapping[str, str]) -> str:
    """Data set, measure 1, measure 2, run X, run Y: measure 1 says X is significantly better than Y,
    measure 2 the reverse (with a run_pairs column when identical runs are collapsed)."""
    collapsed = "run_pairs" in contradictions
    header = ["Data set", "Measure 1", "Measure 2", "Run X (better by 1)", "Run Y (better by 2)"]
    header += ["Pairs"] if collapsed else []
    rows = []
    for row in contradictions.records():
        cells = [escape(row["dataset"]), labels[row["measure_a"]], labels[row["measure_b"]], escape(row["run_x"])]
        cells += [escape(row["run_y"])] + ([str(row["run_pairs"])] if collapsed else [])
        rows.append(cells)
    if not rows:
        rows = [[rf"\multicolumn{{{len(header)}}}{{c}}{{no contradictions}}"]]
    return tabular(header, rows, "lllll" + ("r" if collapsed else ""))
