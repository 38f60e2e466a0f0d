"""LaTeX fragments of published versus reproduced (:mod:`ordeval.results.replication`).

A data set's fragment is one table in blocks, one per published table and statistic (a header row naming
both, as the paper prints the statistic): the published number as printed, the reproduced one rounded to that
precision (so that the verdict beside them can be read off the two), the verdict, the reproduced number
unrounded (three more decimals) and the difference. The numbers' texts are those of the HTML page
(:func:`ordeval.results.replication.shown`). Measures are named as the papers print them (the registries'
markup: MAE$^M$, $\\alpha_{ORD}$).
"""

from __future__ import annotations

from ordeval.io.table import Table
from ordeval.reports.latex import bold, escape, measure_label, tabular
from ordeval.results.replication import VERDICTS, shown, verdict_column

#: The columns of a data set's table.
COLUMNS = 6
#: Said above a block of numbers that the set-up fixes (the run pairs compared), LaTeX.
SET_UP_NOTE = r"fixed by the set-up: $n(n-1)/2$ pairs of the $n$ runs, whatever the data"
#: How a verdict is printed: a number that differs is shown in bold, never hidden.
VERDICT_CELLS = {
    "exact": "exact",
    "within randomisation error": "within",
    "differs": bold("differs"),
    "fixed by the set-up": "set-up",
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


def replication_latex(table: Table) -> str:
    """Every published number of one data set (or the pooled ones) in blocks of one published table and
    statistic: measures or team, published, reproduced at the published precision, verdict, reproduced
    unrounded, difference; a block whose numbers all have one verdict other than exact with one note says it
    in its header."""
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
        rows.append([rf"\multicolumn{{{COLUMNS}}}{{l}}{{\textit{{{escape(source)}}}}}"])
        rows.append([rf"\multicolumn{{{COLUMNS}}}{{l}}{{\textit{{{statistic_label(statistic)}}}}}"])
        verdicts = {record["verdict"] for record in block}
        if len(notes) == 1 and verdicts == {"not comparable"} and notes != {""}:
            rows.append([rf"\multicolumn{{{COLUMNS}}}{{l}}{{\footnotesize not comparable: {escape(notes.pop())}}}"])
        if verdicts == {"fixed by the set-up"}:
            rows.append([rf"\multicolumn{{{COLUMNS}}}{{l}}{{\footnotesize {SET_UP_NOTE}}}"])
        for record in block:
            names = " / ".join(measure_markup(part) for part in (record["a"], record["b"]) if part)
            texts = shown(record)
            rows.append(
                [
                    names or "--",
                    texts["published"],
                    texts["reproduced"],
                    VERDICT_CELLS[record["verdict"]],
                    texts["unrounded"],
                    texts["difference"],
                ]
            )
    sources = list(dict.fromkeys(record["source"] for record in records))
    header = ["Measures / run", "Published", "Reproduced", "Verdict", "Unrounded", "Difference"]
    note = "% sources, in order: " + "; ".join(escape(source) for source in sources) + "\n"
    return note + tabular(header, rows, "lrrlrr", rules_after=rules)


def summary_latex(table: Table) -> str:
    """Counts per verdict for each published table, then the total (bold)."""
    rows = []
    records = table.records()
    for index, record in enumerate(records):
        cells = [escape(record["source"]), escape(record["dataset"])]
        cells += [str(int(record[verdict_column(verdict)])) for verdict in VERDICTS] + [str(int(record["numbers"]))]
        rows.append([bold(cell) for cell in cells] if index == len(records) - 1 else cells)
    header = ["Published table", "Data set", "Exact", "Within", "Differs", "Set-up", "N.c.", "Numbers"]
    return tabular(header, rows, "llrrrrrr", rules_after=[len(rows) - 2])
