"""The data stage's table: one row per data set (the ACL 2021 paper's Table 1, for every configured data set)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.io.provenance import read_provenance
from ordeval.io.table import Table
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex.datasets import datasets_latex, datasets_table


def write_datasets_table(provenance: Sequence[str | Path], outputs: Mapping[str, str | Path]) -> Table:
    """Each data set's task, venue, language, classes, topics, items and runs (from files, baselines,
    simulated), from its ``provenance`` record (:func:`~ordeval.reports.latex.datasets.datasets_table`), in the
    order given. ``outputs``: ``csv``, ``html``, ``tex``."""
    records = [read_provenance(path) for path in provenance]
    by_name = {record["dataset"]: record for record in records}
    origins = {name: record["origin"] for name, record in by_name.items()}
    table = datasets_table(by_name)
    write_table_files(table, datasets_latex(table), origins, outputs["csv"], outputs["html"], outputs["tex"])
    return table
