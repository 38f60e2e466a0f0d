"""System ranking consistency: robustness of a measure's ranking to the choice of topics (SPEC 4.2).

In trial b the topics are split at random into two disjoint sets T1_b and T2_b (halves of sizes
floor(n/2) and ceil(n/2), or two subsets of a fixed size); for every measure m the runs are ranked by
their mean score on T1_b and on T2_b, and tau_bm = tau_b(ranking on T1_b, ranking on T2_b). All
measures share each trial's split. Everything is vectorised over trials: the splits are boolean
trials x topics masks, the half means one matrix product per half, the taus one batched
:func:`~ordeval.stats.kendall_tau_b` call.

The measures are then compared on the trials x measures tau matrix by the randomised Tukey HSD test
(trials play the role of topics, measures of systems; a higher mean tau is better), with VE2, the
residual variance of the two-way ANOVA without replication, and effect sizes (mean_a - mean_b) / sqrt(VE2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .files import write_table
from .measures import get_measure
from .outputs import bold, escape, measure_name, number, tabular, upper_triangle_tabular
from .stats import kendall_tau_b, randomised_tukey_hsd, residual_variance

#: The two conditions: halves of the topics, and two disjoint subsets of ``subset_size`` topics.
CONDITIONS = ("half", "10v10")

#: LaTeX math symbols (no package needed) that stand for the measures in "outperforms" columns.
SYMBOLS = (
    r"\spadesuit",
    r"\heartsuit",
    r"\diamondsuit",
    r"\clubsuit",
    r"\star",
    r"\dagger",
    r"\ddagger",
    r"\natural",
    r"\sharp",
    r"\flat",
    r"\bullet",
    r"\circ",
    r"\ast",
    r"\triangleleft",
    r"\triangleright",
    r"\oplus",
    r"\otimes",
    r"\odot",
    r"\ominus",
    r"\diamond",
)


# --------------------------------------------------------------------------- splits and taus


@dataclass(frozen=True)
class Splits:
    """Boolean trials x topics masks of the two disjoint topic sets of every trial."""

    first: np.ndarray
    second: np.ndarray

    @property
    def trials(self) -> int:
        return self.first.shape[0]


def random_splits(num_topics: int, trials: int, first_size: int, second_size: int, rng: np.random.Generator) -> Splits:
    """Two disjoint random topic sets per trial, all trials at once.

    Row b of argsort(U), U a trials x topics matrix of uniform numbers, is a uniformly random
    permutation pi_b of the topics; T1_b = pi_b[:first_size], T2_b = pi_b[first_size:first_size + second_size].
    """
    if first_size < 1 or second_size < 1 or first_size + second_size > num_topics:
        raise ValueError(
            f"cannot draw disjoint topic sets of {first_size} and {second_size} topics from {num_topics} topics"
        )
    order = rng.random((trials, num_topics)).argsort(axis=1)
    first = np.zeros((trials, num_topics), dtype=bool)
    second = np.zeros((trials, num_topics), dtype=bool)
    np.put_along_axis(first, order[:, :first_size], True, axis=1)
    np.put_along_axis(second, order[:, first_size : first_size + second_size], True, axis=1)
    return Splits(first, second)


def condition_splits(
    condition: str, num_topics: int, trials: int, subset_size: int, rng: np.random.Generator
) -> Splits:
    """``half``: sizes floor(n/2) and ceil(n/2); ``10v10``: two subsets of ``subset_size`` topics."""
    if condition == "half":
        return random_splits(num_topics, trials, num_topics // 2, num_topics - num_topics // 2, rng)
    if condition == "10v10":
        return random_splits(num_topics, trials, subset_size, subset_size, rng)
    raise ValueError(f"unknown consistency condition {condition!r}; known: {', '.join(CONDITIONS)}")


def split_means(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean score of every run over the topics of each trial's mask: trials x measures x runs.

    mean[b, m, r] = sum_t mask[b, t] values[m, t, r] / sum_t mask[b, t]; one matrix product for all.
    """
    measures, topics, runs = values.shape
    weights = mask / mask.sum(axis=1, keepdims=True)
    flat = values.transpose(1, 0, 2).reshape(topics, measures * runs)
    return (weights @ flat).reshape(mask.shape[0], measures, runs)


def split_taus(values: np.ndarray, splits: Splits) -> np.ndarray:
    """tau_b between the run rankings on the two topic sets of every trial: trials x measures.

    ``values`` is the measures x topics x runs score stack. NaN where one ranking is all ties.
    """
    values = np.asarray(values, dtype=float)
    return kendall_tau_b(split_means(values, splits.first), split_means(values, splits.second))


def write_taus(taus: np.ndarray, measures: Sequence[str], path) -> None:
    """The trials x measures tau matrix as TSV, one column per measure."""
    write_table(pd.DataFrame(taus, columns=list(measures)), path)


def read_taus(path) -> tuple[list[str], np.ndarray]:
    frame = pd.read_csv(path, sep="\t")
    return list(frame.columns), frame.to_numpy(dtype=float)


