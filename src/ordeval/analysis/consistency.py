"""System ranking consistency: robustness of a measure's ranking to the choice of topics (docs/methods.md 4.2).

The taus of every measure over random topic splits come from :mod:`ordeval.stats.splits`. The measures are
then compared on the trials x measures tau matrix by the randomised Tukey HSD test (trials play the role
of topics, measures of systems; a higher mean tau is better), with VE2, the residual variance of the
two-way ANOVA without replication, and effect sizes (mean_a - mean_b) / sqrt(VE2).

This module computes; :mod:`ordeval.reports.latex.consistency` and :mod:`ordeval.reports.figures.consistency` present.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ordeval.io.table import Table, read_csv
from ordeval.stats.intervals import residual_variance
from ordeval.stats.seeding import stream
from ordeval.stats.splits import Splits, condition_splits, split_taus

PAIR_COLUMNS = ["measure_a", "measure_b", "difference", "effect_size", "p_value", "significant"]


@dataclass(frozen=True)
class MeasureComparison:
    """Measures compared on a trials x measures tau matrix, sorted by mean tau (highest first)."""

    measures: list[str]
    mean_tau: np.ndarray  # per measure
    p_values: np.ndarray  # measures x measures, randomised Tukey HSD
    ve2: float
    trials: int  # trials used: those where every measure's tau is defined
    alpha: float

    @property
    def significant(self) -> np.ndarray:
        """[a, b]: measure a has a significantly higher mean tau than measure b (p < alpha)."""
        return (self.p_values < self.alpha) & (self.mean_tau[:, None] > self.mean_tau[None, :])

    def effect_sizes(self) -> np.ndarray:
        """[a, b] = (mean_a - mean_b) / sqrt(VE2); NaN when VE2 is 0."""
        difference = self.mean_tau[:, None] - self.mean_tau[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            return difference / np.sqrt(self.ve2) if self.ve2 > 0 else np.full_like(difference, np.nan)

    def outperforms(self) -> list[list[str]]:
        """For each measure, the measures it significantly outperforms (in the sorted order)."""
        return [[self.measures[j] for j in np.flatnonzero(row)] for row in self.significant]

    def summary_table(self) -> Table:
        """``measure, mean_tau, outperforms`` (space-separated names), ``ve2``, ``trials``."""
        count = len(self.measures)
        return Table(
            {
                "measure": self.measures,
                "mean_tau": self.mean_tau,
                "outperforms": [" ".join(names) for names in self.outperforms()],
                "ve2": np.full(count, self.ve2),
                "trials": np.full(count, self.trials, dtype=np.int64),
            }
        )

    def pair_table(self) -> Table:
        """Every pair (a ranked above b): ``difference, effect_size, p_value, significant``."""
        first, second = np.triu_indices(len(self.measures), k=1)
        return Table(
            {
                "measure_a": [self.measures[i] for i in first],
                "measure_b": [self.measures[j] for j in second],
                "difference": self.mean_tau[first] - self.mean_tau[second],
                "effect_size": self.effect_sizes()[first, second],
                "p_value": self.p_values[first, second],
                "significant": self.significant[first, second],
            }
        )


def compare_measures(
    taus: np.ndarray,
    measures: Sequence[str],
    hsd_trials: int,
    alpha: float,
    rng: np.random.Generator,
    threads: int | None = None,
) -> MeasureComparison:
    """Mean tau per measure, randomised Tukey HSD p-values and VE2 on the trials x measures ``taus``.

    Trials where some tau is undefined (NaN: a ranking that is all ties) are left out of all three.
    mean_m = (1/B') sum_b tau_bm; VE2 = sum_bm (tau_bm - tau_b. - tau_.m + tau_..)^2 / ((B'-1)(M-1)).
    """
    from ordeval.stats.hsd import randomised_tukey_hsd  # numba: only the consistency job pays for it

    taus = np.asarray(taus, dtype=float)
    if taus.ndim != 2 or taus.shape[1] != len(measures):
        raise ValueError(f"expected trials x {len(measures)} taus, got shape {taus.shape}")
    complete = taus[~np.isnan(taus).any(axis=1)]
    if complete.shape[0] < 2:
        raise ValueError(f"fewer than 2 of {taus.shape[0]} trials have a defined tau for every measure")
    hsd = randomised_tukey_hsd(complete, hsd_trials, rng, threads=threads)
    order = np.argsort(-hsd.means, kind="stable")
    return MeasureComparison(
        measures=[measures[i] for i in order],
        mean_tau=hsd.means[order],
        p_values=hsd.p_values[np.ix_(order, order)],
        ve2=residual_variance(complete),
        trials=complete.shape[0],
        alpha=alpha,
    )


@dataclass(frozen=True)
class ConditionConsistency:
    """One consistency condition on one data set: its random topic splits, the trials x measures taus (in the
    order of ``measures``) and the measures compared on them."""

    condition: str
    measures: list[str]
    splits: Splits
    taus: np.ndarray
    comparison: MeasureComparison

    def taus_table(self) -> Table:
        """The taus, a column per measure (:func:`taus_table`)."""
        return taus_table(self.taus, self.measures)


def condition_consistency(
    values: np.ndarray,
    measures: Sequence[str],
    condition: str,
    *,
    trials: int,
    subset_size: int,
    variant: str,
    hsd_trials: int,
    alpha: float,
    seed: int,
    dataset: str,
    threads: int | None = None,
) -> ConditionConsistency:
    """System ranking consistency of ``measures`` (``values``: their measures x topics x runs scores) on data set
    ``dataset`` under ``condition`` (Sakai, CIKM 2021; docs/methods.md 4.2):

    1. ``trials`` random splits of the topics into two disjoint sets (``half``: floor(n/2) and ceil(n/2) topics;
       ``10v10``: two subsets of ``subset_size``; :func:`~ordeval.stats.splits.condition_splits`), drawn from the
       data set's stream for the condition, ``stream(seed, dataset, "consistency-<condition>")``;
    2. tau_bm, Kendall's tau-``variant`` between the run rankings by mean score on the two sets of split b, for
       every measure m (:func:`~ordeval.stats.splits.split_taus`);
    3. the measures compared on the taus (:func:`compare_measures`: mean tau, the randomised Tukey HSD with
       ``hsd_trials`` permutations from ``stream(seed, dataset, "consistency-<condition>-hsd")``, VE2).

    Each condition has its own two streams: the same seed gives the same numbers whatever else the job computes,
    in whatever order."""
    rng = stream(seed, dataset, f"consistency-{condition}")
    splits = condition_splits(condition, values.shape[1], trials, subset_size, rng)
    taus = split_taus(values, splits, variant=variant)
    rng = stream(seed, dataset, f"consistency-{condition}-hsd")
    comparison = compare_measures(taus, measures, hsd_trials, alpha, rng, threads)
    return ConditionConsistency(condition, list(measures), splits, taus, comparison)


def beaten_worst(summary: Table) -> list[int]:
    """Per measure (summary order, best first), k = the number of the worst measures it significantly
    outperforms: the largest k such that it beats each of the k lowest-ranked measures (the marks of the ACL 2021
    paper's Table 3)."""
    order = list(summary["measure"])
    result = []
    for row in summary.records():
        beaten = set(row["outperforms"].split())
        k = 0
        for other in reversed(order):
            if other not in beaten:
                break
            k += 1
        result.append(k)
    return result


def split_heading(condition: str, topics: int, subset_size: int) -> str:
    """The sizes of a condition's two topic sets: '50 vs. 50' for halves of 100 topics (floor(n/2) vs.
    ceil(n/2)); '10 vs. 10' for two subsets of ``subset_size``."""
    if condition == "half":
        return f"{topics // 2} vs. {topics - topics // 2}"
    return f"{subset_size} vs. {subset_size}"


def taus_table(taus: np.ndarray, measures: Sequence[str]) -> Table:
    """The trials x measures tau matrix, one column per measure."""
    taus = np.asarray(taus, dtype=float)
    return Table({measure: taus[:, i] for i, measure in enumerate(measures)})


def read_taus(path) -> tuple[list[str], np.ndarray]:
    """(measures, trials x measures taus) from a TSV written from :func:`taus_table`."""
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
    table = Table.read(path, numeric=header)
    return header, np.column_stack([table[name] for name in header]) if header else np.zeros((0, 0))


def read_summary(path) -> Table:
    """A summary table written by the consistency job (without its ``data_origin`` column)."""
    return read_csv(path, numeric=["mean_tau", "ve2"], integer=["trials"])


def read_pairs(path) -> Table:
    table = read_csv(path, numeric=["difference", "effect_size", "p_value"])
    table["significant"] = [value == "True" for value in table["significant"]]
    return table


def mean_summary(summaries: Mapping[str, Table]) -> Table:
    """Mean tau per measure: one column per data set, then ``mean`` over them; sorted by ``mean``."""
    measures = list(next(iter(summaries.values()))["measure"])
    columns = {}
    for dataset, table in summaries.items():
        by_measure = dict(zip(table["measure"], table.column("mean_tau", float), strict=True))
        if set(by_measure) != set(measures):
            raise ValueError(f"the consistency summary of {dataset} lists other measures than {measures}")
        columns[dataset] = np.array([by_measure[m] for m in measures])
    mean = np.mean(list(columns.values()), axis=0)
    order = np.argsort(-mean, kind="stable")
    table = Table({"measure": [measures[i] for i in order]})
    for dataset, values in columns.items():
        table[dataset] = values[order]
    table["mean"] = mean[order]
    return table
