"""Discriminative power, significance overlap and contradictions between measures (SPEC 4.3-4.5).

All functions work on the p-values of every run pair of one data set, as computed by the randomised
Tukey HSD test of :mod:`ordeval.stats` (one call per data set, so that all measures share the
permutations). Pairs are the unordered run pairs (i, j), i < j in run order, in the row-major order of
``numpy.triu_indices``; a data set with m runs has T = m(m-1)/2 of them.

* discriminative power: S = #{pairs with p < alpha}, DP = S / T (pooled over data sets: sum S / sum T);
* significance overlap of two measures: a = pairs significant only with the first, b = with both,
  c = only with the second, SSO = b / (a + b + c) (undefined, NaN, when a + b + c = 0);
* contradiction: a pair significant with both measures whose better run differs between them.

Runs whose score matrices are identical under every measure (the -C/-E copies of the NTCIR baselines)
stay separate runs, as in the official evaluations; :func:`identical_run_groups` and
:func:`brace_name` give the grouped view (``BL-popularity-{C,E}``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os.path import commonprefix

import numpy as np
import pandas as pd

from .errors import InputError
from .measures import get_measure
from .outputs import bold, escape, measure_name, number, tabular, underline
from .scoring import ScoreStack
from .stats import randomised_tukey_hsd

#: Columns of the p-value table of one data set (``significance/<dataset>/pvalues.tsv``).
PVALUE_COLUMNS = ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]

#: Two runs whose scores differ by at most this (relative) on every topic and measure are identical.
IDENTICAL_TOLERANCE = 1e-12

#: LaTeX emphasis thresholds in percent: (bold at or above, underlined below).
DP_EMPHASIS = (50.0, 40.0)
SSO_EMPHASIS = (90.0, 70.0)


# --------------------------------------------------------------------------- p-values of run pairs


@dataclass(frozen=True)
class PairwiseSignificance:
    """p-values of every run pair under several measures on one data set."""

    measures: list[str]
    runs: list[str]
    means: np.ndarray  # measures x runs: mean score over topics
    p_values: np.ndarray  # measures x pairs (see pair_indices)

    @property
    def pair_indices(self) -> tuple[np.ndarray, np.ndarray]:
        """(first, second) run indices of the pairs, first < second, row-major."""
        return np.triu_indices(len(self.runs), k=1)

    @property
    def pair_count(self) -> int:
        """T = m(m-1)/2."""
        return len(self.runs) * (len(self.runs) - 1) // 2

    def significant(self, alpha: float) -> np.ndarray:
        """Boolean measures x pairs: p < alpha."""
        return self.p_values < alpha

    def winners(self, lower_is_better: Sequence[bool] | None = None) -> np.ndarray:
        """measures x pairs: +1 where the pair's first run has the better mean, -1 the second, 0 a tie.

        Better means lower unless ``lower_is_better`` (one flag per measure; default from the
        measure registry) says otherwise.
        """
        if lower_is_better is None:
            lower_is_better = [get_measure(name).lower_is_better for name in self.measures]
        first, second = self.pair_indices
        orientation = np.where(np.asarray(lower_is_better, dtype=bool), 1.0, -1.0)[:, None]
        return np.sign(self.means[:, second] - self.means[:, first]) * orientation

    def subset(self, measures: Sequence[str]) -> PairwiseSignificance:
        missing = [name for name in measures if name not in self.measures]
        if missing:
            raise KeyError(f"no p-values for measure(s) {', '.join(missing)}; have {', '.join(self.measures)}")
        rows = [self.measures.index(name) for name in measures]
        return PairwiseSignificance(list(measures), self.runs, self.means[rows], self.p_values[rows])


def pairwise_significance(
    stack: ScoreStack, trials: int, rng: np.random.Generator, threads: int | None = None
) -> PairwiseSignificance:
    """p-values of every run pair for every measure of ``stack`` by the randomised Tukey HSD test
    with ``trials`` trials; one call on the whole stack, so all measures share the permutations."""
    result = randomised_tukey_hsd(stack.values, trials, rng, threads)
    first, second = np.triu_indices(len(stack.runs), k=1)
    return PairwiseSignificance(list(stack.measures), list(stack.runs), result.means, result.p_values[:, first, second])


def _pair_keys(measures: Sequence[str], runs: Sequence[str]) -> pd.DataFrame:
    """``measure, run_a, run_b`` of every measure and run pair a < b, in table order."""
    first, second = np.triu_indices(len(runs), k=1)
    names = np.asarray(runs, dtype=object)
    return pd.DataFrame(
        {
            "measure": np.repeat(list(measures), len(first)),
            "run_a": np.tile(names[first], len(measures)),
            "run_b": np.tile(names[second], len(measures)),
        }
    )


def pvalue_table(significance: PairwiseSignificance) -> pd.DataFrame:
    """One row per measure and run pair: measure, run_a, run_b, mean_a, mean_b, p."""
    first, second = significance.pair_indices
    table = _pair_keys(significance.measures, significance.runs)
    table["mean_a"] = significance.means[:, first].ravel()
    table["mean_b"] = significance.means[:, second].ravel()
    table["p"] = significance.p_values.ravel()
    return table


def read_pvalue_table(path) -> PairwiseSignificance:
    """The inverse of :func:`pvalue_table`, from a TSV file; checks that every pair is present once."""
    frame = pd.read_csv(path, sep="\t", dtype={"measure": str, "run_a": str, "run_b": str}, keep_default_na=False)
    if list(frame.columns) != PVALUE_COLUMNS or frame.empty:
        raise InputError(path, "line 1", f"expected a header {', '.join(PVALUE_COLUMNS)} and at least one row")
    measures = list(dict.fromkeys(frame["measure"]))
    first_measure = frame[frame["measure"] == measures[0]]
    runs = list(dict.fromkeys(np.column_stack([first_measure["run_a"], first_measure["run_b"]]).ravel()))
    keys = _pair_keys(measures, runs).to_numpy(dtype=object)
    if keys.shape != (len(frame), 3) or not (frame[["measure", "run_a", "run_b"]].to_numpy(dtype=object) == keys).all():
        raise InputError(path, None, "rows are not one per measure and run pair a < b in run order")
    first, second = np.triu_indices(len(runs), k=1)
    shape = (len(measures), len(first))
    means = np.empty((len(measures), len(runs)))
    means[:, first] = frame["mean_a"].to_numpy(float).reshape(shape)
    means[:, second] = frame["mean_b"].to_numpy(float).reshape(shape)
    return PairwiseSignificance(measures, runs, means, frame["p"].to_numpy(float).reshape(shape))


# --------------------------------------------------------------------------- discriminative power


@dataclass(frozen=True)
class DiscriminativePower:
    """S (significant pairs) per measure out of T pairs; percent = 100 S / T."""

    measures: list[str]
    significant: np.ndarray  # S per measure
    pairs: int  # T

    @property
    def percent(self) -> np.ndarray:
        if self.pairs == 0:
            return np.full(len(self.measures), np.nan)
        return 100.0 * self.significant / self.pairs


def discriminative_power(significance: PairwiseSignificance, alpha: float) -> DiscriminativePower:
    """DP = S / T with S = #{pairs: p < alpha} and T = m(m-1)/2, per measure."""
    return DiscriminativePower(
        list(significance.measures), significance.significant(alpha).sum(axis=1), significance.pair_count
    )


