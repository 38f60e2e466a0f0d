"""Leaderboards: every run's mean score under a measure, its interval, rank and significance group.

For one data set and measure M (topics x runs scores x_tr, n topics):

* mean_r = (1/n) sum_t x_tr, with the t interval mean_r -/+ t_{(1+level)/2, n-1} s_r / sqrt(n),
  s_r the standard deviation over topics (undefined, NaN, for a single topic: no interval); a mean that
  is not a finite number (scores too large to sum in double precision) is an error, never ranked;
* rank: 1 for the best mean under M's direction; equal means share the lower rank;
* groups: a compact letter display of the randomised Tukey HSD p-values (the ones of
  ``significance/<dataset>/pvalues.tsv``): two runs share a group if and only if their difference is
  not significant (p >= alpha). With the randomised Tukey HSD, p(r, s) depends on |mean_r - mean_s|
  only (every pair is compared with the same null distribution of the range), so "not significantly
  different" links runs whose means lie within one critical distance: with the runs sorted by mean,
  every maximal run of mutually non-significant neighbours is a group, and the groups describe the
  p-values exactly (checked; for any other significance matrix, Piepho's insert-absorb algorithm).

How to read a group cell: groups are labelled, down the board, ``a`` ... ``z``, ``A`` ... ``Z``, then
the same 52 letters numbered ``a1`` ... ``Z1``, ``a2`` ... ``Z2`` and so on; a run's cell lists the
labels of its groups back to back. A label is one letter with an optional number, so a cell reads one
way only: ``bc`` is groups b and c, ``Z1a2`` is groups Z1 and a2 (:func:`parse_groups`). Up to 52
groups this is the usual compact letter display (Piepho 2004).

The leaderboards of one data set under one protocol (:class:`Leaderboards`, :func:`build_leaderboards`) are
what ``ordeval score``, ``ordeval leaderboard``, the Python API and the pipeline's leaderboard stage publish:

* ``per-topic``: each run's mean over the topics with a t interval; groups from the randomised Tukey HSD
  over topics (:func:`ordeval.analysis.significance.pairwise_significance`);
* ``pooled``: each measure once per run on one confusion matrix over all items (the official SemEval
  protocol of the classification tasks, :mod:`ordeval.analysis.pooled`); no interval; groups from the
  paired randomisation test of each run pair (not adjusted for multiple comparisons);
* without p-values (one run, one topic, or no test asked for): ranks only, and the note says why.

The group letters: :mod:`ordeval.analysis.groups`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ordeval.analysis.groups import compact_letters
from ordeval.io.table import Table

COLUMNS = ["measure", "rank", "run", "mean", "ci_low", "ci_high", "group", "lower_is_better"]


@dataclass(frozen=True)
class Leaderboard:
    """One measure's leaderboard on one data set, best run first."""

    measure: str
    lower_is_better: bool
    runs: list[str]
    means: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    ranks: np.ndarray
    groups: list[str]
    topics: int
    level: float
    alpha: float

    def table(self) -> Table:
        count = len(self.runs)
        return Table(
            {
                "measure": [self.measure] * count,
                "rank": self.ranks,
                "run": self.runs,
                "mean": self.means,
                "ci_low": self.ci_low,
                "ci_high": self.ci_high,
                "group": self.groups,
                "lower_is_better": [self.lower_is_better] * count,
            }
        )


def lower_is_better(value) -> bool:
    """A leaderboard row's ``lower_is_better`` as a bool: the value itself, or its text in a table read back."""
    return value in (True, "True", "true")


def t_quantile(probability: float, degrees: int) -> float:
    """The quantile of Student's t distribution (scipy.special.stdtrit)."""
    from scipy.special import stdtrit  # ~0.3 s to import: only the leaderboard job pays for it

    return float(stdtrit(degrees, probability))


class UndefinedMean(ValueError):
    """A run's mean score that is not a finite number: no leaderboard can rank it."""

    def __init__(self, measure: str, run: str, value: float, topics: int, finite_scores: bool):
        self.measure, self.run = measure, run
        why = (
            "its scores are too large to sum in double precision"
            if finite_scores
            else "its scores include NaN or infinite values"
        )
        super().__init__(
            f"measure {measure!r}: the mean of run {run!r} over {topics} topic{'s' if topics != 1 else ''} is "
            f"{value} ({why}); a leaderboard ranks finite means only"
        )


