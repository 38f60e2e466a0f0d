"""LaTeX fragments of published versus reproduced (:mod:`ordeval.replication`)."""

from __future__ import annotations

import math

from ..compare import decimals
from ..table import Table
from . import bold, escape, tabular

#: How a verdict is printed: a number that differs is shown in bold, never hidden.
VERDICT_CELLS = {"exact": "exact", "within randomisation error": "within", "differs": bold("differs"),
                 "not comparable": "n.c."}  # fmt: skip


def _reproduced(published: str, value: float) -> str:
    """The reproduced number with one decimal more than the published one (so that the rounding shows); a
    whole number beside a published whole number (a count of run pairs) as it is."""
    if math.isnan(value):
        return "-"
    places = max(decimals(published), 0)
    if places == 0 and value == round(value):
        return str(int(value))
    return f"{value:.{places + 1}f}"


def _difference(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:+.2g}"


def replication_latex(table: Table) -> str:
    """Every published number of one data set (or the pooled ones): statistic, measures or team, published,
    reproduced (one decimal more), difference, verdict; a rule between the published tables."""
    rows, rules, previous = [], [], None
    records = table.records()
    for index, record in enumerate(records):
        if previous is not None and record["source"] != previous:
            rules.append(index - 1)
        previous = record["source"]
        rows.append([
            escape(record["statistic"]),
            escape(" / ".join(part for part in (record["a"], record["b"]) if part)),
            record["published"],
            _reproduced(record["published"], float(record["reproduced"])),
            _difference(float(record["difference"])),
            VERDICT_CELLS[record["verdict"]],
        ])  # fmt: skip
    sources = list(dict.fromkeys(record["source"] for record in records))
    header = ["Statistic", "Measures / run", "Published", "Reproduced", "Difference", "Verdict"]
    note = "% sources, in order: " + "; ".join(escape(source) for source in sources) + "\n"
    return note + tabular(header, rows, "llrrrl", rules_after=rules)


def summary_latex(table: Table) -> str:
    """Counts per verdict for each published table, then the total (bold)."""
    rows = []
    records = table.records()
    for index, record in enumerate(records):
        cells = [escape(record["source"]), escape(record["dataset"])]
        cells += [str(int(record[key])) for key in ("exact", "within_randomisation_error", "differs",
                                                      "not_comparable", "numbers")]  # fmt: skip
        rows.append([bold(cell) for cell in cells] if index == len(records) - 1 else cells)
    header = ["Published table", "Data set", "Exact", "Within", "Differs", "N.c.", "Numbers"]
    return tabular(header, rows, "llrrrrr", rules_after=[len(rows) - 2])