def pooled_discriminative_power(powers: Sequence[DiscriminativePower]) -> DiscriminativePower:
    """DP pooled over data sets: sum S / sum T."""
    measures = powers[0].measures
    if any(power.measures != measures for power in powers):
        raise ValueError("pooling discriminative power needs the same measures on every data set")
    return DiscriminativePower(
        list(measures), np.sum([power.significant for power in powers], axis=0), sum(power.pairs for power in powers)
    )


def discriminative_power_table(powers: Mapping[str, DiscriminativePower]) -> pd.DataFrame:
    """``dataset, measure, significant, pairs, percent`` for every data set, then POOLED rows."""
    pooled = pooled_discriminative_power(list(powers.values()))
    rows = [
        (dataset, measure, int(s), power.pairs, float(percent))
        for dataset, power in [*powers.items(), ("POOLED", pooled)]
        for measure, s, percent in zip(power.measures, power.significant, power.percent, strict=True)
    ]
    return pd.DataFrame(rows, columns=["dataset", "measure", "significant", "pairs", "percent"])


def dp_curve(p_values: np.ndarray) -> np.ndarray:
    """Discriminative power curve of one measure: its p-values sorted in decreasing order; plotted
    against the pair rank 1..T (closer to the origin is more discriminative)."""
    return np.sort(np.asarray(p_values, dtype=float))[::-1]


