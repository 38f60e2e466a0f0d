"""The replication stage's tables (:mod:`ordeval.results.replication`; docs/methods.md, section 7): per data set,
every published number beside the reproduced one with its verdict; the numbers pooled over data sets; the counts
per verdict of every published table, and the page a replicator reads first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.io.provenance import origins_of
from ordeval.io.table import Table
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex.replication import replication_latex, summary_latex
from ordeval.reports.replication_page import measure_names, write_replication_page
from ordeval.results.replication import (
    Reproduced,
    dataset_verdicts,
    pooled_origin,
    summary,
    summary_origins,
)
from ordeval.results.replication import pooled as pooled_verdicts

Files = Mapping[str, str | Path]


def write_replication(
    provenance: str | Path,
    outputs: Files,
    *,
    dataset: str,
    tolerance: Mapping[str, float],
    classes: int,
    agreement: str | Path,
    consistency: Files,
    means: str | Path,
    power: str | Path | None = None,
    pooled: str | Path | None = None,
    popularity: str | Path | None = None,
) -> Table:
    """Every number the replicated papers print for data set ``dataset`` beside the one reproduced here, from its
    tables (``agreement``; ``consistency``: {condition: summary}; ``means``; the task's ``power``; its official
    protocol's ``pooled`` scores and the ``popularity`` table, where made; ``classes``: its number of classes),
    with the difference, the verdict and the ``tolerance`` applied (:func:`~ordeval.results.replication.
    dataset_verdicts`). ``outputs``: ``csv``, ``html``, ``tex``."""
    origins = origins_of([provenance])
    reproduced = Reproduced.read(
        dataset,
        origins[dataset],
        agreement=agreement,
        consistency=consistency,
        power=power,
        pooled=pooled,
        means=means,
        classes=classes,
        popularity=popularity,
    )
    table, row_origins = dataset_verdicts(reproduced, tolerance)
    write_table_files(
        table, replication_latex(table), origins, outputs["csv"], outputs["html"], outputs["tex"], row_origins
    )
    return table


def write_pooled_replication(
    power: Sequence[str | Path], provenance: Sequence[str | Path], outputs: Files, *, tolerance: Mapping[str, float]
) -> Table:
    """The published numbers pooled over data sets beside the POOLED rows of the discriminative power table (of
    ``power``, one per task) that pools the same data sets (:func:`~ordeval.results.replication.pooled`), each row
    with the data origin of the pooled data sets. ``outputs``: ``pooled_csv``, ``pooled_html``, ``pooled_tex``.
    The table, with its ``data_origin`` column (what :func:`write_replication_summary` counts)."""
    origins = origins_of(provenance)
    table = pooled_verdicts(power, origins, tolerance)
    row_origins = [pooled_origin(origins)] * len(table)
    files = (outputs["pooled_csv"], outputs["pooled_html"], outputs["pooled_tex"])
    write_table_files(table, replication_latex(table), origins, *files, row_origins)
    return table.with_column("data_origin", row_origins)


def write_replication_summary(
    tables: Sequence[str | Path], pooled_table: Table, provenance: Sequence[str | Path], outputs: Files, *, name: str
) -> Table:
    """The counts per verdict of every published table (:func:`~ordeval.results.replication.summary`) of the data
    sets' ``tables`` (their replication CSVs) and ``pooled_table`` (:func:`write_pooled_replication`'s), each row's
    data origin that of the numbers it counts, and the page a replicator reads first (the counts, then every
    number; titled with the configuration's ``name``). ``outputs``: ``csv``, ``html``, ``tex``, ``page``."""
    origins = origins_of(provenance)
    found = [Table.read(path, sep=",", numeric=("reproduced", "difference", "tolerance")) for path in tables]
    counts = summary([*found, pooled_table])
    row_origins = summary_origins([*found, pooled_table])
    write_table_files(
        counts, summary_latex(counts), origins, outputs["csv"], outputs["html"], outputs["tex"], row_origins
    )
    by_dataset = {table["dataset"][0]: table for table in found if len(table)}
    if len(pooled_table):
        by_dataset["pooled"] = pooled_table
    write_replication_page(
        outputs["page"],
        f"{name}: published versus reproduced",
        counts.with_column("data_origin", row_origins),
        by_dataset,
        measure_names(),
        {**origins, "pooled": pooled_table["data_origin"][0] if len(pooled_table) else ""},
    )
    return counts
