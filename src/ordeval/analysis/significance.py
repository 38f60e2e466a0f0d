"""Discriminative power, significance overlap and contradictions between measures (docs/methods.md 4.3-4.5).

All functions work on the p-values of every run pair of one data set from the randomised Tukey HSD
test of :mod:`ordeval.stats.hsd` (one call per data set, so that all measures share the permutations). Pairs
are the unordered run pairs (i, j), i < j in run order, in the row-major order of ``numpy.triu_indices``;
a data set with m runs has T = m(m-1)/2 of them.

* discriminative power: S = #{pairs with p < alpha}, DP = S / T (pooled over data sets: sum S / sum T);
* significance overlap of two measures: a = pairs significant only with the first, b = with both,
  c = only with the second, SSO = b / (a + b + c) (undefined, NaN, when a + b + c = 0);
* contradiction: a pair significant with both measures whose better run differs between them, "better"
  following each measure's own direction.

Runs whose score matrices are identical under every measure (the -C/-E copies of the NTCIR baselines)
stay separate runs, as in the official evaluations; :mod:`ordeval.analysis.identical_runs` gives the collapsed
view (``BL-popularity-{C,E}``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.analysis.identical_runs import collapse_identical_runs, identical_run_sets, identical_set_table
from ordeval.io.errors import InputError
from ordeval.io.table import Table
from ordeval.stats.seeding import stream
from ordeval.tasks.stack import ScoreStack, read_measure_table, read_stack

#: Columns of the p-value table of one data set (``significance/<dataset>/pvalues.tsv``).
PVALUE_COLUMNS = ["measure", "run_a", "run_b", "mean_a", "mean_b", "p"]


# --------------------------------------------------------------------------- p-values of run pairs


@dataclass(frozen=True)
class PairwiseSignificance:
    """p-values of every run pair under several measures on one data set."""

    measures: list[str]
    runs: list[str]
    means: np.ndarray  # measures x runs: mean score over topics
    p_values: np.ndarray  # measures x pairs (see pair_indices)
    lower_is_better: list[bool] = field(default_factory=list)  # per measure (default: all)
    trials: int = 0  # B of the test that gave the p-values (0: unknown)

    def __post_init__(self):
        if not self.lower_is_better:
            object.__setattr__(self, "lower_is_better", [True] * len(self.measures))

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

    def winners(self) -> np.ndarray:
        """measures x pairs: +1 where the pair's first run has the better mean (under the measure's
        own direction), -1 the second, 0 a tie."""
        first, second = self.pair_indices
        orientation = np.where(np.asarray(self.lower_is_better, dtype=bool), 1.0, -1.0)[:, None]
        return np.sign(self.means[:, second] - self.means[:, first]) * orientation

    def subset(self, measures: Sequence[str]) -> PairwiseSignificance:
        missing = [name for name in measures if name not in self.measures]
        if missing:
            raise KeyError(f"no p-values for measure(s) {', '.join(missing)}; have {', '.join(self.measures)}")
        rows = [self.measures.index(name) for name in measures]
        return PairwiseSignificance(
            list(measures),
            self.runs,
            self.means[rows],
            self.p_values[rows],
            [self.lower_is_better[i] for i in rows],
            self.trials,
        )

    def matrix(self, measure: str) -> np.ndarray:
        """Symmetric runs x runs p-values of one measure (1 on the diagonal)."""
        first, second = self.pair_indices
        matrix = np.ones((len(self.runs), len(self.runs)))
        values = self.p_values[self.measures.index(measure)]
        matrix[first, second] = values
        matrix[second, first] = values
        return matrix


def pairwise_significance(
    stack: ScoreStack, trials: int, rng: np.random.Generator, threads: int | None = None, progress=None
) -> PairwiseSignificance:
    """p-values of every run pair for every measure of ``stack`` by the randomised Tukey HSD test
    with ``trials`` trials; one call on the whole stack, so all measures share the permutations.
    ``progress(done, trials)``: see :func:`ordeval.stats.hsd.randomised_tukey_hsd` (the result is the same)."""
    from ordeval.stats.hsd import randomised_tukey_hsd  # numba: only the p-value job pays for it

    result = randomised_tukey_hsd(stack.values, trials, rng, threads, progress)
    first, second = np.triu_indices(len(stack.runs), k=1)
    return PairwiseSignificance(
        list(stack.measures),
        list(stack.runs),
        result.means,
        result.p_values[:, first, second],
        list(stack.lower_is_better),
        trials,
    )


def write_significance(
    stack: str | Path,
    outputs: Mapping[str, str | Path],
    *,
    dataset: str,
    trials: int,
    seed: int,
    threads: int | None = None,
) -> tuple[PairwiseSignificance, list[list[str]]]:
    """The p-values of every run pair of data set ``dataset`` (its score stack at ``stack``) under every
    measure, by :func:`pairwise_significance` with ``trials`` permutations drawn
    from the data set's stream ``stream(seed, dataset, "significance")``, and its sets of identical runs
    (:func:`~ordeval.analysis.identical_runs.identical_run_sets`). ``outputs``: ``pvalues`` (the table),
    ``arrays`` (its binary copy: :func:`write_pvalues`), ``identical_runs`` (every run with its set's name)."""
    scores = read_stack(stack)
    significance = pairwise_significance(scores, trials, stream(seed, dataset, "significance"), threads)
    write_pvalues(significance, outputs["pvalues"], outputs["arrays"])
    sets = identical_run_sets(scores)
    identical_set_table(scores.runs, sets).write(outputs["identical_runs"])
    return significance, sets


def _pair_keys(measures: Sequence[str], runs: Sequence[str]) -> dict[str, list[str]]:
    """``measure, run_a, run_b`` of every measure and run pair a < b, in table order."""
    first, second = np.triu_indices(len(runs), k=1)
    names = np.asarray(runs, dtype=object)
    return {
        "measure": np.repeat(np.asarray(measures, dtype=object), len(first)).tolist(),
        "run_a": np.tile(names[first], len(measures)).tolist(),
        "run_b": np.tile(names[second], len(measures)).tolist(),
    }


def pvalue_table(significance: PairwiseSignificance) -> Table:
    """One row per measure and run pair: measure, run_a, run_b, mean_a, mean_b, p."""
    first, second = significance.pair_indices
    table = Table(_pair_keys(significance.measures, significance.runs))
    table["mean_a"] = significance.means[:, first].ravel()
    table["mean_b"] = significance.means[:, second].ravel()
    table["p"] = significance.p_values.ravel()
    return table


def arrays_path(path) -> Path:
    """Where a ``pvalues.tsv`` keeps its binary copy when none is named: ``pvalues.npz`` beside it."""
    return Path(path).with_suffix(".npz")


def write_pvalues(significance: PairwiseSignificance, path, arrays=None) -> None:
    """``path`` (``pvalues.tsv``, :func:`pvalue_table`) and ``arrays`` (default :func:`arrays_path`): the same
    numbers as arrays with the TSV's SHA-256, read instead of parsing the table while the hash matches (a table
    of 1,000 runs has 6.5 million rows: parsed, it held ~4 GB; as arrays, ~100 MB). The table is written one
    measure at a time (the whole table as text held ~3 GB at 1,000 runs)."""
    import hashlib

    from ordeval.io.files import write_atomically

    hasher = hashlib.sha256()  # of the bytes as written (not read back: 6.5 million rows at 1,000 runs)

    def write_table(temporary: str) -> None:  # measure by measure: memory of one measure's rows at a time
        with open(temporary, "wb") as handle:
            for index, measure in enumerate(significance.measures):
                text = pvalue_table(significance.subset([measure])).to_text()
                data = (text if index == 0 else text.split("\n", 1)[1]).encode("utf-8")
                hasher.update(data)
                handle.write(data)

    write_atomically(path, write_table)
    digest = hasher.hexdigest()

    def write(temporary: str) -> None:
        with open(temporary, "wb") as handle:
            np.savez(
                handle,
                measures=np.array(significance.measures),
                runs=np.array(significance.runs),
                means=significance.means,
                p_values=significance.p_values,
                tsv_sha256=np.array(digest),
            )

    write_atomically(arrays if arrays is not None else arrays_path(path), write)


#: The arrays of ``pvalues.npz`` (:func:`write_pvalues`): name -> numpy kind and dimensions.
PVALUE_ARRAYS = {
    "measures": ("U", 1),
    "runs": ("U", 1),
    "means": ("f", 2),
    "p_values": ("f", 2),
    "tsv_sha256": ("U", 0),
}


def _read_arrays(path, arrays) -> tuple | None:
    """(measures, runs, means, p-values) from ``arrays`` while it mirrors the TSV ``path`` as it is now (same
    SHA-256); None otherwise (missing, or the TSV changed since), and the TSV is parsed. A file that is not
    such arrays (empty, random bytes, pickled objects, shapes that do not fit, p-values outside [0, 1]) is
    an InputError naming it."""
    from ordeval.io.archives import Archive
    from ordeval.io.files import sha256

    if not Path(arrays).is_file():
        return None
    with Archive(arrays, "the p-values") as archive:  # checked from its headers before any array is read
        archive.require(PVALUE_ARRAYS)
        if str(archive.read("tsv_sha256")) != sha256(path):
            return None  # stale: the p-values are not read
        measures, runs = archive.read("measures"), archive.read("runs")
        pairs = len(runs) * (len(runs) - 1) // 2
        shapes = archive.shape("means"), archive.shape("p_values")
        if shapes != ((len(measures), len(runs)), (len(measures), pairs)):
            problem = f"means {shapes[0]} and p-values {shapes[1]} for {len(measures)} measures x {len(runs)} runs"
            raise InputError(arrays, None, f"not the p-values as ordeval writes them ({problem})")
        means, p_values = archive.read("means"), archive.read("p_values")
    problem = None
    if not np.isfinite(means).all() or not ((p_values >= 0) & (p_values <= 1)).all():
        problem = "means that are not finite or p-values outside [0, 1]"
    if problem:
        raise InputError(arrays, None, f"not the p-values as ordeval writes them ({problem})")
    return measures.tolist(), runs.tolist(), means, p_values


def read_pvalue_table(
    path, lower_is_better: Mapping[str, bool] | None = None, trials: int = 0, arrays=None
) -> PairwiseSignificance:
    """The inverse of :func:`pvalue_table`, from a TSV file (or from ``arrays``, the binary copy that
    :func:`write_pvalues` keeps, while it mirrors the TSV); checks that every pair is present once.
    ``lower_is_better`` gives each measure's direction (default: lower is better)."""
    stored = _read_arrays(path, arrays) if arrays is not None else None
    if stored is not None:
        measures, runs, means, p_values = stored
        directions = [True if lower_is_better is None else bool(lower_is_better[m]) for m in measures]
        return PairwiseSignificance(measures, runs, means, p_values, directions, trials)
    table = Table.read(path, numeric=["mean_a", "mean_b", "p"])
    if table.columns != PVALUE_COLUMNS or not len(table):
        raise InputError(path, "line 1", f"expected a header {', '.join(PVALUE_COLUMNS)} and at least one row")
    measures = list(dict.fromkeys(table["measure"]))
    first_rows = [i for i, measure in enumerate(table["measure"]) if measure == measures[0]]
    runs = list(dict.fromkeys(name for i in first_rows for name in (table["run_a"][i], table["run_b"][i])))
    keys = _pair_keys(measures, runs)
    if len(table) != len(keys["measure"]) or any(list(table[column]) != keys[column] for column in keys):
        raise InputError(path, None, "rows are not one per measure and run pair a < b in run order")
    bad = np.flatnonzero(
        ~np.isfinite(table["mean_a"]) | ~np.isfinite(table["mean_b"]) | ~(table["p"] >= 0) | ~(table["p"] <= 1)
    )
    if bad.size:
        raise InputError(path, f"line {bad[0] + 2}", "a mean that is not a finite number or a p-value outside [0, 1]")
    first, second = np.triu_indices(len(runs), k=1)
    shape = (len(measures), len(first))
    means = np.empty((len(measures), len(runs)))
    means[:, first] = table["mean_a"].reshape(shape)
    means[:, second] = table["mean_b"].reshape(shape)
    directions = [True if lower_is_better is None else bool(lower_is_better[m]) for m in measures]
    return PairwiseSignificance(measures, runs, means, table["p"].reshape(shape), directions, trials)


def read_significance(
    pvalues_path, measures_path, measures: Sequence[str], trials: int = 0, arrays=None
) -> PairwiseSignificance:
    """A data set's p-values (``pvalues.tsv``, or its binary copy ``arrays`` while it mirrors the table)
    restricted to ``measures``, each measure with its direction from the data set's ``measures.tsv``."""
    info = read_measure_table(measures_path)
    directions = dict(zip(info["measure"], info["lower_is_better"], strict=True))
    return read_pvalue_table(pvalues_path, directions, trials, arrays).subset(measures)


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


def discriminative_power_table(powers: Mapping[str, DiscriminativePower]) -> Table:
    """``dataset, measure, significant, pairs, percent`` for every data set, then POOLED rows."""
    pooled = pooled_discriminative_power(list(powers.values()))
    rows = [
        (dataset, measure, int(s), power.pairs, float(percent))
        for dataset, power in [*powers.items(), ("POOLED", pooled)]
        for measure, s, percent in zip(power.measures, power.significant, power.percent, strict=True)
    ]
    columns = ["dataset", "measure", "significant", "pairs", "percent"]
    return Table({name: [row[i] for row in rows] for i, name in enumerate(columns)})


def dp_curve(p_values: np.ndarray) -> np.ndarray:
    """Discriminative power curve of one measure: its p-values sorted in decreasing order; plotted
    against the pair rank 1..T (closer to the origin is more discriminative)."""
    return np.sort(np.asarray(p_values, dtype=float))[::-1]


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


def overlap_table(significance: PairwiseSignificance, alpha: float) -> Table:
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
    columns = ["measure_a", "measure_b", "a", "b", "c", "sso"]
    return Table({name: [row[k] for row in rows] for k, name in enumerate(columns)})


def contradicting_pairs(
    significant_first: np.ndarray, significant_second: np.ndarray, winners_first: np.ndarray, winners_second: np.ndarray
) -> np.ndarray:
    """Indices of the pairs significant under both measures whose better run differs between them
    (winners: +1 first run better, -1 second run better, as from :meth:`PairwiseSignificance.winners`)."""
    both = np.asarray(significant_first, dtype=bool) & np.asarray(significant_second, dtype=bool)
    return np.flatnonzero(both & (np.asarray(winners_first) * np.asarray(winners_second) < 0))


CONTRADICTION_COLUMNS = ["dataset", "measure_a", "measure_b", "run_x", "run_y"]


def contradiction_table(significance: PairwiseSignificance, alpha: float, dataset: str) -> Table:
    """``dataset, measure_a, measure_b, run_x, run_y``: measure_a says run_x is significantly better
    than run_y, measure_b (significantly) the reverse; every pair of measures in table order."""
    significant = significance.significant(alpha)
    winners = significance.winners()
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
    return Table({name: [row[k] for row in rows] for k, name in enumerate(CONTRADICTION_COLUMNS)})


def contradiction_counts(contradictions: Table, datasets: Sequence[str], measures: Sequence[str]) -> Table:
    """``dataset, measure_a, measure_b, contradictions``: the number of contradicting run pairs of
    every pair of measures on every data set (zero rows included)."""
    counted: dict[tuple[str, str, str], int] = {}
    for key in zip(contradictions["dataset"], contradictions["measure_a"], contradictions["measure_b"], strict=True):
        counted[key] = counted.get(key, 0) + 1
    rows = [
        (dataset, measures[i], measures[j], counted.get((dataset, measures[i], measures[j]), 0))
        for dataset in datasets
        for i, j in measure_pairs(measures)
    ]
    columns = ["dataset", "measure_a", "measure_b", "contradictions"]
    return Table({name: [row[k] for row in rows] for k, name in enumerate(columns)})


@dataclass(frozen=True)
class SignificanceSummary:
    """The significance tests of a task's data sets summarised: discriminative power (per data set, then
    POOLED), every contradicting run pair, their counts per pair of measures, and the same pairs with identical
    runs collapsed."""

    power: Table
    contradictions: Table
    counts: Table
    collapsed: Table


def summarise_significance(
    significances: Iterable[tuple[str, PairwiseSignificance]],
    identical: Mapping[str, Mapping[str, str]],
    alpha: float,
    measures: Sequence[str],
) -> SignificanceSummary:
    """From each data set's p-values (``significances``: (data set, p-values) pairs, taken one at a time, so
    that memory holds one data set's p-values) and ``identical`` ({data set: {run: the name of its set of
    identical runs}}): S of T pairs with p < ``alpha`` per measure (:func:`discriminative_power_table`, pooled as
    sum S / sum T), the contradicting pairs (:func:`contradiction_table`), their number per pair of ``measures``
    and data set (:func:`contradiction_counts`), and the pairs with identical runs collapsed
    (:func:`~ordeval.analysis.identical_runs.collapse_identical_runs`)."""
    powers, contradictions = {}, []
    for dataset, significance in significances:
        powers[dataset] = discriminative_power(significance, alpha)
        contradictions.append(contradiction_table(significance, alpha, dataset))
    detail = Table.concat(contradictions)
    return SignificanceSummary(
        discriminative_power_table(powers),
        detail,
        contradiction_counts(detail, list(powers), measures),
        collapse_identical_runs(detail, identical),
    )