def draw_dp_curves(axes, significance: PairwiseSignificance, alpha: float, title: str = "") -> None:
    """Plot the DP curve of every measure of ``significance`` on matplotlib ``axes``, with the
    alpha level as a dashed horizontal line."""
    ranks = np.arange(1, significance.pair_count + 1)
    for row, name in enumerate(significance.measures):
        axes.plot(ranks, dp_curve(significance.p_values[row]), label=get_measure(name).display, linewidth=1.2)
    axes.axhline(alpha, color="0.3", linestyle="--", linewidth=0.8, label=f"alpha = {alpha:g}")
    axes.set_xlim(0, max(1, significance.pair_count) + 1)
    axes.set_ylim(0, 1.02)
    axes.set_xlabel("run pair rank (decreasing p-value)")
    axes.set_ylabel("p-value")
    if title:
        axes.set_title(title)


# --------------------------------------------------------------------------- overlap and contradictions


@dataclass(frozen=True)
class Overlap:
    """Significance overlap of two measures: a, b, c and SSO = b / (a + b + c) in percent."""

    only_first: int  # a
    both: int  # b
    only_second: int  # c

    @property
    def sso(self) -> float:
        """100 b / (a + b + c); NaN (undefined) when no pair is significant under either measure."""
        union = self.only_first + self.both + self.only_second
        return 100.0 * self.both / union if union else float("nan")


def significance_overlap(first: np.ndarray, second: np.ndarray) -> Overlap:
    """a, b, c of two boolean significance vectors over the same pairs."""
    first, second = np.asarray(first, dtype=bool), np.asarray(second, dtype=bool)
    return Overlap(int(np.sum(first & ~second)), int(np.sum(first & second)), int(np.sum(~first & second)))


def measure_pairs(measures: Sequence[str]) -> list[tuple[int, int]]:
    """Index pairs (i, j), i < j, of ``measures`` in table order."""
    return [(i, j) for i in range(len(measures)) for j in range(i + 1, len(measures))]


def overlap_table(significance: PairwiseSignificance, alpha: float) -> pd.DataFrame:
    """``measure_a, measure_b, a, b, c, sso`` (sso in percent, NaN when undefined) for every pair of measures."""
    significant = significance.significant(alpha)
    rows = []
    for i, j in measure_pairs(significance.measures):
        overlap = significance_overlap(significant[i], significant[j])
        rows.append(
            (
                significance.measures[i],
                significance.measures[j],
                overlap.only_first,
                overlap.both,
                overlap.only_second,
                overlap.sso,
            )
        )
    return pd.DataFrame(rows, columns=["measure_a", "measure_b", "a", "b", "c", "sso"])


def contradicting_pairs(
    significant_first: np.ndarray, significant_second: np.ndarray, winners_first: np.ndarray, winners_second: np.ndarray
) -> np.ndarray:
    """Indices of the pairs significant under both measures whose better run differs between them
    (winners: +1 first run better, -1 second run better, as from :meth:`PairwiseSignificance.winners`)."""
    both = np.asarray(significant_first, dtype=bool) & np.asarray(significant_second, dtype=bool)
    return np.flatnonzero(both & (np.asarray(winners_first) * np.asarray(winners_second) < 0))


