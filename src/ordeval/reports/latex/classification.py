"""LaTeX of the ordinal classification tables laid out as in the ACL 2021 paper (Table 4, the constant
baselines' kappa, the official SemEval protocol, the 0/0 conventions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ordeval.io.table import Table
from ordeval.reports.latex import escape, number, tabular

CHECK = r"$\checkmark$"


def properties_latex(table: Table, labels: Mapping[str, str]) -> str:
    """The paper's Table 4: (I) ordinal, (II) constant runs, (III) class imbalance, (IV) similarity cluster,
    (V) consistency, (VI) discriminative power."""
    header = ["Measure", "(I)", "(II)", "(III)", "(IV)", "(V)", "(VI)"]
    rows = [
        [
            labels[row["measure"]],
            *(
                CHECK if row[key] in (True, "True") else ""
                for key in ("ordinal", "handles_constant", "handles_imbalance")
            ),
            row["similarity_cluster"],
            row["consistency"],
            row["discriminative_power"],
        ]
        for row in table.records()
    ]
    return tabular(header, rows, "lcccccc")


def kappa_constant_latex(table: Table) -> str:
    header = ["Data set", "Constant run", "Class", "Topics", "Defined", r"$\kappa = 0$", r"$\kappa \neq 0$"]
    rows = [
        [
            escape(row["dataset"]),
            escape(row["run"]),
            escape(row["class"]),
            str(row["topics"]),
            str(row["defined"]),
            str(row["kappa_zero"]),
            str(row["kappa_not_zero"]),
        ]
        for row in table.records()
    ]
    if not rows:
        rows = [[r"\multicolumn{7}{c}{no constant baseline among the runs}"]]
    return tabular(header, rows, "lllrrrr")


def pooled_latex(tables: Mapping[str, Table], measures: Sequence[str], labels: Mapping[str, str]) -> str:
    """Per data set, every run's scores on one confusion matrix over all items (the official protocol)."""
    header = ["Run", *(labels[m] for m in measures)]
    rows, rules = [], []
    for dataset, table in tables.items():
        rows.append([rf"\multicolumn{{{len(header)}}}{{l}}{{\textbf{{{escape(dataset)}}}}}"])
        for row in table.records():
            rows.append([escape(row["run"]), *(number(row[m]) for m in measures)])
        rules.append(len(rows) - 1)
    return tabular(header, rows, "l" + "r" * len(measures), rules_after=rules[:-1])


def conventions_latex(table: Table, labels: Mapping[str, str]) -> str:
    header = ["Data set", "Measure", "Case", "Value used", "Topic x run cells", "Runs"]
    rows = [
        [
            escape(row["dataset"]),
            labels.get(row["measure"], escape(row["measure"])),
            escape(row["case"]),
            escape(row["value"]),
            str(row["cells"]),
            str(row["runs"]),
        ]
        for row in table.records()
    ]
    return tabular(header, rows, "llp{6cm}lrr")
