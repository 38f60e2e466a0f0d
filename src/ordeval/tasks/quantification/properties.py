"""Properties of the ordinal quantification measures: ordinal awareness, and the behaviours of DNKT that
Sakai's study of the RNOD variants and DNKT (arXiv:2204.07304) describes -- it scores the priority
(the order of the classes by probability) rather than the amounts, so an estimate that keeps the gold's
order is perfect, and a uniform gold or estimate (all classes tied) gets 0.5 whatever the other.

Cases are distributions over K ordered classes, ``estimate`` and ``gold`` as the OQ measures take them
(:mod:`ordeval.tasks.quantification.measures`); the random ones lie on a grid of multiples of 1/d
(d = 2..20), so that examples read easily and ties occur.
"""

from __future__ import annotations

import numpy as np

from ordeval.tasks.measure_properties import Batch, Properties, Scorer

#: The properties of the quantification measures, in the order they are defined below.
PROPERTIES = Properties("quantification")
#: Grid denominators of the random distributions.
GRID = range(2, 21)


def grid_distributions(rng, count: int, k: int, denominators: np.ndarray) -> np.ndarray:
    """``count`` distributions over ``k`` classes, each a multiple of 1/d for its own d (count,)."""
    weights = rng.dirichlet(np.ones(k), count)
    return np.stack([rng.multinomial(d, w) for d, w in zip(denominators, weights, strict=True)]) / denominators[:, None]


def non_uniform(distributions: np.ndarray) -> np.ndarray:
    """``distributions`` with every uniform one replaced by a point mass on the first class."""
    k = distributions.shape[-1]
    flat = np.abs(distributions - 1.0 / k).max(axis=-1) < 1e-9
    distributions[flat] = np.eye(k)[0]
    return distributions


def uniform(k: int, count: int = 1) -> np.ndarray:
    return np.full((count, k), 1.0 / k)


