"""System ranking agreement between evaluation measures (docs/methods.md, section 4.1).

For one data set, every measure ranks the runs by their mean score over topics, best first under its
own direction; two measures agree as much as Kendall's tau between their rankings (tau-b by default;
tau-a, which keeps tied pairs in the denominator n(n-1)/2, reproduces the papers' NTCIR tables),
reported with a confidence interval (``ci_method``, :data:`ordeval.stats.intervals.CI_METHODS`): by default Fisher z
with the Fieller et al. variance, tanh(atanh(tau) -/+ z_{(1+level)/2} sqrt(0.437/(n-4))), n the number of
runs; the papers' tables apply it to tau rounded to 3 decimals; Long and Cliff's (1997) interval uses the
consistent variance of tau estimated from the rankings. Over several data sets the taus are averaged (no
interval). A measure's "average similarity with other measures" is the mean of the taus between it and
every other measure.

Pair tables are long: one row per pair (measure_a, measure_b) of the upper triangle, in the order of
the measure list, with columns ``tau, ci_low, ci_high``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ordeval.io.table import Table
from ordeval.stats.intervals import tau_interval
from ordeval.stats.kendall import kendall_tau

PAIR_COLUMNS = ["measure_a", "measure_b", "tau", "ci_low", "ci_high"]


@dataclass(frozen=True)
class Agreement:
    """Kendall's tau between the run rankings of every pair of ``measures`` on one data set."""

    measures: list[str]
    taus: np.ndarray  # measures x measures, symmetric, 1 on the diagonal
    ci_low: np.ndarray  # measures x measures
    ci_high: np.ndarray
    runs: int
    variant: str = "b"

    def pair_table(self) -> Table:
        """The upper triangle as rows ``measure_a, measure_b, tau, ci_low, ci_high``."""
        first, second = np.triu_indices(len(self.measures), k=1)
        return Table(
            {
                "measure_a": [self.measures[i] for i in first],
                "measure_b": [self.measures[j] for j in second],
                "tau": self.taus[first, second],
                "ci_low": self.ci_low[first, second],
                "ci_high": self.ci_high[first, second],
            }
        )


def ranking_agreement(
    means: np.ndarray,
    measures: Sequence[str],
    lower_is_better: Sequence[bool],
    level: float = 0.95,
    variant: str = "b",
    ci_method: str = "fisher_z",
) -> Agreement:
    """Agreement of the rankings that the rows of ``means`` (measures x runs) induce.

    tau_ab = tau(r_a, r_b) where r_m ranks the runs by mean score under m, best first: a measure for
    which higher is better has its means negated, so that every ranking points the same way;
    CI_ab by ``ci_method`` (:func:`ordeval.stats.intervals.tau_interval`), e.g. ``fisher_z``:
    tanh(atanh(tau_ab) -/+ z_{(1+level)/2} sqrt(0.437 / (n - 4))), n = number of runs.
    """
    means = np.asarray(means, dtype=float)
    if means.ndim != 2 or means.shape[0] != len(measures) or len(lower_is_better) != len(measures):
        raise ValueError(f"expected {len(measures)} measures x runs means and one direction each, got {means.shape}")
    direction = np.where(np.asarray(lower_is_better, dtype=bool), 1.0, -1.0)
    oriented = means * direction[:, None]
    taus = kendall_tau(oriented[:, None, :], oriented[None, :, :], variant=variant)
    interval = tau_interval(ci_method, taus, oriented, level, variant)
    return Agreement(list(measures), taus, np.asarray(interval.low), np.asarray(interval.high), means.shape[1], variant)


def mean_pair_table(tables: Sequence[Table]) -> Table:
    """Pairs with tau averaged over data sets (every table must list the same pairs); CIs empty."""
    keys = [list(zip(table["measure_a"], table["measure_b"], strict=True)) for table in tables]
    if any(key != keys[0] for key in keys[1:]):
        raise ValueError("the agreement tables to average list different measure pairs")
    count = len(keys[0])
    return Table(
        {
            "measure_a": list(tables[0]["measure_a"]),
            "measure_b": list(tables[0]["measure_b"]),
            "tau": np.mean([table.column("tau", float) for table in tables], axis=0),
            "ci_low": np.full(count, np.nan),
            "ci_high": np.full(count, np.nan),
        }
    )


def tau_matrix(pairs: Table, measures: Sequence[str]) -> np.ndarray:
    """Symmetric measures x measures matrix of the taus in ``pairs`` (1 on the diagonal)."""
    index = {name: i for i, name in enumerate(measures)}
    matrix = np.eye(len(measures))
    matrix[~np.eye(len(measures), dtype=bool)] = np.nan
    for a, b, tau in zip(pairs["measure_a"], pairs["measure_b"], pairs.column("tau", float), strict=True):
        matrix[index[a], index[b]] = matrix[index[b], index[a]] = tau
    return matrix


def average_similarity(pairs: Table, measures: Sequence[str]) -> np.ndarray:
    """Per measure m, the mean of tau(m, m') over the other measures m' (docs/methods.md 4.1)."""
    matrix = tau_matrix(pairs, measures)
    off_diagonal = np.where(np.eye(len(measures), dtype=bool), np.nan, matrix)
    return np.nanmean(off_diagonal, axis=1)


def similarity_table(per_dataset: Mapping[str, Table], measures: Sequence[str]) -> Table:
    """Average similarity of every measure: one column per data set, then ``mean`` (of those columns)."""
    table = Table({"measure": list(measures)})
    columns = []
    for dataset, pairs in per_dataset.items():
        table[dataset] = average_similarity(pairs, measures)
        columns.append(table[dataset])
    table["mean"] = np.mean(columns, axis=0)
    return table


def combination_measures(measure: str) -> list[str]:
    """The three measures of a DNKT_M table: DNKT, M and their harmonic mean DNKT_M."""
    return ["DNKT", measure, f"DNKT_{measure}"]


def combination_table(agreements: Mapping[str, Agreement]) -> Table:
    """Long table of the DNKT_M pairs (DNKT vs M, DNKT vs DNKT_M, M vs DNKT_M) per data set, then
    their taus averaged over the data sets under ``dataset = "mean"`` (CIs empty)."""
    tables = {dataset: agreement.pair_table() for dataset, agreement in agreements.items()}
    rows = [table.with_column("dataset", [dataset] * len(table)) for dataset, table in tables.items()]
    mean = mean_pair_table(list(tables.values()))
    rows.append(mean.with_column("dataset", ["mean"] * len(mean)))
    stacked = Table.concat(rows)
    return Table({name: stacked[name] for name in ["dataset", *PAIR_COLUMNS]})
