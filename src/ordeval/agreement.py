"""System ranking agreement between evaluation measures (SPEC section 4.1).

For one data set, every measure ranks the runs by their mean score over topics; two measures agree
as much as Kendall's tau-b between their rankings, reported with the Long and Cliff (1997) interval
tanh(atanh(tau) -/+ z sqrt(0.437 / (n - 4))), n the number of runs. Over several data sets the taus
are averaged (no interval). A measure's "average similarity with other measures" is the mean of the
taus between it and every other measure of the table.

Pair tables (:func:`pair_table`) are long: one row per pair (measure_a, measure_b) of the upper
triangle, in the order of the measure list, with columns ``tau, ci_low, ci_high``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .measures import get_measure
from .outputs import escape, measure_name, number, tabular, upper_triangle_tabular
from .stats import kendall_tau_b, tau_confidence_interval

PAIR_COLUMNS = ["measure_a", "measure_b", "tau", "ci_low", "ci_high"]


@dataclass(frozen=True)
class Agreement:
    """Kendall's tau between the run rankings of every pair of ``measures`` on one data set."""

    measures: list[str]
    taus: np.ndarray  # measures x measures, symmetric, 1 on the diagonal
    ci_low: np.ndarray  # measures x measures
    ci_high: np.ndarray
    runs: int

    def pair_table(self) -> pd.DataFrame:
        """The upper triangle as rows ``measure_a, measure_b, tau, ci_low, ci_high``."""
        first, second = np.triu_indices(len(self.measures), k=1)
        return pd.DataFrame(
            {
                "measure_a": [self.measures[i] for i in first],
                "measure_b": [self.measures[j] for j in second],
                "tau": self.taus[first, second],
                "ci_low": self.ci_low[first, second],
                "ci_high": self.ci_high[first, second],
            },
            columns=PAIR_COLUMNS,
        )


def ranking_agreement(means: np.ndarray, measures: Sequence[str], level: float = 0.95) -> Agreement:
    """Agreement of the rankings that the rows of ``means`` (measures x runs) induce.

    tau_ab = tau_b(r_a, r_b) where r_m ranks the runs by mean score under m, best first (a measure
    for which higher is better has its means negated, so that every ranking points the same way);
    CI_ab = tanh(atanh(tau_ab) -/+ z_{(1+level)/2} sqrt(0.437 / (n - 4))), n = number of runs.
    """
    means = np.asarray(means, dtype=float)
    if means.ndim != 2 or means.shape[0] != len(measures):
        raise ValueError(f"expected {len(measures)} measures x runs means, got shape {means.shape}")
    direction = np.array([1.0 if get_measure(name).lower_is_better else -1.0 for name in measures])
    oriented = means * direction[:, None]
    taus = kendall_tau_b(oriented[:, None, :], oriented[None, :, :])
    interval = tau_confidence_interval(taus, means.shape[1], level)
    return Agreement(list(measures), taus, np.asarray(interval.low), np.asarray(interval.high), means.shape[1])


def read_pair_table(path) -> pd.DataFrame:
    """A pair table written by the agreement rules (the ``data_origin`` column dropped)."""
    frame = pd.read_csv(path, keep_default_na=True)
    return frame.drop(columns=["data_origin"], errors="ignore")