def contradiction_table(
    significance: PairwiseSignificance, alpha: float, dataset: str, lower_is_better: Sequence[bool] | None = None
) -> pd.DataFrame:
    """``dataset, measure_a, measure_b, run_x, run_y``: measure_a says run_x is significantly better
    than run_y, measure_b (significantly) the reverse; every pair of measures in table order."""
    significant = significance.significant(alpha)
    winners = significance.winners(lower_is_better)
    first, second = significance.pair_indices
    rows = []
    for i, j in measure_pairs(significance.measures):
        for pair in contradicting_pairs(significant[i], significant[j], winners[i], winners[j]):
            better, worse = (first[pair], second[pair]) if winners[i, pair] > 0 else (second[pair], first[pair])
            rows.append(
                (
                    dataset,
                    significance.measures[i],
                    significance.measures[j],
                    significance.runs[better],
                    significance.runs[worse],
                )
            )
    return pd.DataFrame(rows, columns=["dataset", "measure_a", "measure_b", "run_x", "run_y"])


def contradiction_counts(
    contradictions: pd.DataFrame, datasets: Sequence[str], measures: Sequence[str]
) -> pd.DataFrame:
    """``dataset, measure_a, measure_b, contradictions``: the number of contradicting run pairs of
    every pair of measures on every data set (zero rows included)."""
    counted = contradictions.groupby(["dataset", "measure_a", "measure_b"]).size()
    rows = [
        (dataset, measures[i], measures[j], int(counted.get((dataset, measures[i], measures[j]), 0)))
        for dataset in datasets
        for i, j in measure_pairs(measures)
    ]
    return pd.DataFrame(rows, columns=["dataset", "measure_a", "measure_b", "contradictions"])


# --------------------------------------------------------------------------- identical runs


def identical_run_groups(stack: ScoreStack, tolerance: float = IDENTICAL_TOLERANCE) -> list[list[str]]:
    """Runs whose score matrices agree (within ``tolerance``, relative) on every topic and measure,
    as groups in run order; a run identical to no other forms a group of one."""
    columns = stack.values.transpose(2, 0, 1).reshape(len(stack.runs), -1)
    scale = np.maximum(1.0, np.abs(columns).max())
    groups: list[list[int]] = []
    for run, column in enumerate(columns):
        for group in groups:
            if np.all(np.abs(columns[group[0]] - column) <= tolerance * scale):
                group.append(run)
                break
        else:
            groups.append([run])
    return [[stack.runs[run] for run in group] for group in groups]


def brace_name(members: Sequence[str]) -> str:
    """One name for a group of runs: common prefix, the differing parts in braces, common suffix
    (``BL-popularity-C``, ``BL-popularity-E`` -> ``BL-popularity-{C,E}``); a single run keeps its name."""
    if len(members) == 1:
        return members[0]
    prefix = commonprefix(list(members))
    rests = [member[len(prefix) :] for member in members]
    suffix = commonprefix([rest[::-1] for rest in rests])[::-1]
    middles = [rest[: len(rest) - len(suffix)] for rest in rests]
    return f"{prefix}{{{','.join(middles)}}}{suffix}"


def run_group_table(runs: Sequence[str], groups: Sequence[Sequence[str]]) -> pd.DataFrame:
    """``run, group``: every run (in ``runs`` order) with the brace name of its group of identical runs."""
    group_of = {run: brace_name(group) for group in groups for run in group}
    return pd.DataFrame({"run": list(runs), "group": [group_of[run] for run in runs]})


def read_run_groups(path) -> dict[str, str]:
    """``{run: group name}`` from a table written from :func:`run_group_table`."""
    groups = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    if list(groups.columns) != ["run", "group"]:
        raise InputError(path, "line 1", "expected columns run, group")
    return dict(zip(groups["run"], groups["group"], strict=True))


def grouped_contradictions(contradictions: pd.DataFrame, group_of: Mapping[str, Mapping[str, str]]) -> pd.DataFrame:
    """The contradiction table with identical runs collapsed into their group name: ``dataset,
    measure_a, measure_b, run_x, run_y, run_pairs`` (run_pairs = individual pairs in the row)."""
    renamed = contradictions.copy()
    for column in ("run_x", "run_y"):
        renamed[column] = [
            group_of[dataset][run] for dataset, run in zip(renamed["dataset"], renamed[column], strict=True)
        ]
    keys = ["dataset", "measure_a", "measure_b", "run_x", "run_y"]
    return renamed.groupby(keys, sort=False).size().rename("run_pairs").reset_index()


