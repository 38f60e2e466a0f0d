"""Properties of the ordinal classification measures: the ACL 2021 paper's Table 4, columns (I)-(III),
and two further properties ordeval used before (kept under their own names).

Cases are confusion matrices ``c[i, j]`` (rows: SYSTEM class i, columns: GOLD class j), as the OC
measures take them (:mod:`ordeval.tasks.classification.measures`). The paper's cells (Sakai, ACL-IJCNLP
2021, Table 4), which the checks reproduce: kappa yes/no/yes; alpha_ORD, alpha_INT, CEM_ORD, MAE_M
yes/yes/yes; F1_M, HMPR no/yes/yes; MAE_mu yes/yes/no; Accuracy no/yes/no.
"""

from __future__ import annotations

import itertools

import numpy as np

from ordeval.stats import portable
from ordeval.tasks.measure_properties import Batch, Properties, Scorer

#: The properties of the classification measures, in the order they are defined below.
PROPERTIES = Properties("classification")


def confusion(gold, system, num_classes: int) -> np.ndarray:
    """One topic's confusion matrix (K, K) from label sequences: c[s, g] counts items with system s, gold g."""
    c = np.zeros((num_classes, num_classes), dtype=np.int64)
    np.add.at(c, (np.asarray(system, dtype=np.int64), np.asarray(gold, dtype=np.int64)), 1)
    return c


def constant_runs(gold_counts: np.ndarray) -> np.ndarray:
    """The K constant runs of gold counts (..., K): shape (..., K runs, K, K), run k's row k holds the counts."""
    gold_counts = np.asarray(gold_counts)
    k = gold_counts.shape[-1]
    runs = np.zeros(gold_counts.shape[:-1] + (k, k, k), dtype=gold_counts.dtype)
    index = np.arange(k)
    runs[..., index, index, :] = gold_counts[..., None, :]
    return runs


