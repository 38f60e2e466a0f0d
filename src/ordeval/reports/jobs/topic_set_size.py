"""The topic set size stage's table (Sakai, "Topic Set Size Design", Information Retrieval Journal 19(3), 2016):
per data set and measure, the topics a test collection needs. (The figure: :mod:`ordeval.reports.figures.dataset`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.io.provenance import origins_of
from ordeval.io.table import Table
from ordeval.reports.jobs.tables import write_table_files
from ordeval.reports.latex import measure_labels
from ordeval.reports.latex.topic_set_size import topic_set_size_latex, topic_set_size_note
from ordeval.stats.topic_set_size import topic_set_size_table
from ordeval.tasks.stack import read_stack


def write_topic_set_size(
    stack: str | Path,
    provenance: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    measures: Sequence[str],
    alpha: float,
    power: float,
    fractions: Sequence[float],
) -> Table:
    """The topics one data set (its score stack at ``stack``) would need for each of ``measures``, by a paired
    t-test and a one-way ANOVA (``alpha``, ``power``) and for a CI's width, to detect minimum differences of
    ``fractions`` of each measure's score range, from the residual variance of the two-way ANOVA
    (:func:`~ordeval.stats.topic_set_size.topic_set_size_table`). ``outputs``: ``csv``, ``html``, ``tex`` (its
    note: the alpha and power the table holds, and the fractions)."""
    scores = read_stack(stack, measures)
    matrices = {m: scores.matrix(m) for m in scores.measures}
    table = topic_set_size_table(matrices, alpha=alpha, power=power, fractions=fractions)
    fragment = topic_set_size_latex(table, measure_labels(scores), note=topic_set_size_note(table, fractions))
    write_table_files(table, fragment, origins_of([provenance]), outputs["csv"], outputs["html"], outputs["tex"])
    return table