# --------------------------------------------------------------------------- LaTeX


def emphasised(value: float, thresholds: tuple[float, float], decimals: int = 3) -> str:
    """``value`` with ``decimals`` decimals, bold at or above thresholds[0], underlined below
    thresholds[1]; '-' when undefined."""
    text = number(value, decimals)
    if np.isnan(value):
        return text
    if value >= thresholds[0]:
        return bold(text)
    if value < thresholds[1]:
        return underline(text)
    return text


def discriminative_power_latex(table: pd.DataFrame, decimals: int = 3) -> str:
    """Measures x data sets (and POOLED): 'DP% (S)', T under each data set's name; DP >= 50% bold,
    < 40% underlined."""
    datasets = list(dict.fromkeys(table["dataset"]))
    measures = list(dict.fromkeys(table["measure"]))
    indexed = table.set_index(["dataset", "measure"])
    pairs = [int(indexed.loc[(dataset, measures[0]), "pairs"]) for dataset in datasets]
    header = [
        ["Measure", *(escape(dataset) for dataset in datasets)],
        ["", *(f"$T = {t}$" for t in pairs)],
    ]
    rows = []
    for measure in measures:
        cells = [measure_name(measure)]
        for dataset in datasets:
            row = indexed.loc[(dataset, measure)]
            cells.append(f"{emphasised(row['percent'], DP_EMPHASIS, decimals)} ({int(row['significant'])})")
        rows.append(cells)
    return tabular(header, rows, "l" + "r" * len(datasets))


def sso_latex(table: pd.DataFrame, measures: Sequence[str], decimals: int = 3) -> str:
    """Upper triangle of measures x measures: 'SSO% (a/b/c)'; SSO >= 90% bold, < 70% underlined,
    '-' where undefined."""
    cells = {(row.measure_a, row.measure_b): row for row in table.itertuples()}
    header = ["", *(measure_name(measure) for measure in measures[1:])]
    rows = []
    for i, first in enumerate(measures[:-1]):
        row = [measure_name(first)]
        for j, second in enumerate(measures[1:], start=1):
            if j <= i:
                row.append("")
                continue
            cell = cells[(first, second)]
            row.append(f"{emphasised(cell.sso, SSO_EMPHASIS, decimals)} ({cell.a}/{cell.b}/{cell.c})")
        rows.append(row)
    return tabular(header, rows, "l" + "r" * (len(measures) - 1))


def contradiction_counts_latex(counts: pd.DataFrame) -> str:
    """Pairs of measures x data sets: number of contradicting run pairs, and the total."""
    datasets = list(dict.fromkeys(counts["dataset"]))
    wide = counts.pivot_table(
        index=["measure_a", "measure_b"], columns="dataset", values="contradictions", sort=False, aggfunc="sum"
    )
    header = ["Measure 1", "Measure 2", *(escape(dataset) for dataset in datasets), "Total"]
    rows = [
        [measure_name(first), measure_name(second), *(str(int(wide.loc[(first, second), d])) for d in datasets)]
        + [str(int(wide.loc[(first, second)].sum()))]
        for first, second in wide.index
    ]
    return tabular(header, rows, "ll" + "r" * (len(datasets) + 1))


def contradictions_latex(contradictions: pd.DataFrame) -> str:
    """Data set, measure 1, measure 2, run X, run Y: measure 1 says X is significantly better than Y,
    measure 2 the reverse (with a run_pairs column when identical runs are grouped)."""
    grouped = "run_pairs" in contradictions.columns
    header = ["Data set", "Measure 1", "Measure 2", "Run X (better by 1)", "Run Y (better by 2)"]
    header += ["Pairs"] if grouped else []
    rows = []
    for row in contradictions.itertuples():
        cells = [escape(row.dataset), measure_name(row.measure_a), measure_name(row.measure_b), escape(row.run_x)]
        cells += [escape(row.run_y)] + ([str(row.run_pairs)] if grouped else [])
        rows.append(cells)
    if not rows:
        rows = [[rf"\multicolumn{{{len(header)}}}{{c}}{{no contradictions}}"]]
    return tabular(header, rows, "lllll" + ("r" if grouped else ""))