# --------------------------------------------------------------------------- comparing the measures


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

    def summary_table(self) -> pd.DataFrame:
        """``measure, mean_tau, outperforms`` (space-separated names), ``ve2``, ``trials``."""
        return pd.DataFrame(
            {
                "measure": self.measures,
                "mean_tau": self.mean_tau,
                "outperforms": [" ".join(names) for names in self.outperforms()],
                "ve2": self.ve2,
                "trials": self.trials,
            }
        )

    def pair_table(self) -> pd.DataFrame:
        """Every pair (a ranked above b): ``difference, effect_size, p_value, significant``."""
        first, second = np.triu_indices(len(self.measures), k=1)
        return pd.DataFrame(
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


def symbols(measures: Sequence[str]) -> dict[str, str]:
    """A LaTeX math symbol per measure, in the given (configured) order; numbers beyond the list."""
    return {name: SYMBOLS[i] if i < len(SYMBOLS) else f"({i + 1})" for i, name in enumerate(measures)}


def comparison_latex(comparison: MeasureComparison, symbol_of: Mapping[str, str]) -> str:
    """Measure, its symbol (the legend), mean tau (4 decimals) and the symbols of the measures it
    significantly outperforms; rows sorted by mean tau."""
    rows = []
    for name, mean, beaten in zip(comparison.measures, comparison.mean_tau, comparison.outperforms(), strict=True):
        marks = "$" + r"\,".join(symbol_of[other] for other in beaten) + "$" if beaten else ""
        rows.append([measure_name(name), f"${symbol_of[name]}$", number(mean, 4), marks])
    return tabular(["Measure", "Symbol", r"Mean $\tau$", "Significantly better than"], rows, "lcrl")


def effect_size_latex(comparison: MeasureComparison) -> str:
    """Upper triangle (sorted measures) of effect sizes (mean_a - mean_b)/sqrt(VE2), 3 decimals;
    significant differences in bold."""
    sizes, significant = comparison.effect_sizes(), comparison.significant
    cells = [
        [bold(number(sizes[i, j])) if significant[i, j] else number(sizes[i, j]) for j in range(len(sizes))]
        for i in range(len(sizes))
    ]
    return upper_triangle_tabular([get_measure(name).display for name in comparison.measures], cells)


def read_summary(path) -> pd.DataFrame:
    """A summary table written by the consistency rules (the ``data_origin`` column dropped)."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""], dtype={"outperforms": str})
    frame["outperforms"] = frame["outperforms"].fillna("")
    return frame.drop(columns=["data_origin"], errors="ignore")


def mean_summary(summaries: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Mean tau per measure: one column per data set, then ``mean`` over them; sorted by ``mean``."""
    columns = {dataset: table.set_index("measure")["mean_tau"] for dataset, table in summaries.items()}
    frame = pd.DataFrame(columns)
    frame["mean"] = frame.mean(axis=1, skipna=False)
    frame = frame.sort_values("mean", ascending=False, kind="stable")
    return frame.rename_axis("measure").reset_index()


def mean_summary_latex(table: pd.DataFrame) -> str:
    """Measures (sorted) by data set, then the mean; 4 decimals, the highest of each column in bold."""
    columns = [column for column in table.columns if column != "measure"]
    best = {column: table[column].max() for column in columns}
    rows = [
        [measure_name(row["measure"])]
        + [bold(number(row[c], 4)) if row[c] == best[c] else number(row[c], 4) for c in columns]
        for _, row in table.iterrows()
    ]
    header = ["Measure"] + [escape(column) for column in columns[:-1]] + ["Mean"]
    return tabular(header, rows, "l" + "r" * len(columns))


def tau_distribution_figure(taus: np.ndarray, measures: Sequence[str], title: str = ""):
    """Box plots of every measure's taus over the trials, measures sorted by mean tau (highest first);
    the mean is marked by a dot."""
    import matplotlib.pyplot as plt

    taus = np.asarray(taus, dtype=float)
    means = np.nanmean(taus, axis=0)
    order = np.argsort(-means, kind="stable")
    columns = [taus[:, i][~np.isnan(taus[:, i])] for i in order]
    names = [get_measure(measures[i]).display for i in order]
    figure, axes = plt.subplots(figsize=(1.2 + 0.5 * len(measures), 3.6))
    axes.boxplot(columns, whis=(2.5, 97.5), showfliers=False, widths=0.6)
    axes.plot(range(1, len(order) + 1), means[order], "o", color="C3", markersize=4, label="mean")
    axes.set_xticks(range(1, len(order) + 1), names, rotation=60, ha="right", fontsize=8)
    axes.set_ylabel("Kendall's tau between the two topic sets")
    axes.grid(axis="y", alpha=0.3)
    axes.legend(loc="lower left", fontsize=7)
    if title:
        axes.set_title(title, fontsize=9)
    figure.tight_layout()
    return figure