def _per_classes(rng, trials: int, classes: range, build) -> list[Batch]:
    """Split ``trials`` over the class counts; ``build(rng, k, n)`` makes a batch of n instances with k classes."""
    shares = np.full(len(classes), trials // len(classes))
    shares[: trials % len(classes)] += 1
    return [build(rng, k, int(n)) for k, n in zip(classes, shares, strict=True)]


def _stack(cases: list[dict[str, np.ndarray]], sizes: list[tuple[int, ...]]) -> Batch:
    if not cases:
        return Batch({}, np.zeros((0, 2), dtype=np.int64))
    return Batch({key: np.stack([case[key] for case in cases]) for key in cases[0]}, np.array(sizes, dtype=np.int64))


# --------------------------------------------------------------------------- (I) ordinal


def _exchange_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        cases, sizes = [], []
        for index in range(n):
            extra = 0 if index == 0 else int(rng.integers(0, 17))
            gold = list(range(k)) + rng.integers(0, k, extra).tolist()
            system = rng.integers(0, k, k + extra).tolist()
            g_a, s_a, s_b, g_b = sorted(rng.choice(k, 4, replace=False).tolist())
            before = confusion(gold + [g_a, g_b], system + [s_a, s_b], k)
            after = confusion(gold + [g_a, g_b], system + [s_b, s_a], k)
            cases.append({"before": before, "after": after})
            sizes.append((k, k + extra + 2))
        return _stack(cases, sizes)

    return _per_classes(rng, trials, range(4, 8), build)


@PROPERTIES.define("ordinal", "(I) ordinal", "all", _exchange_cases, paper=True)
def ordinal(score: Scorer, batch: Batch):
    """(I) ordinal: misclassifying into a farther class is penalised more (Sakai, ACL-IJCNLP 2021,
    Table 4 (I)).

    Take a topic with K >= 4 classes, every gold class non-empty, and two misclassified items a, b with
    gold and system classes g_a < s_a < s_b < g_b. Exchanging their system labels moves each label
    farther from its gold class and keeps the diagonal and both margins of the confusion matrix (so
    accuracy, every class's precision and recall and every chance term stay the same). The property:
    every such exchange makes the score strictly worse. Nominal measures (functions of the diagonal and
    margins) are exactly unchanged, so any such exchange is their counterexample. Moving a single label
    farther is not used: it changes the margins, and chance-corrected measures may then improve.
    """
    before, after = score(batch.arrays["before"]), score(batch.arrays["after"])
    return score.better(before, after), {"score before": before, "score after": after}


# --------------------------------------------------------------------------- (II) constant runs


def _distinct_counts_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        defining = [np.array(p) for p in itertools.permutations(range(1, k + 1))] if k <= 4 else []
        drawn = [rng.choice(np.arange(1, 41), k, replace=False) for _ in range(max(0, n - len(defining)))]
        counts = np.array(defining + drawn, dtype=np.int64)
        return Batch(
            {"gold counts": counts, "_constant runs": constant_runs(counts)},
            np.stack([np.full(len(counts), k), counts.sum(axis=1)], axis=1),
        )

    return _per_classes(rng, trials, range(3, 8), build)


@PROPERTIES.define("handles_constant", "(II) handles constant runs", "all", _distinct_counts_cases, paper=True)
def handles_constant(score: Scorer, batch: Batch):
    """(II) handles runs that always return one class: the measure scores such runs meaningfully and can
    tell them apart (Sakai, ACL-IJCNLP 2021, Table 4 (II): "kappa returns a zero for all topics for all
    such baseline systems", while "the alphas can evaluate the aforementioned baseline systems").

    The property: on every topic with K >= 3 classes whose gold counts are all non-zero and pairwise
    distinct, the K constant runs (all items in class k, k = 0..K-1) do not all get the same score. (Distinct
    counts rule out a gold that is symmetric under reversing the classes, on which a measure may rightly
    tie the mirrored constant runs; K >= 3 because macro-averaged MAE gives both constant runs 1/2 when
    K = 2.) Linear weighted kappa gives every constant run exactly 0 (its observed and expected
    disagreement coincide when the system margin is a point mass), so every such topic is its
    counterexample.
    """
    values = score(batch.arrays["_constant runs"])
    ok = np.isfinite(values).all(axis=-1) & ~score.same(values, values[..., :1]).all(axis=-1)
    return ok, {"constant runs score": values}


# --------------------------------------------------------------------------- (III) class imbalance


def _pair_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        cases, sizes = [], []
        for _ in range(n):
            first, second = (int(v) for v in rng.integers(1, 13, 2))
            one = confusion(rng.integers(0, k, first), rng.integers(0, k, first), k)
            two = confusion(rng.integers(0, k, second), rng.integers(0, k, second), k)
            cases.append({"topic 1": one, "topic 2": two})
            sizes.append((k, first + second))
        return _stack(cases, sizes)

    return _per_classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("handles_imbalance", "(III) handles class imbalance", "exists", _pair_cases, paper=True)
def handles_imbalance(score: Scorer, batch: Batch):
    """(III) handles class imbalance: the measure does not treat every item alike whatever the class
    sizes, i.e. it is not micro-averaged over the items (Sakai, ACL-IJCNLP 2021, Table 4 (III): "MAE_mu and
    Accuracy ignore class imbalance (Baccianella et al., 2009), unlike the other measures").

    A micro-averaged measure is an item average M(c) = (1/N) sum_ij c_ij f_ij of a per-item loss f that
    does not look at the class distribution; exactly those measures score a pooled topic c1 + c2 as the
    item-weighted mean (N1 M(c1) + N2 M(c2)) / (N1 + N2) of the two (additivity over the items forces the
    linear form). The property: some pair of topics is scored otherwise -- macro-averaging over the gold
    classes, chance correction or class-size-informed proximity all make it so. Existential: the smallest
    such pair found is the witness; for Accuracy (f_ij = [i != j]) and MAE_mu (f_ij = |i - j|) there is
    none, by the identity above.
    """
    one, two = batch.arrays["topic 1"], batch.arrays["topic 2"]
    n1, n2 = one.sum(axis=(-2, -1)), two.sum(axis=(-2, -1))
    s1, s2, pooled = score(one), score(two), score(one + two)
    weighted = (n1 * s1 + n2 * s2) / (n1 + n2)
    ok = np.isfinite(pooled) & np.isfinite(weighted) & ~score.same(pooled, weighted)
    return ok, {"score 1": s1, "score 2": s2, "pooled": pooled, "item-weighted mean": weighted}


# --------------------------------------------------------------------------- ordeval's earlier (II), (III)


def _gold_counts(rng, k: int, n: int, high: int, log: bool) -> np.ndarray:
    if log:
        counts = np.floor(portable.exp(rng.uniform(0, portable.log(high + 1), (n, k)))).astype(np.int64) - 1
        counts[rng.random((n, k)) < 0.2] = 0
    else:
        counts = rng.integers(0, high + 1, (n, k))
    for row in counts:  # at least two non-empty gold classes
        if np.count_nonzero(row) < 2:
            row[rng.choice(k, 2, replace=False)] = rng.integers(1, high + 1, 2)
    return counts


def _chance_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        counts = _gold_counts(rng, k, n, 60, log=False)
        if k == 3:
            counts[0] = [3, 4, 3]  # the defining case: the middle-class run beats chance for MAE_M, Accuracy, ...
        chance = counts[:, :, None] * counts[:, None, :] / counts.sum(axis=1)[:, None, None]
        return Batch(
            {"gold counts": counts, "_chance run": chance, "_constant runs": constant_runs(counts)},
            np.stack([np.full(n, k), counts.sum(axis=1)], axis=1),
        )

    return _per_classes(rng, trials, range(2, 8), build)


@PROPERTIES.define("constant_no_better_than_chance", "constant runs no better than chance", "all", _chance_cases)
def constant_no_better_than_chance(score: Scorer, batch: Batch):
    """A run that always returns one class is not rewarded (ordeval's earlier reading of Table 4 (II), kept
    as a property of its own). On every topic with at least two non-empty gold classes, every constant run
    scores no better than the chance-level run: the expected confusion matrix c_ij = c_.i c_.j / N of a run
    labelling items at random with the gold's own class distribution. Chance-corrected measures give both
    their zero point (kappa 0 to both; the alphas give the chance run 1/(2N)).
    """
    chance = score(batch.arrays["_chance run"])
    constants = score(batch.arrays["_constant runs"])
    ok = np.isfinite(chance) & np.isfinite(constants).all(axis=-1)
    ok &= ~score.better(constants, chance[..., None]).any(axis=-1)
    return ok, {"chance run score": chance, "constant runs score": constants}


def _majority_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        counts = _gold_counts(rng, k, n, 10**6, log=True)
        majority = constant_runs(counts)[np.arange(n), np.argmax(counts, axis=1)]
        perfect = np.zeros((n, k, k), dtype=np.int64)
        perfect[:, np.arange(k), np.arange(k)] = counts
        return Batch(
            {"gold counts": counts, "_majority run": majority, "_perfect run": perfect},
            np.stack([np.full(n, k), counts.sum(axis=1)], axis=1),
        )

    return _per_classes(rng, trials, range(2, 8), build)


@PROPERTIES.define("majority_run_far_from_perfect", "majority run far from perfect", "all", _majority_cases)
def majority_run_far_from_perfect(score: Scorer, batch: Batch):
    """Class imbalance cannot make a majority-class run look nearly perfect (ordeval's earlier reading of
    Table 4 (III), kept as a property of its own). On every topic with at least two non-empty gold classes,
    the run that always returns the gold's majority class (the first one on a tie) scores at least 1/2 away
    from the perfect run's score (the run that returns every item's gold class). Micro-averaged measures,
    and CEM_ORD, fail: their gap tends to 0 as the majority class grows.
    """
    majority, perfect = score(batch.arrays["_majority run"]), score(batch.arrays["_perfect run"])
    with np.errstate(invalid="ignore"):
        ok = np.abs(majority - perfect) >= 0.5 - score.tolerance
    return ok, {"majority run score": majority, "perfect run score": perfect}
