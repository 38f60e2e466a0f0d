"""Leaderboards: every run's mean score under a measure, its interval, rank and significance group.

For one data set and measure M (topics x runs scores x_tr, n topics):

* mean_r = (1/n) sum_t x_tr, with the t interval mean_r -/+ t_{(1+level)/2, n-1} s_r / sqrt(n),
  s_r the standard deviation over topics;
* rank: 1 for the best mean under M's direction; equal means share the lower rank;
* groups: a compact letter display of the randomised Tukey HSD p-values (the ones of
  ``significance/<dataset>/pvalues.tsv``): two runs share a letter if and only if their difference is
  not significant (p >= alpha). With the randomised Tukey HSD, p(r, s) depends on |mean_r - mean_s|
  only (every pair is compared with the same null distribution of the range), so "not significantly
  different" links runs whose means lie within one critical distance: with the runs sorted by mean,
  every maximal run of mutually non-significant neighbours gets a letter, and the letters describe the
  p-values exactly (tests/test_leaderboard.py checks it pair by pair).
"""

from __future__ import annotations

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


def t_quantile(probability: float, degrees: int) -> float:
    """The quantile of Student's t distribution (scipy.special.stdtrit)."""
    from scipy.special import stdtrit  # ~0.3 s to import: only the leaderboard job pays for it

    return float(stdtrit(degrees, probability))


def letter(index: int) -> str:
    """a, b, ..., z, A, ..., Z, then aa, ab, ... for very long boards."""
    alphabet = string.ascii_lowercase + string.ascii_uppercase
    if index < len(alphabet):
        return alphabet[index]
    return letter(index // len(alphabet) - 1) + alphabet[index % len(alphabet)]


def compact_letters(significant: np.ndarray) -> list[str]:
    """Letters for runs already sorted by mean, from the boolean runs x runs matrix of significant
    differences: each maximal block i..j of consecutive runs in which no pair differs significantly
    gets a letter (blocks contained in an earlier block add none)."""
    count = significant.shape[0]
    letters = [""] * count
    reach = -1
    used = 0
    for start in range(count):
        end = start
        while end + 1 < count and not significant[start : end + 2, end + 1].any():
            end += 1
        if end > reach:
            for run in range(start, end + 1):
                letters[run] += letter(used)
            used += 1
            reach = end
    return letters


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
    means = scores.mean(axis=0)
    spread = scores.std(axis=0, ddof=1) if topics > 1 else np.zeros(len(runs))
    half = t_quantile((1 + level) / 2, topics - 1) * spread / np.sqrt(topics) if topics > 1 else np.zeros(len(runs))
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
