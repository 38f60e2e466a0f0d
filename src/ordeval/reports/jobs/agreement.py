"""The ranking agreement stage's tables (docs/methods.md 4.1): per data set, the taus between the measures' run
rankings with their CIs; over a task's data sets, their mean and each measure's average similarity; the DNKT_M
tables. (The heatmap: :func:`ordeval.reports.figures.agreement.write_heatmap`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.agreement import (
    Agreement,
    combination_measures,
    combination_table,
    mean_pair_table,
    ranking_agreement,
    similarity_table,
)
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table, read_csv
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import measure_labels
from ordeval.reports.latex.agreement import combination_latex, similarity_latex, tau_matrix_latex
from ordeval.tasks.stack import read_measure_tables, read_stack


def runs_note(runs: int) -> str:
    """A tau table's note: how many runs the rankings order (LaTeX)."""
    return f"Rankings of {runs} runs by their mean score."


def write_dataset_agreement(
    stack: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    level: float = 0.95,
    variant: str = "b",
    method: str = "fisher_z",
) -> Agreement:
    """Kendall's tau-``variant`` between the run rankings (by mean score) of every pair of ``measures`` of the
    score stack at ``stack``, with ``level``
    intervals by ``method`` (:func:`~ordeval.analysis.agreement.ranking_agreement`). ``outputs``: ``csv`` (one
    row per pair, unrounded), ``html`` (its page), ``tex`` (the upper triangle, each CI under its tau; its note:
    the number of runs ranked)."""
    scores = read_stack(stack, measures)
    agreement = ranking_agreement(scores.means(), scores.measures, scores.lower_is_better, level, variant, method)
    pairs = agreement.pair_table()
    fragment = tau_matrix_latex(pairs, scores.measures, measure_labels(scores), note=runs_note(agreement.runs))
    write_table_files(pairs, fragment, origins_of([provenance]), outputs["csv"], outputs["html"], outputs["tex"])
    return agreement


def _pairs(tables: Mapping[str, str | Path]) -> dict[str, Table]:
    return {name: read_csv(path, numeric=["tau", "ci_low", "ci_high"]) for name, path in tables.items()}


def write_mean_agreement(
    pairs: Mapping[str, str | Path],
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
) -> Table:
    """The taus of ``pairs`` ({data set: its agreement CSV}) averaged over the data sets
    (:func:`~ordeval.analysis.agreement.mean_pair_table`; no CIs). ``outputs``: ``mean_csv``, ``mean_html``,
    ``mean_tex`` (the upper triangle over ``measures``)."""
    mean = mean_pair_table(list(_pairs(pairs).values()))
    fragment = tau_matrix_latex(mean, measures, measure_labels(read_measure_tables(measure_tables)))
    write_table_files(
        mean, fragment, origins_of(provenance), outputs["mean_csv"], outputs["mean_html"], outputs["mean_tex"]
    )
    return mean


def write_similarity(
    pairs: Mapping[str, str | Path],
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
) -> Table:
    """Each measure's average similarity with the other ``measures`` (the mean of the taus involving it) per data
    set of ``pairs`` ({data set: its agreement CSV}) and averaged (:func:`~ordeval.analysis.agreement.
    similarity_table`). ``outputs``: ``similarity_csv``, ``similarity_html``, ``similarity_tex`` (the highest mean
    in bold)."""
    similarity = similarity_table(_pairs(pairs), measures)
    fragment = similarity_latex(similarity, measure_labels(read_measure_tables(measure_tables)))
    files = (outputs["similarity_csv"], outputs["similarity_html"], outputs["similarity_tex"])
    write_table_files(similarity, fragment, origins_of(provenance), *files)
    return similarity


def write_dnkt(
    stacks: Mapping[str, str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measure: str,
    level: float = 0.95,
    variant: str = "b",
    method: str = "fisher_z",
) -> Table:
    """Kendall's tau (with CIs, as :func:`write_dataset_agreement`) between the run rankings of DNKT, ``measure``
    and their harmonic mean DNKT_``measure`` on each data set of ``stacks`` ({data set: its stack.npz}), and
    averaged over them (:func:`~ordeval.analysis.agreement.combination_table`). ``outputs``: ``csv``, ``html``,
    ``tex`` (a row per data set, then the mean)."""
    measures = combination_measures(measure)
    agreements, labels = {}, {}
    for name, path in stacks.items():
        scores = read_stack(path, measures)
        agreements[name] = ranking_agreement(scores.means(), measures, scores.lower_is_better, level, variant, method)
        labels.update(measure_labels(scores))
    table = combination_table(agreements)
    write_table_files(
        table, combination_latex(table, labels), origins_of(provenance), outputs["csv"], outputs["html"], outputs["tex"]
    )
    return table