def mean_pair_table(tables: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """Pairs with tau averaged over data sets (every table must list the same pairs); CIs empty."""
    keys = [list(zip(table["measure_a"], table["measure_b"], strict=True)) for table in tables]
    if any(key != keys[0] for key in keys[1:]):
        raise ValueError("the agreement tables to average list different measure pairs")
    mean = tables[0][["measure_a", "measure_b"]].copy()
    mean["tau"] = np.mean([table["tau"].to_numpy(dtype=float) for table in tables], axis=0)
    mean["ci_low"] = np.nan
    mean["ci_high"] = np.nan
    return mean


def tau_matrix(pairs: pd.DataFrame, measures: Sequence[str]) -> np.ndarray:
    """Symmetric measures x measures matrix of the taus in ``pairs`` (1 on the diagonal)."""
    index = {name: i for i, name in enumerate(measures)}
    matrix = np.eye(len(measures))
    matrix[~np.eye(len(measures), dtype=bool)] = np.nan
    for a, b, tau in zip(pairs["measure_a"], pairs["measure_b"], pairs["tau"], strict=True):
        matrix[index[a], index[b]] = matrix[index[b], index[a]] = tau
    return matrix


def average_similarity(pairs: pd.DataFrame, measures: Sequence[str]) -> pd.Series:
    """Per measure m, the mean of tau(m, m') over the other measures m' (SPEC 4.1)."""
    matrix = tau_matrix(pairs, measures)
    off_diagonal = np.where(np.eye(len(measures), dtype=bool), np.nan, matrix)
    return pd.Series(np.nanmean(off_diagonal, axis=1), index=list(measures), name="similarity")


def tau_with_ci(tau: float, low: float, high: float, separator: str = " ") -> str:
    """``0.848 [0.659, 0.936]`` (3 decimals); the tau alone where the interval is missing."""
    if pd.isna(low) or pd.isna(high):
        return number(tau)
    return f"{number(tau)}{separator}[{number(low)}, {number(high)}]"


def tau_matrix_latex(pairs: pd.DataFrame, measures: Sequence[str]) -> str:
    """Upper triangle of the tau matrix; under each tau its CI (when the table has CIs), 3 decimals."""
    index = {name: i for i, name in enumerate(measures)}
    cells = [[""] * len(measures) for _ in measures]
    for row in pairs.itertuples(index=False):
        ci = "" if pd.isna(row.ci_low) else "\n" + rf"{{\scriptsize [{number(row.ci_low)}, {number(row.ci_high)}]}}"
        cells[index[row.measure_a]][index[row.measure_b]] = number(row.tau) + ci
    names = [get_measure(name).display for name in measures]
    return upper_triangle_tabular(names, cells)


def similarity_table(per_dataset: Mapping[str, pd.DataFrame], measures: Sequence[str]) -> pd.DataFrame:
    """Average similarity of every measure: one column per data set, then ``mean`` (of those columns)."""
    frame = pd.DataFrame({"measure": list(measures)})
    for dataset, pairs in per_dataset.items():
        frame[dataset] = average_similarity(pairs, measures).to_numpy()
    frame["mean"] = frame[list(per_dataset)].mean(axis=1)
    return frame


def similarity_latex(table: pd.DataFrame) -> str:
    """Measures as rows, data sets and their mean as columns, 3 decimals; the highest mean in bold."""
    columns = [column for column in table.columns if column != "measure"]
    best = table["mean"].max()
    rows = []
    for _, row in table.iterrows():
        cells = [number(row[column]) for column in columns]
        if row["mean"] == best:
            cells[-1] = rf"\textbf{{{cells[-1]}}}"
        rows.append([measure_name(row["measure"]), *cells])
    header = ["Measure"] + [escape(column) for column in columns[:-1]] + ["Mean"]
    return tabular(header, rows, "l" + "r" * len(columns))


def combination_measures(measure: str) -> list[str]:
    """The three measures of a DNKT_M table: DNKT, M and their harmonic mean DNKT_M."""
    return ["DNKT", measure, f"DNKT_{measure}"]


def combination_table(agreements: Mapping[str, Agreement]) -> pd.DataFrame:
    """Long table of the DNKT_M pairs (DNKT vs M, DNKT vs DNKT_M, M vs DNKT_M) per data set, then
    their taus averaged over the data sets under ``dataset = "mean"`` (CIs empty).

    ``agreements`` maps each data set to the :func:`ranking_agreement` of ``combination_measures(M)``.
    """
    tables = {dataset: agreement.pair_table() for dataset, agreement in agreements.items()}
    rows = [table.assign(dataset=dataset) for dataset, table in tables.items()]
    rows.append(mean_pair_table(list(tables.values())).assign(dataset="mean"))
    frame = pd.concat(rows, ignore_index=True)
    return frame[["dataset", *PAIR_COLUMNS]]


def combination_latex(table: pd.DataFrame) -> str:
    """One row per data set (then Mean), one column per pair: tau [CI], 3 decimals."""
    pairs = list(dict.fromkeys(zip(table["measure_a"], table["measure_b"], strict=True)))
    header = ["Data set"] + [f"{measure_name(a)} vs {measure_name(b)}" for a, b in pairs]
    rows = []
    for dataset, group in table.groupby("dataset", sort=False):
        by_pair = {(row.measure_a, row.measure_b): row for row in group.itertuples(index=False)}
        cells = [tau_with_ci(by_pair[pair].tau, by_pair[pair].ci_low, by_pair[pair].ci_high) for pair in pairs]
        rows.append(["Mean" if dataset == "mean" else escape(dataset), *cells])
    return tabular(header, rows, "l" + "c" * len(pairs), rules_after=[len(rows) - 2])


def tau_heatmap(pairs: pd.DataFrame, measures: Sequence[str], title: str = ""):
    """A matplotlib figure of the symmetric tau matrix, each cell annotated with its tau (2 decimals)."""
    import matplotlib.pyplot as plt

    matrix = tau_matrix(pairs, measures)
    names = [get_measure(name).display for name in measures]
    size = 1.0 + 0.55 * len(measures)
    figure, axes = plt.subplots(figsize=(size + 1.2, size))
    lowest = min(0.0, float(np.nanmin(matrix)))
    image = axes.imshow(matrix, cmap="viridis", vmin=lowest, vmax=1.0)
    axes.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    axes.set_yticks(range(len(names)), names, fontsize=8)
    threshold = lowest + 0.6 * (1.0 - lowest)
    for (i, j), value in np.ndenumerate(matrix):
        if not np.isnan(value):
            colour = "black" if value > threshold else "white"
            axes.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=6.5, color=colour)
    figure.colorbar(image, ax=axes, label="Kendall's tau", shrink=0.8)
    if title:
        axes.set_title(title, fontsize=9)
    figure.tight_layout()
    return figure