def _classes(rng, trials: int, classes: range, build) -> list[Batch]:
    shares = np.full(len(classes), trials // len(classes))
    shares[: trials % len(classes)] += 1
    return [build(rng, k, int(n)) for k, n in zip(classes, shares, strict=True) if n]


def _denominators(rng, n: int) -> np.ndarray:
    return rng.integers(GRID.start, GRID.stop, n)


def _sizes(k: int, denominators: np.ndarray) -> np.ndarray:
    return np.stack([np.full(len(denominators), k), denominators], axis=1)


# --------------------------------------------------------------------------- ordinal awareness


def _permutation_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        d = _denominators(rng, n)
        estimate, gold = grid_distributions(rng, n, k, d), grid_distributions(rng, n, k, d)
        order = np.argsort(rng.random((n, k)), axis=1)
        same = (order == np.arange(k)).all(axis=1)
        order[same] = np.arange(k)[::-1]  # never the identity
        pick = np.take_along_axis
        arrays = {
            "estimate": estimate,
            "gold": gold,
            "classes relabelled": order,
            "_estimate": pick(estimate, order, axis=1),
            "_gold": pick(gold, order, axis=1),
        }
        return Batch(arrays, _sizes(k, d))

    return _classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("ordinal", "ordinal", "exists", _permutation_cases)
def ordinal(score: Scorer, batch: Batch):
    """Ordinal: the score depends on the order of the classes. A nominal measure is invariant under
    relabelling the classes (the same permutation applied to the estimate and the gold); the property:
    some estimate, gold and permutation change the score. This is the sense in which Sakai (ACL-IJCNLP
    2021, Sect. 4) calls NMD, RSNOD and RNOD ordinal and NVD, RNSS and JSD nominal. Existential: the
    smallest witness found is shown; NVD, RNSS, JSD (sums of per-class terms) and DNKT (pairwise orders of
    the classes, which a relabelling only renames) have none.
    """
    before = score(batch.arrays["estimate"], batch.arrays["gold"])
    after = score(batch.arrays["_estimate"], batch.arrays["_gold"])
    ok = np.isfinite(before) & np.isfinite(after) & ~score.same(before, after)
    return ok, {"score": before, "score relabelled": after}


def _transport_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        gold, near, far, sizes = [], [], [], []
        for _ in range(n):
            i, j, far_j = sorted(rng.choice(k, 3, replace=False).tolist())
            if rng.random() < 0.5:
                i, j, far_j = far_j, j, i  # mass moved downwards
            d = int(rng.integers(1, 11))
            moved = int(rng.integers(1, d + 1)) / d
            point = np.eye(k)[i]
            gold.append(point)
            near.append(point + moved * (np.eye(k)[j] - point))
            far.append(point + moved * (np.eye(k)[far_j] - point))
            sizes.append((k, d))
        arrays = {"gold": np.array(gold), "estimate near": np.array(near), "estimate far": np.array(far)}
        return Batch(arrays, np.array(sizes, dtype=np.int64))

    return _classes(rng, trials, range(3, 9), build)


@PROPERTIES.define("farther_is_worse", "farther is worse", "all", _transport_cases)
def farther_is_worse(score: Scorer, batch: Batch):
    """Farther is worse: misplaced probability mass costs more the farther it lands from the gold (the
    intuition behind the ordinal OQ measures, Sakai, ACL-IJCNLP 2021, Sect. 4). For a
    gold that puts all its mass in one class i (the case where the distance of a misplacement is plain),
    moving a share e (0 < e <= 1) of it to a class j must score strictly better than moving it to a class
    j' beyond j on the same side (i < j < j' or j' < j < i). NMD is the share times |i - j| / (K - 1).
    Measures whose class distance comes from the gold mass (RNOD2, RNADW2) see every class without gold
    mass as equally far and fail; so do the nominal ones.
    """
    gold = batch.arrays["gold"]
    near, far = score(batch.arrays["estimate near"], gold), score(batch.arrays["estimate far"], gold)
    return score.better(near, far), {"score near": near, "score far": far}


# --------------------------------------------------------------------------- the perfect estimate and uniform cases


def _perfect_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        d = _denominators(rng, n)
        gold, other, estimate = (grid_distributions(rng, n, k, d) for _ in range(3))
        gold[0] = 1.0 / k  # the defining case: a uniform gold
        other[0] = np.eye(k)[0]
        return Batch({"gold": gold, "other gold": other, "estimate": estimate}, _sizes(k, d))

    return _classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("perfect_estimate", "perfect estimate is best", "all", _perfect_cases)
def perfect_estimate(score: Scorer, batch: Batch):
    """The perfect estimate is best, equally on every gold: for all golds g, h and estimates p,
    M(g, g) = M(h, h) and no p scores better than M(g, g) on g. DNKT fails on a uniform gold: every pair of
    classes is tied in it, tau_b = 0 and DNKT(g, g) = 0.5, against 0 on any other gold (Sakai,
    arXiv:2204.07304: if either distribution is uniform, DNKT = 0.5).
    """
    gold, other = batch.arrays["gold"], batch.arrays["other gold"]
    perfect, reference = score(gold, gold), score(other, other)
    estimate = score(batch.arrays["estimate"], gold)
    ok = score.same(perfect, reference) & ~score.better(estimate, perfect) & np.isfinite(estimate)
    return ok, {"score of gold on itself": perfect, "score of other gold on itself": reference, "score": estimate}


def _uniform_gold_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        d = _denominators(rng, n)
        estimate = non_uniform(grid_distributions(rng, n, k, d))
        return Batch({"estimate": estimate, "_gold": uniform(k, n)}, _sizes(k, d))

    return _classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("uniform_gold", "tells estimates apart on a uniform gold", "all", _uniform_gold_cases)
def uniform_gold(score: Scorer, batch: Batch):
    """On a uniform gold u (every class 1/K), every other estimate p scores strictly worse than u itself.
    DNKT gives 0.5 to every estimate on a uniform gold (all of its pairs are tied; Sakai, arXiv:2204.07304),
    so any p is its counterexample.
    """
    gold = batch.arrays["_gold"]
    estimate, itself = score(batch.arrays["estimate"], gold), score(gold, gold)
    return score.better(itself, estimate), {"score": estimate, "score of the uniform estimate": itself}


def _graded_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        d = _denominators(rng, n)
        gold = non_uniform(grid_distributions(rng, n, k, d))
        steps = np.sort(rng.choice(np.arange(1, 10), (n, 2)), axis=1) / 10.0
        steps[:, 1] = np.where(steps[:, 0] == steps[:, 1], steps[:, 1] + 0.05, steps[:, 1])
        near, far = (uniform(k, n) + steps[:, [c]] * (gold - uniform(k, n)) for c in (0, 1))
        arrays = {"gold": gold, "weights s, t": steps, "_near": near, "_far": far, "_uniform": uniform(k, n)}
        return Batch(arrays, _sizes(k, d))

    return _classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("uniform_estimate_graded", "uniform estimate graded", "all", _graded_cases)
def uniform_estimate_graded(score: Scorer, batch: Batch):
    """The uniform estimate u is graded by how far the gold is from uniform: for a non-uniform g and
    0 < s < t < 1, with g_s = u + s (g - u), u scores strictly better on g_s than on g_t. (t < 1 keeps every
    class of g_t non-empty, so measures that average over the gold's non-empty classes compare like with
    like.) DNKT gives u 0.5 on every gold (Sakai, arXiv:2204.07304), so it fails.
    """
    u = batch.arrays["_uniform"]
    near, far = score(u, batch.arrays["_near"]), score(u, batch.arrays["_far"])
    return score.better(near, far), {"score on g_s": near, "score on g_t": far}


def _order_cases(rng, trials: int) -> list[Batch]:
    def build(rng, k, n):
        d = _denominators(rng, n)
        gold = non_uniform(grid_distributions(rng, n, k, d))
        estimate, sizes = np.empty_like(gold), _sizes(k, d)
        for row, g in enumerate(gold):  # small integer weights in the gold's order, ties kept
            levels, rank = np.unique(np.round(g, 12), return_inverse=True)
            values = np.sort(rng.choice(np.arange(1, 2 * len(levels) + 2), len(levels), replace=False))[rank]
            estimate[row] = values / values.sum()
            sizes[row, 1] = max(sizes[row, 1], values.sum())  # the grid of the coarser of the two
        return Batch({"estimate": estimate, "gold": gold}, sizes)

    return _classes(rng, trials, range(2, 7), build)


@PROPERTIES.define("priority_preserving", "priority preserving", "all", _order_cases)
def priority_preserving(score: Scorer, batch: Batch):
    """Priority preserving: an estimate that orders the classes by probability exactly as the gold does
    (every pair of classes tied in both or ordered the same way in both) scores as well as the gold itself,
    on every non-uniform gold. This is what DNKT measures (Sakai, arXiv:2204.07304: DNKT = (1 - tau_b)/2,
    e.g. gold (0.4, 0.3, 0.2, 0.1) and estimate (0.31, 0.30, 0.20, 0.19) give DNKT = 0); measures of the
    amounts (NMD, RNOD, JSD, ...) fail on any estimate that differs from the gold.
    """
    gold = batch.arrays["gold"]
    estimate, itself = score(batch.arrays["estimate"], gold), score(gold, gold)
    return score.same(estimate, itself), {"score": estimate, "score of the gold itself": itself}
