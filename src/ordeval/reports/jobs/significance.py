"""The significance stage's tables (docs/methods.md 4.3-4.5): per data set, the significance overlap of every
pair of measures; over a task's data sets, discriminative power and the contradictions between measures. (The
p-values: :func:`ordeval.analysis.significance.write_significance`; the curves:
:mod:`ordeval.reports.figures.significance`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.identical_runs import read_identical_sets
from ordeval.analysis.significance import (
    SignificanceSummary,
    overlap_table,
    read_significance,
    summarise_significance,
)
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import measure_labels
from ordeval.reports.latex.significance import (
    contradiction_counts_latex,
    contradictions_latex,
    discriminative_power_latex,
    sso_latex,
)
from ordeval.tasks.stack import read_measure_table, read_measure_tables


def write_overlap(
    pvalues: str | Path,
    arrays: str | Path,
    measure_table: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    alpha: float,
    trials: int,
) -> Table:
    """The significance overlap SSO = b / (a + b + c) of every pair of ``measures`` on one data set, from its
    p-values (``pvalues``, or their binary copy ``arrays`` while it mirrors them; ``trials`` permutations) at
    ``alpha`` (:func:`~ordeval.analysis.significance.overlap_table`). ``outputs``: ``csv``, ``html``, ``tex`` (the
    upper triangle, 'SSO% (a/b/c)')."""
    significance = read_significance(pvalues, measure_table, measures, trials, arrays)
    overlap = overlap_table(significance, alpha)
    fragment = sso_latex(overlap, measures, measure_labels(read_measure_table(measure_table)))
    write_table_files(overlap, fragment, origins_of([provenance]), outputs["csv"], outputs["html"], outputs["tex"])
    return overlap


def write_significance_summary(
    pvalues: Mapping[str, str | Path],
    arrays: Mapping[str, str | Path],
    measure_tables: Mapping[str, str | Path],
    identical_runs: Mapping[str, str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    alpha: float,
    trials: int,
) -> SignificanceSummary:
    """Discriminative power and the contradictions between ``measures`` over the data sets of ``pvalues`` ({data
    set: its p-values}, with their binary copies ``arrays``, their ``measure_tables`` and ``identical_runs``), read
    one data set at a time (:func:`~ordeval.analysis.significance.summarise_significance`, at ``alpha``).
    ``outputs``: ``power_csv``, ``power_html``, ``power_tex`` (S of T per data set and POOLED); ``counts_csv``,
    ``counts_html``, ``counts_tex`` (contradicting pairs per pair of measures); ``contradictions_csv``,
    ``contradictions_html``, ``contradictions_tex`` (every one); ``collapsed_csv``, ``collapsed_html``,
    ``collapsed_tex`` (identical runs in one row)."""
    significances = (
        (name, read_significance(path, measure_tables[name], measures, trials, arrays[name]))
        for name, path in pvalues.items()
    )
    identical = {name: read_identical_sets(path) for name, path in identical_runs.items()}
    summary = summarise_significance(significances, identical, alpha, measures)
    origins = origins_of(provenance)
    labels = measure_labels(read_measure_tables(list(measure_tables.values())))
    for table, fragment, kind in (
        (summary.power, discriminative_power_latex(summary.power, labels), "power"),
        (summary.counts, contradiction_counts_latex(summary.counts, labels), "counts"),
        (summary.contradictions, contradictions_latex(summary.contradictions, labels), "contradictions"),
        (summary.collapsed, contradictions_latex(summary.collapsed, labels), "collapsed"),
    ):
        write_table_files(table, fragment, origins, *(outputs[f"{kind}_{ext}"] for ext in ("csv", "html", "tex")))
    return summary
