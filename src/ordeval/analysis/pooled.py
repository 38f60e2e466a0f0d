"""The pooled protocol of ordinal classification and its significance test.

Pooled protocol (the official SemEval-2016/2017 Task 4 scorers): every measure is computed once per run
on one confusion matrix over all items of the test set, ``c[i, j]`` = items the run puts in class i and
the gold in class j (the topics are ignored). The pipeline writes these values to
``scores/<dataset>/pooled.tsv``.

A pooled score has no per-topic values, so the randomised Tukey HSD over topics does not apply. Its
significance test here is the paired randomisation test of two runs A and B (Fisher's randomisation
test; Smucker, Allan and Carterette, CIKM 2007, with items in place of topics): under the null
hypothesis that A and B are exchangeable, each item's pair of labels (a_i, b_i) is swapped with
probability 1/2, independently of the other items. With d = M(C(A)) - M(C(B)) the observed difference
of the pooled measure M and d*_1..d*_B its values on B random relabellings,

    p = #{b : |d*_b| >= |d| - eps} / B,   eps = 1e-12 * max(1, |d|)

(two-sided; identical runs give p = 1). Only items where the runs differ can change a confusion
matrix, and such an item changes it only through its kind (g_i, a_i, b_i): with n_k differing items of
kind k, the number of them swapped in a trial is Binomial(n_k, 1/2), independent across kinds, which is
exactly the distribution the item-by-item swaps give. A trial therefore draws at most K^3 binomial
counts, whatever the number of items; the counts of the swapped runs sum to those of the original pair,
C(A*) + C(B*) = C(A) + C(B). Trials are drawn in blocks of at most ``block_cells`` (trials x kinds)
cells, so memory is bounded whatever the number of trials and of run pairs. Each pair is a separate
test: the p-values are not adjusted for the number of pairs (unlike the randomised Tukey HSD of the per-topic protocol).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ordeval.analysis.significance import PairwiseSignificance
from ordeval.tasks.classification.measures import confusion_matrices

#: Cells (trials x kinds of differing items) of one block of the randomisation test.
BLOCK_CELLS = 1 << 21
#: Relative tolerance for a trial's difference to count as at least the observed one.
TIE_TOLERANCE = 1e-12

Measure = Callable[[np.ndarray], np.ndarray]


def pooled_confusion(gold, runs, num_classes: int) -> np.ndarray:
    """Confusion counts over all items, runs x K x K: ``c[r, i, j]`` = items run r puts in class i and the
    gold in class j. ``gold``: class indices (items,); ``runs``: class indices (runs, items)."""
    gold = np.asarray(gold, dtype=np.int64)
    one_topic = np.zeros(gold.shape[0], dtype=np.int64)  # all items: the one "topic" of the task's counts
    return confusion_matrices(gold, np.atleast_2d(runs), one_topic, 1, num_classes)[:, 0]


def pooled_scores(gold, runs, num_classes: int, measures: Sequence[Measure]) -> np.ndarray:
    """Each measure on each run's pooled confusion matrix: measures x runs."""
    confusion = pooled_confusion(gold, runs, num_classes)
    return np.stack([np.asarray(measure(confusion), dtype=float).reshape(-1) for measure in measures])


def paired_randomisation_test(
    gold,
    first,
    second,
    num_classes: int,
    measures: Sequence[Measure],
    trials: int,
    rng: np.random.Generator,
    block_cells: int = BLOCK_CELLS,
) -> np.ndarray:
    """Two-sided p-values (one per measure) of the paired randomisation test of runs ``first`` and
    ``second`` (class indices per item) on the pooled measures (see the module docstring)."""
    if trials < 1:
        raise ValueError(f"trials must be at least 1, got {trials}")
    gold = np.asarray(gold, dtype=np.int64)
    first, second = np.asarray(first, dtype=np.int64), np.asarray(second, dtype=np.int64)
    differ = first != second
    if not differ.any():
        return np.ones(len(measures))
    confusion = pooled_confusion(gold, np.stack([first, second]), num_classes)
    observed = np.array([_difference(measure, confusion[0:1], confusion[1:2])[0] for measure in measures])
    threshold = np.abs(observed) - TIE_TOLERANCE * np.maximum(1.0, np.abs(observed))
    total = (confusion[0] + confusion[1]).reshape(-1)
    same = ~differ
    base = pooled_confusion(gold[same], first[same][None, :], num_classes)[0].reshape(-1)
    # the differing items by kind (gold g, first's class a, second's class b): n_k items of kind k
    codes = (gold[differ] * num_classes + first[differ]) * num_classes + second[differ]
    kinds, sizes = np.unique(codes, return_counts=True)
    kind_gold, rest = np.divmod(kinds, num_classes * num_classes)
    kind_first, kind_second = np.divmod(rest, num_classes)
    cells = num_classes * num_classes
    stays = np.zeros((kinds.size, cells), dtype=np.int64)  # a kind's items unswapped: cell (a, g) of the first
    stays[np.arange(kinds.size), kind_first * num_classes + kind_gold] = 1
    moves = np.zeros((kinds.size, cells), dtype=np.int64)  # swapped: cell (b, g) of the first
    moves[np.arange(kinds.size), kind_second * num_classes + kind_gold] = 1
    block = max(1, min(trials, block_cells // kinds.size))
    extreme = np.zeros(len(measures), dtype=np.int64)
    done = 0
    while done < trials:
        count = min(block, trials - done)
        swapped = rng.binomial(sizes, 0.5, size=(count, kinds.size))
        shuffled_first = base + (sizes - swapped) @ stays + swapped @ moves  # exact: integer counts
        shuffled_second = total - shuffled_first
        shape = (count, num_classes, num_classes)
        for index, measure in enumerate(measures):
            difference = _difference(measure, shuffled_first.reshape(shape), shuffled_second.reshape(shape))
            extreme[index] += np.count_nonzero(np.abs(difference) >= threshold[index])
        done += count
    return extreme / trials


def _difference(measure: Measure, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    return np.asarray(measure(first), dtype=float).reshape(-1) - np.asarray(measure(second), dtype=float).reshape(-1)


def pooled_significance(
    gold,
    runs,
    num_classes: int,
    measures: Sequence[Measure],
    names: Sequence[str],
    run_names: Sequence[str],
    lower_is_better: Sequence[bool],
    trials: int,
    rng: np.random.Generator,
    progress=None,
) -> PairwiseSignificance:
    """The paired randomisation test of every run pair (first < second, in run order) under every pooled
    measure: a :class:`~ordeval.analysis.significance.PairwiseSignificance` whose ``means`` are the pooled
    scores. The pairs draw from ``rng`` one after the other (same seed, same p-values).
    ``progress(done, pairs)`` is called after each pair."""
    runs = np.atleast_2d(np.asarray(runs, dtype=np.int64))
    first, second = np.triu_indices(runs.shape[0], k=1)
    p_values = np.ones((len(measures), first.size))
    for pair, (a, b) in enumerate(zip(first, second, strict=True)):
        p_values[:, pair] = paired_randomisation_test(gold, runs[a], runs[b], num_classes, measures, trials, rng)
        if progress is not None:
            progress(pair + 1, first.size)
    return PairwiseSignificance(
        list(names),
        list(run_names),
        pooled_scores(gold, runs, num_classes, measures),
        p_values,
        list(lower_is_better),
        trials,
    )
