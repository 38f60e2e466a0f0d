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
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

import numpy as np

from ..table import Table

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


ALPHABET = string.ascii_lowercase + string.ascii_uppercase
_LABEL = re.compile(r"[A-Za-z][0-9]*")

#: How to read a group cell, for the tables' notes and the results page.
GROUPS_KEY = (
    "Runs sharing a group label do not differ significantly. Labels run a-z, A-Z, then a1-Z1, a2-Z2, ...; "
    "a cell lists a run's labels back to back (bc: groups b and c; Z1a2: groups Z1 and a2)."
)


def letter(index: int) -> str:
    """The label of group ``index`` (from 0): ``a`` ... ``z``, ``A`` ... ``Z``, then the same 52 letters
    numbered: ``a1`` ... ``Z1``, ``a2`` ... ``Z2``, ... A label is one letter and an optional number, so
    labels written back to back read unambiguously at any number of groups."""
    cycle, position = divmod(index, len(ALPHABET))
    return ALPHABET[position] + (str(cycle) if cycle else "")


def format_groups(indices) -> str:
    """A run's group cell: the labels of its groups (:func:`letter`), in order, back to back."""
    return "".join(letter(int(index)) for index in indices)


def parse_groups(cell: str) -> list[str]:
    """The group labels of a group cell (``"bc"`` -> ``["b", "c"]``, ``"Z1a2"`` -> ``["Z1", "a2"]``,
    ``""`` -> ``[]``); raises ``ValueError`` for a cell that is not labels back to back."""
    text = str(cell).strip()
    labels = _LABEL.findall(text)
    if "".join(labels) != text:
        raise ValueError(f"group cell {cell!r}: expected group labels back to back (a letter, optionally a number)")
    return labels


def group_label_index(label: str) -> int:
    """The inverse of :func:`letter`: ``"a"`` -> 0, ``"Z"`` -> 51, ``"a1"`` -> 52."""
    return ALPHABET.index(label[0]) + len(ALPHABET) * int(label[1:] or 0)


def _blocks(significant: np.ndarray) -> list[tuple[int, int]]:
    """The maximal blocks ``start..end`` of consecutive runs in which no pair differs significantly, in
    order (a block contained in an earlier block is none)."""
    count = significant.shape[0]
    blocks: list[tuple[int, int]] = []
    reach = -1
    end = 0
    for start in range(count):
        end = max(end, start)
        while end + 1 < count and not significant[start : end + 2, end + 1].any():
            end += 1
        if end > reach:
            blocks.append((start, end))
            reach = end
    return blocks


def _blocks_describe(significant: np.ndarray, blocks: list[tuple[int, int]]) -> bool:
    """Whether every pair that does not differ significantly lies in one of ``blocks`` (pairs in one
    block never differ: :func:`_blocks` makes them so). True whenever "not significantly different"
    links runs whose means lie within a critical distance, as with the randomised Tukey HSD."""
    count = significant.shape[0]
    reach = np.arange(count)
    for start, end in blocks:
        reach[start : end + 1] = np.maximum(reach[start : end + 1], end)
    later = np.arange(count)[None, :] > np.arange(count)[:, None]
    covered = later & (np.arange(count)[None, :] <= reach[:, None])
    return bool(np.array_equal(covered, later & ~significant))


def _insert_absorb(significant: np.ndarray) -> np.ndarray:
    """Groups (runs x groups membership) of any symmetric significance matrix: the insert-absorb
    algorithm of Piepho (2004, J. Comput. Graph. Stat. 13(2)). Start with one group of all runs; for
    each significant pair, split every group holding both into one without the first and one without
    the second; drop any group contained in another."""
    count = significant.shape[0]
    groups = np.ones((1, count), dtype=bool)
    for first, second in zip(*np.nonzero(np.triu(significant, 1)), strict=True):
        both = groups[:, first] & groups[:, second]
        if not both.any():
            continue
        split = groups[both]
        without_first, without_second = split.copy(), split.copy()
        without_first[:, first] = False
        without_second[:, second] = False
        kept = groups[~both]  # still maximal: each was not inside the split groups, so not inside a part
        parts = np.vstack([without_first, without_second])
        # a part is dropped when another group contains it (of equal parts, the first is kept)
        inside_kept = ~(parts[:, None, :] & ~kept[None, :, :]).any(axis=2)
        inside_part = ~(parts[:, None, :] & ~parts[None, :, :]).any(axis=2)
        np.fill_diagonal(inside_part, False)
        equal = inside_part & inside_part.T
        dropped = inside_kept.any(axis=1) | (inside_part & ~equal).any(axis=1) | np.triu(equal, 1).any(axis=0)
        groups = np.vstack([kept, parts[~dropped]])
    # letters in board order: by first member, then by last member
    members = np.arange(count)
    first = np.where(groups, members, count).min(axis=1)
    last = np.where(groups, members, -1).max(axis=1)
    return groups[np.lexsort((last, first))].T


def group_membership(significant: np.ndarray) -> np.ndarray:
    """Runs x groups booleans for runs already sorted by mean, from the boolean runs x runs matrix of
    significant differences: two runs share a group if and only if they do not differ significantly
    (the compact letter display). Maximal blocks of consecutive runs where they describe the matrix
    exactly (always with the randomised Tukey HSD: O(runs^2)), else :func:`_insert_absorb`."""
    significant = np.asarray(significant, dtype=bool)
    count = significant.shape[0]
    blocks = _blocks(significant)
    if _blocks_describe(significant, blocks):
        membership = np.zeros((count, len(blocks)), dtype=bool)
        for index, (start, end) in enumerate(blocks):
            membership[start : end + 1, index] = True
        return membership
    return _insert_absorb(significant)


def compact_letters(significant: np.ndarray) -> list[str]:
    """Every run's group cell (:func:`format_groups`) for runs already sorted by mean, from the boolean
    runs x runs matrix of significant differences (see :func:`group_membership`)."""
    membership = group_membership(significant)
    return [format_groups(np.flatnonzero(row)) for row in membership]


class UndefinedMean(ValueError):
    """A run's mean score that is not a finite number: no leaderboard can rank it."""

    def __init__(self, measure: str, run: str, value: float, topics: int, finite_scores: bool):
        self.measure, self.run = measure, run
        why = ("its scores are too large to sum in double precision" if finite_scores
               else "its scores include NaN or infinite values")  # fmt: skip
        super().__init__(
            f"measure {measure!r}: the mean of run {run!r} over {topics} topic{'s' if topics != 1 else ''} is "
            f"{value} ({why}); a leaderboard ranks finite means only"
        )


def check_means(scores: np.ndarray, runs: list[str], measure: str) -> np.ndarray:
    """The means over topics of ``scores`` (topics x runs); an :class:`UndefinedMean` for the first run whose
    mean is not finite."""
    scores = np.asarray(scores, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        means = scores.mean(axis=0)
    bad = np.flatnonzero(~np.isfinite(means))
    if bad.size:
        run = int(bad[0])
        raise UndefinedMean(measure, runs[run], float(means[run]), scores.shape[0],
                            bool(np.isfinite(scores[:, run]).all()))  # fmt: skip
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
