"""LaTeX fragments of published versus reproduced (:mod:`ordeval.results.replication`).

A data set's fragment is one table in blocks, one per published table and statistic (a header row naming
both, as the paper prints the statistic): within a block every number has one precision (the published as
printed, the reproduced with one decimal more so that the rounding shows), so a column never mixes "1" with
"1.000". Measures are named as the papers print them (the registries' markup: MAE$^M$, $\\alpha_{ORD}$).
"""

from __future__ import annotations

import math

from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, measure_label, tabular
from ordeval.results.compare import decimals

#: How a verdict is printed: a number that differs is shown in bold, never hidden.
VERDICT_CELLS = {
    "exact": "exact",
    "within randomisation error": "within",
    "differs": bold("differs"),
    "not comparable": "n.c.",
}
#: Each statistic as the papers print it (LaTeX).
STATISTIC_LABELS = {
    "tau_a": r"Kendall's $\tau$",
    "tau_ci_low": r"$\tau$: lower bound of the 95\% CI",
    "tau_ci_high": r"$\tau$: upper bound of the 95\% CI",
    "consistency_mean_tau_half": r"mean $\tau$, random halves of the topics",
    "consistency_mean_tau_10v10": r"mean $\tau$, random 10 vs 10 topic sets",
    "consistency_ve2_half": r"VE2 of the halves' $\tau$s",
    "consistency_ve2_10v10": r"VE2 of the 10 vs 10 $\tau$s",
    "dp_significant": r"run pairs significant at $\alpha = 0.05$",
    "dp_pairs": "run pairs compared",
    "official_MAE_M": r"official MAE$^M$ (all tweets pooled)",
    "official_MAE_mu": r"official MAE$^\mu$ (all tweets pooled)",
    "official_EMD": "official EMD (mean over topics)",
    "prefers_uniform": "dialogues preferring Uniform",
    "prefers_popularity": "dialogues preferring Popularity",
}


def statistic_label(statistic: str) -> str:
    """A statistic as the papers print it (LaTeX); an unknown one escaped as it is."""
    return STATISTIC_LABELS.get(statistic, escape(statistic))


def measure_markup(name: str) -> str:
    """A measure (or a run) as the papers print it: the registry's LaTeX markup where a task registers it."""
    from ordeval.tasks import all_tasks

    for task in all_tasks():
        if name in task.registry:
            measure = task.registry[name]
            return measure_label(measure.display, measure.properties.get("latex", ""))
    return escape(name)


def _places(values: list[str]) -> int:
    return max([max(decimals(value), 0) for value in values] or [0])


def _reproduced(value: float, places: int, counts: bool) -> str:
    """The reproduced number with one decimal more than the published ones of its block; a count as a count."""
    if math.isnan(value):
        return "-"
    if counts and value == round(value):
        return str(int(value))
    return f"{value:.{places + 1}f}"


def _difference(value: float, places: int, counts: bool) -> str:
    if math.isnan(value):
        return "-"
    if counts and value == round(value):
        return f"{int(value):+d}" if value else "0"
    text = f"{value:+.{places + 1}f}"
    return "0" if float(text) == 0 else text


def replication_latex(table: Table) -> str:
    """Every published number of one data set (or the pooled ones) in blocks of one published table and
    statistic: measures or team, published, reproduced (one decimal more), difference, verdict; a block whose
    numbers are all not comparable says why in its header."""
    records = table.records()
    blocks: dict[tuple[str, str], list[dict]] = {}
    for record in records:
        blocks.setdefault((record["source"], record["statistic"]), []).append(record)
    rows, rules = [], []
    for (source, statistic), block in blocks.items():
        if rows:
            rules.append(len(rows) - 1)
        notes = {str(record.get("note", "")) for record in block if record["verdict"] == "not comparable"}
        # the block's heading on short lines, so that it never makes the table wider than its numbers
        rows.append([rf"\multicolumn{{5}}{{l}}{{\textit{{{escape(source)}}}}}"])
        rows.append([rf"\multicolumn{{5}}{{l}}{{\textit{{{statistic_label(statistic)}}}}}"])
        if len(notes) == 1 and all(record["verdict"] == "not comparable" for record in block) and notes != {""}:
            rows.append([rf"\multicolumn{{5}}{{l}}{{\footnotesize not comparable: {escape(notes.pop())}}}"])
        published = [str(record["published"]) for record in block]
        places = _places(published)
        counts = places == 0
        for record in block:
            names = " / ".join(measure_markup(part) for part in (record["a"], record["b"]) if part)
            rows.append(
                [
                    names or "--",
                    str(record["published"]),
                    _reproduced(float(record["reproduced"]), places, counts),
                    _difference(float(record["difference"]), places, counts),
                    VERDICT_CELLS[record["verdict"]],
                ]
            )
    sources = list(dict.fromkeys(record["source"] for record in records))
    header = ["Measures / run", "Published", "Reproduced", "Difference", "Verdict"]
    note = "% sources, in order: " + "; ".join(escape(source) for source in sources) + "\n"
    return note + tabular(header, rows, "lrrrl", rules_after=rules)


def summary_latex(table: Table) -> str:
    """Counts per verdict for each published table, then the total (bold)."""
    rows = []
    records = table.records()
    for index, record in enumerate(records):
        cells = [escape(record["source"]), escape(record["dataset"])]
        cells += [
            str(int(record[key]))
            for key in ("exact", "within_randomisation_error", "differs", "not_comparable", "numbers")
        ]
        rows.append([bold(cell) for cell in cells] if index == len(records) - 1 else cells)
    header = ["Published table", "Data set", "Exact", "Within", "Differs", "N.c.", "Numbers"]
    return tabular(header, rows, "llrrrrr", rules_after=[len(rows) - 2])
