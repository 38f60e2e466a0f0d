"""The Popularity vs Uniform stage's tables (Sakai, CIKM 2021 LQ workshop; docs/methods.md 4.6): per data set,
the quadrant counts and Pearson r of pairs of measures' deltas; over the data sets with both runs, the topics on
which each measure prefers either baseline and the per-topic deltas. (The scatter plots and the example topics:
:mod:`ordeval.reports.figures.popularity`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.popularity import (
    Panel,
    compared_origins,
    compute_deltas,
    deltas_table,
    panels_table,
    preference_table,
    scatter_panels,
    total_origins,
)
from ordeval.io.table import Table, write_csv
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import escape, measure_label, measure_labels, write_latex
from ordeval.reports.latex.popularity import left_out_note, panels_latex, preference_latex
from ordeval.reports.table_page import write_table_page
from ordeval.tasks.stack import read_stack


def write_scatter_table(
    stack: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    dataset: str,
    measures: Sequence[str],
    runs: Sequence[str],
    tolerance: float,
    level: float,
) -> list[Panel]:
    """On data set ``dataset`` (its score stack at ``stack``), for each pair of measures compared (NMD against
    every other, RNOD against the nominal ones: :func:`~ordeval.analysis.popularity.scatter_panels`), the topics
    in the 2nd and 4th quadrants of their oriented deltas Delta_M = M(runs[0]) - M(runs[1]) (ties within
    ``tolerance``) and Pearson r with its ``level`` interval. ``outputs``: ``csv``, ``html``, ``tex``."""
    scores = read_stack(stack, measures)
    panels = scatter_panels(compute_deltas(scores, *runs), tolerance, level)
    origins = compared_origins({dataset: provenance}, [dataset], runs)
    fragment = panels_latex(panels, measure_labels(scores), level)
    write_table_files(panels_table(dataset, panels), fragment, origins, outputs["csv"], outputs["html"], outputs["tex"])
    return panels


def write_preferences(
    stacks: Mapping[str, str | Path],
    provenance: Mapping[str, str | Path],
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    runs: Sequence[str],
    tolerance: float,
    skipped: Mapping[str, str],
) -> Table:
    """On each data set of ``stacks`` ({data set: its stack.npz}: those with both ``runs``), the topics on which
    each of ``measures`` prefers runs[1] (Uniform), runs[0] (Popularity) or neither (|Delta| <= ``tolerance``),
    with TOTAL rows (:func:`~ordeval.analysis.popularity.preference_table`), and every topic's deltas.
    ``provenance``: {data set: its provenance.json} of every configured data set (the data origin of an empty
    table); ``skipped``: {data set: why it is left out}, said in the table's note. ``outputs``: ``csv``,
    ``html``, ``tex``; ``deltas``, ``deltas_html``."""
    deltas, labels = {}, {measure: measure_label(measure) for measure in measures}
    for name, path in stacks.items():
        scores = read_stack(path, measures)
        labels.update(measure_labels(scores))
        deltas[name] = compute_deltas(scores, *runs)
    origins = compared_origins(provenance, list(deltas), runs)
    listed = "; ".join(f"{name}: {reason}" for name, reason in skipped.items())
    empty = f"No data set has both {runs[0]} and {runs[1]}." + (f" Left out: {listed}." if listed else "")
    table = preference_table(deltas, measures, tolerance, origins)
    write_csv(table, outputs["csv"], total_origins(table, origins))
    write_table_page(outputs["csv"], outputs["html"])
    note = escape(left_out_note(skipped)) if len(table) else ""
    write_latex(preference_latex(table, measures, labels, empty, note), outputs["tex"], origins)
    write_csv(deltas_table(deltas), outputs["deltas"], origins)
    write_table_page(outputs["deltas"], outputs["deltas_html"])
    return table