def check_means(scores: np.ndarray, runs: list[str], measure: str) -> np.ndarray:
    """The means over topics of ``scores`` (topics x runs); an :class:`UndefinedMean` for the first run whose
    mean is not finite."""
    from ordeval.stats import MAX_SCORE

    scores = np.asarray(scores, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        means = scores.mean(axis=0)
    bad = np.flatnonzero(~np.isfinite(means))
    if bad.size:
        run = int(bad[0])
        raise UndefinedMean(
            measure, runs[run], float(means[run]), scores.shape[0], bool(np.isfinite(scores[:, run]).all())
        )
    large = np.flatnonzero((np.abs(scores) > MAX_SCORE).any(axis=0))
    if large.size:  # the interval squares the scores
        raise ValueError(
            f"measure {measure!r}: run {runs[int(large[0])]!r} has a score beyond {MAX_SCORE:g} in magnitude; "
            "an interval squares the scores (they would overflow)"
        )
    return means


def leaderboard(
    scores: np.ndarray,
    runs: list[str],
    measure: str,
    lower_is_better: bool,
    p_values: np.ndarray,
    alpha: float = 0.05,
    level: float = 0.95,
) -> Leaderboard:
    """The leaderboard of ``scores`` (topics x runs) under one measure; ``p_values`` is the runs x runs
    matrix of the randomised Tukey HSD (symmetric, 1 on the diagonal)."""
    scores = np.asarray(scores, dtype=float)
    topics = scores.shape[0]
    means = check_means(scores, runs, measure)
    if topics > 1:
        half = t_quantile((1 + level) / 2, topics - 1) * scores.std(axis=0, ddof=1) / np.sqrt(topics)
    else:  # a single topic: no spread to estimate, the interval is undefined (not zero-width)
        half = np.full(len(runs), np.nan)
    oriented = means if lower_is_better else -means
    order = np.argsort(oriented, kind="stable")
    sorted_oriented = oriented[order]
    ranks = np.searchsorted(sorted_oriented, sorted_oriented, side="left") + 1
    significant = np.asarray(p_values)[np.ix_(order, order)] < alpha
    return Leaderboard(
        measure=measure,
        lower_is_better=lower_is_better,
        runs=[runs[i] for i in order],
        means=means[order],
        ci_low=(means - half)[order],
        ci_high=(means + half)[order],
        ranks=ranks.astype(np.int64),
        groups=compact_letters(significant),
        topics=topics,
        level=level,
        alpha=alpha,
    )


def read_leaderboards(table: Table) -> list[Table]:
    """The per-measure parts of a leaderboard CSV, in file order."""
    measures = list(dict.fromkeys(table["measure"]))
    return [table.select([value == measure for value in table["measure"]]) for measure in measures]


PROTOCOLS = ("per-topic", "pooled")


def check_finite_means(stack) -> None:
    """An :class:`~ordeval.analysis.leaderboard.UndefinedMean` for the first measure and run of ``stack`` whose
    mean is not a finite number (before any significance test is run on them)."""
    for measure in stack.measures:
        check_means(stack.matrix(measure), list(stack.runs), measure)


def no_test_reason(stack) -> str:
    """Why a stack has no significance groups ("" when the randomised Tukey HSD applies)."""
    if len(stack.runs) < 2:
        return f"a single run ({stack.runs[0]}): groups compare runs"
    if len(stack.topics) < 2:
        return "a single topic: the randomised Tukey HSD permutes scores within topics"
    return ""


@dataclass(frozen=True)
class Leaderboards:
    """Every measure's leaderboard of one data set under one protocol."""

    dataset: str
    protocol: str
    boards: list[Leaderboard]
    display: dict[str, str]  #: measure -> display name
    markup: dict[str, str]  #: measure -> its registry's LaTeX markup ("" for none: its display name, escaped)
    level: float
    setting: str  #: what the leaderboards show: protocol, intervals, test (see :func:`setting_note`)
    origins: dict[str, str] = field(default_factory=dict)  #: {data set: origin} where known

    @property
    def note(self) -> str:
        """The setting, and the data origin where known."""
        from ordeval.io.provenance import origin_sentence

        return f"{self.setting} {origin_sentence(self.origins)}" if self.origins else self.setting

    def tables(self) -> list[Table]:
        return [board.table() for board in self.boards]

    def table(self) -> Table:
        """measure, rank, run, mean, ci_low, ci_high, group, lower_is_better (one block per measure)."""
        return Table.concat(self.tables())

    @property
    def value_header(self) -> str:
        """The score column's heading: each run's mean over the topics, or its one pooled score."""
        return "Score" if self.protocol == "pooled" else "Mean"

    def records(self) -> dict:
        """A JSON-ready dictionary: dataset, protocol, note, level and per measure its rows."""

        def number(value) -> float | None:
            value = float(value)
            return value if np.isfinite(value) else None

        measures = []
        for board in self.boards:
            rows = []
            for index, run in enumerate(board.runs):
                rows.append(
                    {
                        "rank": int(board.ranks[index]),
                        "run": run,
                        "mean": number(board.means[index]),
                        "ci_low": number(board.ci_low[index]),
                        "ci_high": number(board.ci_high[index]),
                        "group": board.groups[index],
                    }
                )
            measures.append(
                {
                    "measure": board.measure,
                    "display": self.display[board.measure],
                    "lower_is_better": bool(board.lower_is_better),
                    "rows": rows,
                }
            )
        return {
            "dataset": self.dataset,
            "protocol": self.protocol,
            "note": self.note,
            "origins": dict(self.origins),
            "level": self.level,
            "measures": measures,
        }


def build_leaderboards(
    stack,
    significance=None,
    *,
    dataset: str,
    protocol: str = "per-topic",
    pooled: np.ndarray | None = None,
    items: int | None = None,
    alpha: float = 0.05,
    level: float = 0.95,
    test: str = "",
    no_test_reason: str = "",
    origins: Mapping[str, str] | None = None,
) -> Leaderboards:
    """The leaderboards of every measure of ``stack`` (a :class:`~ordeval.tasks.stack.ScoreStack`).

    ``significance``: anything with ``matrix(measure)`` giving the runs x runs p-values (a
    :class:`~ordeval.analysis.significance.PairwiseSignificance`), or None for no significance groups
    (``no_test_reason`` says why, e.g. "a single run"). ``test`` names the test in the note (e.g.
    "randomised Tukey HSD, B = 5000, seed = 0"; "paired randomisation test of each run pair, B = 5000,
    seed = 0" for the pooled protocol). ``protocol="pooled"``: ``pooled`` holds the pooled
    scores, measures x runs (``items``: how many items they pool). ``origins``: ``{data set: origin}``
    (:func:`ordeval.io.provenance.read_origins`), said in the note and the CSV's ``data_origin`` column."""
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {', '.join(PROTOCOLS)}, not {protocol!r}")
    if protocol == "pooled" and pooled is None:
        raise ValueError("the pooled protocol needs the pooled scores (measures x runs)")
    runs = list(stack.runs)
    boards = []
    for index, measure in enumerate(stack.measures):
        p_values = significance.matrix(measure) if significance is not None else np.ones((len(runs), len(runs)))
        scores = stack.matrix(measure) if protocol == "per-topic" else np.asarray(pooled)[index][None, :]
        board = leaderboard(scores, runs, measure, stack.direction_of(measure), p_values, alpha, level)
        if protocol == "pooled":
            no_interval = np.full(len(runs), np.nan)
            board = replace(board, ci_low=no_interval, ci_high=no_interval)
        if significance is None:
            board = replace(board, groups=[""] * len(runs))
        boards.append(board)
    note = setting_note(
        dataset, protocol, len(stack.topics), items, level, alpha, test if significance else "", no_test_reason
    )
    display = dict(zip(stack.measures, stack.display, strict=True))
    markup = dict(zip(stack.measures, stack.latex, strict=True))
    return Leaderboards(dataset, protocol, boards, display, markup, level, note, dict(origins or {}))


def setting_note(
    dataset: str,
    protocol: str,
    topics: int,
    items: int | None,
    level: float,
    alpha: float,
    test: str,
    no_test_reason: str = "",
) -> str:
    """One sentence: the protocol, what the mean and interval are, and the significance groups' test."""
    if protocol == "pooled":
        over = f"all {items} items" if items else "all items"
        shown = f"pooled protocol: each measure on one confusion matrix over {over} (no interval), rank"
        groups = (
            f"significance groups (runs sharing a letter do not differ significantly: {test}, not adjusted for "
            f"multiple comparisons, alpha = {alpha:g})"
        )
    elif topics < 2:
        shown = f"per-topic protocol: mean over {topics} topic (no interval: a t interval needs 2 topics or more), rank"
    else:
        shown = f"per-topic protocol: mean over {topics} topics with {level:.0%} t intervals, rank"
        groups = f"significance groups (runs sharing a letter do not differ significantly: {test}, alpha = {alpha:g})"
    if not test:
        groups = f"no significance groups ({no_test_reason or 'no test'})"
    return f"{dataset}, {shown}, and {groups}."


#: Why the pipeline's pooled leaderboards have no significance groups.
POOLED_WITHOUT_TEST = (
    "the pipeline ranks the pooled scores only; 'ordeval score --protocol pooled' adds the paired "
    "randomisation test of each run pair"
)


def pipeline_pooled_leaderboards(
    stack, pooled_path, *, dataset: str, items: int | None, alpha: float, level: float, origins: Mapping[str, str]
) -> Leaderboards:
    """The pipeline's leaderboards of a data set under the official SemEval protocol, from its ``pooled.tsv``:
    ranks without significance groups (:data:`POOLED_WITHOUT_TEST`)."""
    scores = read_pooled(Table.read(pooled_path), stack.measures, stack.runs)
    return build_leaderboards(
        stack,
        None,
        dataset=dataset,
        protocol="pooled",
        pooled=scores,
        items=items,
        alpha=alpha,
        level=level,
        no_test_reason=POOLED_WITHOUT_TEST,
        origins=origins,
    )


def read_pooled(table: Table, measures: Sequence[str], runs: Sequence[str]) -> np.ndarray:
    """measures x runs from a ``pooled.tsv`` table (rows in any order)."""
    rows: Mapping[str, int] = {str(run): index for index, run in enumerate(table["run"])}
    missing = [run for run in runs if run not in rows]
    if missing:
        raise KeyError(f"pooled scores lack run(s) {', '.join(missing)}")
    order = [rows[run] for run in runs]
    return np.stack([np.asarray(table[measure], dtype=float)[order] for measure in measures])
