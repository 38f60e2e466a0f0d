"""The system ranking consistency stage's tables (Sakai, CIKM 2021; docs/methods.md 4.2): per data set and
condition, the taus of random topic splits, the measures compared on them and the effect sizes; over a task's
data sets, each measure's mean tau. (The distributions of the taus: :mod:`ordeval.reports.figures.dataset`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.consistency import ConditionConsistency, condition_consistency, mean_summary, read_summary
from ordeval.io.provenance import origins_of
from ordeval.io.table import Table
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import measure_labels
from ordeval.reports.latex.consistency import (
    comparison_latex,
    consistency_note,
    effect_size_latex,
    mean_summary_latex,
    symbols,
)
from ordeval.tasks.stack import read_measure_tables, read_stack


def write_consistency(
    stack: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    dataset: str,
    measures: Sequence[str],
    conditions: Sequence[str],
    trials: int,
    subset_size: int,
    hsd_trials: int,
    alpha: float,
    seed: int,
    variant: str = "b",
    threads: int | None = None,
) -> list[ConditionConsistency]:
    """System ranking consistency of ``measures`` on data set ``dataset`` (its score stack at
    ``stack``), each condition of ``conditions`` computed by
    :func:`~ordeval.analysis.consistency.condition_consistency` (``trials`` splits, its own random streams from
    ``seed``). ``outputs``, per condition c: ``taus_<c>`` (the trials x measures taus, TSV), ``summary_<c>``,
    ``summary_html_<c>``, ``summary_tex_<c>`` (mean tau per measure, sorted, and whom each significantly
    outperforms; each measure's symbol in the configured order of ``measures``), ``pairs_<c>``,
    ``pairs_html_<c>``, ``pairs_tex_<c>`` (the differences, effect sizes and p-values of every pair). Both
    fragments' note: the splits, those with every tau defined, and VE2."""
    scores = read_stack(stack, measures)
    origins = origins_of([provenance])
    labels, symbol_of = measure_labels(scores), symbols(measures)
    results = []
    for condition in conditions:
        result = condition_consistency(
            scores.values,
            scores.measures,
            condition,
            trials=trials,
            subset_size=subset_size,
            variant=variant,
            hsd_trials=hsd_trials,
            alpha=alpha,
            seed=seed,
            dataset=dataset,
            threads=threads,
        )
        result.taus_table().write(outputs[f"taus_{condition}"])
        comparison = result.comparison
        summary, pairs = comparison.summary_table(), comparison.pair_table()
        note = consistency_note(trials, comparison.trials, comparison.ve2)
        write_table_files(
            summary,
            comparison_latex(summary, symbol_of, labels, note),
            origins,
            *(outputs[f"{kind}_{condition}"] for kind in ("summary", "summary_html", "summary_tex")),
        )
        write_table_files(
            pairs,
            effect_size_latex(pairs, list(summary["measure"]), labels, note),
            origins,
            *(outputs[f"{kind}_{condition}"] for kind in ("pairs", "pairs_html", "pairs_tex")),
        )
        results.append(result)
    return results


def write_mean_consistency(
    summaries: Mapping[str, Mapping[str, str | Path]],
    measure_tables: Sequence[str | Path],
    provenance: Sequence[str | Path],
    outputs: Mapping[str, str | Path],
) -> dict[str, Table]:
    """Per condition of ``summaries`` ({condition: {data set: its consistency summary CSV}}), each measure's mean
    tau per data set and over them, sorted by that mean (:func:`~ordeval.analysis.consistency.mean_summary`).
    ``outputs``, per condition c: ``mean_<c>``, ``mean_html_<c>``, ``mean_tex_<c>`` (the highest of each column
    in bold)."""
    origins = origins_of(provenance)
    labels = measure_labels(read_measure_tables(measure_tables))
    tables = {}
    for condition, files in summaries.items():
        table = mean_summary({name: read_summary(path) for name, path in files.items()})
        write_table_files(
            table,
            mean_summary_latex(table, labels),
            origins,
            *(outputs[f"{kind}_{condition}"] for kind in ("mean", "mean_html", "mean_tex")),
        )
        tables[condition] = table
    return tables
