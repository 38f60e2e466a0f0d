"""The leaderboard stage's tables: per data set and measure, every run's mean with its interval, rank and
significance groups (CSV, LaTeX, Markdown, the results page with the official SemEval protocol's boards where the
data set has pooled scores, and every measure side by side for print). (The official protocol's own tables:
:func:`ordeval.reports.leaderboard_text.write_pooled_leaderboards`; the figure:
:mod:`ordeval.reports.figures.dataset`.)"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.analysis.leaderboard import Leaderboards, build_leaderboards, pipeline_pooled_leaderboards
from ordeval.analysis.significance import read_pvalue_table
from ordeval.io.provenance import origin_sentence, read_provenance
from ordeval.reports.latex import write_latex
from ordeval.reports.leaderboard_page import write_leaderboard_page
from ordeval.reports.leaderboard_text import compact_latex, leaderboard_labels, pooled_items, write_leaderboards
from ordeval.tasks.stack import read_stack


def write_leaderboard_tables(
    stack: str | Path,
    pvalues: str | Path,
    arrays: str | Path,
    provenance: str | Path,
    pooled: str | Path | None,
    outputs: Mapping[str, str | Path],
    *,
    dataset: str,
    measures: Sequence[str],
    alpha: float,
    level: float,
    trials: int,
) -> Leaderboards:
    """The leaderboard of every one of ``measures`` on data set ``dataset`` (its score stack at ``stack``):
    each run's mean with its ``level`` t interval, its rank and its significance groups at ``alpha`` from the
    randomised Tukey HSD p-values of every scored measure (``pvalues``, or their binary copy ``arrays``; ``trials``
    permutations): :func:`~ordeval.analysis.leaderboard.build_leaderboards`. ``pooled``: the data set's official
    protocol scores (pooled.tsv) or None; the results page shows those boards too. ``outputs``: ``csv``,
    ``tex``, ``md``, ``html`` (the results page, sortable, each run's per-topic scores on demand), ``compact``
    (every measure side by side, a row per run, for print)."""
    scored = read_stack(stack)
    directions = dict(zip(scored.measures, scored.lower_is_better, strict=True))
    significance = read_pvalue_table(pvalues, directions, trials, arrays)
    scores = scored.subset(measures)
    record = read_provenance(provenance)
    origins = {dataset: record["origin"]}
    boards = build_leaderboards(
        scores,
        significance,
        dataset=dataset,
        alpha=alpha,
        level=level,
        test=f"randomised Tukey HSD, B = {trials}",
        origins=origins,
    )
    write_leaderboards(boards, outputs["csv"], outputs["tex"], outputs["md"])
    write_latex(compact_latex(boards.tables(), leaderboard_labels(boards)), outputs["compact"], origins)
    page = [table.with_column("protocol", ["per-topic"] * len(table)) for table in boards.tables()]
    if pooled is not None:
        official = pipeline_pooled_leaderboards(
            scores, pooled, dataset=dataset, items=pooled_items(record), alpha=alpha, level=level, origins=origins
        )
        page += [table.with_column("protocol", ["pooled"] * len(table)) for table in official.tables()]
    write_leaderboard_page(
        outputs["html"],
        f"{dataset}: leaderboard",
        page,
        boards.display,
        scores,
        "per-topic",
        origin_sentence(origins),
        level,
        boards.setting,
    )
    return boards
