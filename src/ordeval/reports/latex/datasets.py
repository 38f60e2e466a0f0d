"""The data set table (the ACL 2021 paper's Table 1, for every configured data set): task, venue, language,
classes, topics, items, runs (from files, baselines, simulated), data origin."""

from __future__ import annotations

from ordeval.io.table import Table
from ordeval.reports.latex import escape, tabular

COLUMNS = [
    "dataset",
    "type",
    "venue",
    "description",
    "language",
    "classes",
    "topics",
    "items",
    "runs",
    "runs_from_files",
    "baseline_runs",
    "simulated_runs",
    "topics_with_empty_gold_class",
]


def _short(task: str) -> str:
    """OQ, OC: the task's short name (the name itself for an unknown task)."""
    from ordeval.tasks import get_task, known_tasks

    return get_task(task).short if task in known_tasks() else task


def datasets_table(provenance: dict[str, dict]) -> Table:
    """One row per data set from its provenance record."""
    rows = []
    for name, record in provenance.items():
        summary = record.get("summary", {})
        sources = [run["source"] for run in record["runs"].values()]
        rows.append(
            (
                name,
                _short(record.get("task", "")),
                record.get("venue", ""),
                record.get("description", ""),
                record.get("language", ""),
                summary.get("classes", ""),
                summary.get("topics", ""),
                summary.get("items", ""),
                len(sources),
                sources.count("file"),
                sources.count("baseline"),
                sources.count("simulated"),
                summary.get("topics_with_empty_gold_class", ""),
            )
        )
    return Table({name: [row[k] for row in rows] for k, name in enumerate(COLUMNS)})


def datasets_latex(table: Table) -> str:
    """The data set table as a booktabs tabular."""
    header = [
        "Data set",
        "Venue",
        "Type",
        "Language",
        "Classes",
        "Topics",
        "Items",
        "Runs (files / baselines / simulated)",
    ]
    rows = [
        [
            escape(row["dataset"]),
            escape(row["venue"]),
            row["type"],
            escape(row["language"]),
            str(row["classes"]),
            str(row["topics"]),
            str(row["items"]) if row["items"] != "" else "--",
            f"{row['runs']} ({row['runs_from_files']} / {row['baseline_runs']} / {row['simulated_runs']})",
        ]
        for row in table.records()
    ]
    return tabular(header, rows, "lllllrrl")
