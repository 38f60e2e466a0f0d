"""Kendall's tau, the one implementation: batched, O(n log n) per pair of rankings, compiled with numba.

It serves both the ranking agreement between measures (Sakai, ACL-IJCNLP 2021) and the consistency of a
measure's rankings over random topic splits (Sakai, CIKM 2021), with one tie rule (below).

:func:`kendall_tau` computes tau between ``x[..., :]`` and ``y[..., :]`` for every leading index at once
(e.g. trials x measures pairs of run rankings in the consistency analysis), in parallel over the batch,
with memory O(batch + threads x n): nothing of size batch x n x n or batch x n(n-1)/2 is ever built.

Algorithm (Knight, 1966, "A computer method for calculating Kendall's tau with ungrouped data", JASA 61)
for one pair of rankings of n items:

1. rank x and y by tie groups (see *Ties* below): integer ranks rx, ry in [0, groups);
2. sort the items by (rx, ry) (two stable counting sorts, O(n));
3. count the tied pairs: n1 (same rx), n2 (same ry), n3 (same rx and ry);
4. count the discordant pairs D as the strict inversions of the ry sequence in that order (pairs tied in
   x are in increasing ry order and pairs tied in y are not strict inversions, so neither is counted);
   Knight counts them with a merge sort, here a Fenwick tree over the ry ranks does it in the same
   O(n log n);
5. C - D = n0 - n1 - n2 + n3 - 2 D with n0 = n(n-1)/2, and

   * tau-b = (C - D) / sqrt((n0 - n1)(n0 - n2)), NaN if one ranking is all ties;
   * tau-a = (C - D) / n0: tied pairs count as neither concordant nor discordant but stay in the
     denominator (the papers' NTCIR tables).

Ties (the chain rule). Means of identical runs can differ in the last bit, so values are tied when they
are equal up to a relative tolerance: the values are sorted, and consecutive values whose gap is <=
tolerance * max(1, max |value|) (:data:`ordeval.stats.RANK_TIE_TOLERANCE`, 1e-12) join one tie group.
Unlike a pairwise rule ("a pair is tied when its difference is within the threshold", which is not
transitive), tie groups give every pair one answer; the two differ only for a chain of near-equal values
spanning more than the threshold (a, a + 0.6 eps, a + 1.2 eps), which rounding does not produce.

Importing this module imports numba; the kernel is compiled on first use and cached on disk
(``cache=True``: in ``__pycache__`` beside this file, or under ``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import numba
import numpy as np

from .stats import RANK_TIE_TOLERANCE

VARIANTS = ("a", "b")


@numba.njit(cache=True, inline="always")
def _group_ranks(values, order, ranks, tolerance):
    """Tie-group ranks of ``values`` into ``ranks`` (0, 1, ...); returns the number of groups, or -1
    if a value is NaN. ``order`` receives the argsort of ``values``."""
    n = values.shape[0]
    scale = 1.0
    for i in range(n):
        magnitude = abs(values[i])
        if magnitude != magnitude:  # NaN
            return -1
        scale = max(scale, magnitude)
    threshold = tolerance * scale
    sorted_order = np.argsort(values)
    group = 0
    previous = values[sorted_order[0]]
    for position in range(n):
        index = sorted_order[position]
        order[position] = index
        current = values[index]
        if current - previous > threshold:
            group += 1
        ranks[index] = group
        previous = current
    return group + 1


@numba.njit(cache=True, inline="always")
def _counting_sort(n, keys, groups, source, target, counts):
    """Stable counting sort of the first ``n`` items: ``target[:n]`` receives ``source[:n]`` ordered by
    ``keys[item]`` (integers 0 .. ``groups`` - 1); ``counts`` is scratch of length >= ``groups`` + 1."""
    counts[: groups + 1] = 0
    for i in range(n):
        counts[keys[i] + 1] += 1
    for g in range(groups):
        counts[g + 1] += counts[g]
    for position in range(n):
        item = source[position]
        target[counts[keys[item]]] = item
        counts[keys[item]] += 1


@numba.njit(cache=True, inline="always")
def _tau_one(x, y, tolerance, variant_a, rx, ry, order, buffer, counts, tree):
    """tau between x and y (1-d, length n) with scratch arrays of length >= n + 1."""
    n = x.shape[0]
    if n < 2:
        return np.nan
    groups_x = _group_ranks(x, order, rx, tolerance)
    groups_y = _group_ranks(y, order, ry, tolerance)
    if groups_x < 0 or groups_y < 0:
        return np.nan
    # Stable counting sort of the items by ry, then by rx: ``order`` ends sorted by (rx, ry).
    for i in range(n):
        order[i] = i
    _counting_sort(n, ry, groups_y, order, buffer, counts)
    _counting_sort(n, rx, groups_x, buffer, order, counts)
    # Tied pairs: n1 in x, n2 in y, n3 in both (runs of equal (rx, ry) in that order).
    n1 = np.int64(0)
    n3 = np.int64(0)
    run_x = np.int64(1)
    run_xy = np.int64(1)
    for position in range(1, n):
        i = order[position]
        j = order[position - 1]
        if rx[i] == rx[j]:
            run_x += 1
            if ry[i] == ry[j]:
                run_xy += 1
            else:
                n3 += run_xy * (run_xy - 1) // 2
                run_xy = 1
        else:
            n1 += run_x * (run_x - 1) // 2
            n3 += run_xy * (run_xy - 1) // 2
            run_x = 1
            run_xy = 1
    n1 += run_x * (run_x - 1) // 2
    n3 += run_xy * (run_xy - 1) // 2
    counts[: groups_y + 1] = 0
    for i in range(n):
        counts[ry[i]] += 1
    n2 = np.int64(0)
    for g in range(groups_y):
        n2 += counts[g] * (counts[g] - 1) // 2
    # Discordant pairs: earlier items (smaller rx) with a strictly larger ry. Fenwick tree over ry + 1.
    tree[: groups_y + 1] = 0
    discordant = np.int64(0)
    for position in range(n):
        rank = ry[order[position]] + 1
        # not_greater = number of earlier items with ry <= this one's
        not_greater = np.int64(0)
        k = rank
        while k > 0:
            not_greater += tree[k]
            k -= k & -k
        discordant += position - not_greater
        k = rank
        while k <= groups_y:
            tree[k] += 1
            k += k & -k
    pairs = np.int64(n) * (n - 1) // 2
    score = pairs - n1 - n2 + n3 - 2 * discordant  # C - D
    if variant_a:
        return score / pairs
    untied_x = pairs - n1
    untied_y = pairs - n2
    if untied_x == 0 or untied_y == 0:
        return np.nan
    return score / np.sqrt(np.float64(untied_x) * np.float64(untied_y))


@numba.njit(cache=True, parallel=True)
def _tau_batch(x, y, tolerance, variant_a, blocks, out):
    """out[i] = tau(x[i], y[i]) for the rows of the batch x n matrices, ``blocks`` blocks of rows in
    parallel, each with its own O(n) scratch."""
    batch, n = x.shape
    per_block = (batch + blocks - 1) // blocks
    for block in numba.prange(blocks):
        start = block * per_block
        stop = min(batch, start + per_block)
        if start >= stop:
            continue
        rx = np.empty(n + 1, dtype=np.int64)
        ry = np.empty(n + 1, dtype=np.int64)
        order = np.empty(n + 1, dtype=np.int64)
        buffer = np.empty(n + 1, dtype=np.int64)
        counts = np.empty(n + 2, dtype=np.int64)
        tree = np.empty(n + 2, dtype=np.int64)
        for row in range(start, stop):
            out[row] = _tau_one(x[row], y[row], tolerance, variant_a, rx, ry, order, buffer, counts, tree)


def kendall_tau(
    x: np.ndarray,
    y: np.ndarray,
    variant: str = "b",
    tolerance: float = RANK_TIE_TOLERANCE,
    threads: int | None = None,
) -> np.ndarray:
    """Kendall's tau between the rankings that ``x`` and ``y`` induce along their last axis, batched.

    ``x`` and ``y`` broadcast to shape (..., n); the result has shape (...) (a NumPy scalar for 1-d input).
    ``variant`` "b" gives tau-b (NaN where one ranking is all ties), "a" gives tau-a = (C - D) / (n(n-1)/2).
    Values within ``tolerance`` (relative, chain rule: see the module docstring) of each other are tied.
    NaN for n < 2 or where a row contains NaN. Runs in parallel over the batch on ``threads`` (default: numba's
    current number); the result does not depend on the number of threads.
    """
    if variant not in VARIANTS:
        raise ValueError(f"unknown Kendall's tau variant {variant!r}; known: {', '.join(VARIANTS)}")
    x, y = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    if x.ndim == 0:
        raise ValueError("Kendall's tau needs rankings (at least 1-d arrays)")
    shape, n = x.shape[:-1], x.shape[-1]
    if n < 2:
        return np.full(shape, np.nan)[()]
    flat_x = np.ascontiguousarray(x.reshape(-1, n))
    flat_y = np.ascontiguousarray(y.reshape(-1, n))
    out = np.empty(flat_x.shape[0])
    if out.size:
        previous = numba.get_num_threads()
        if threads:
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            blocks = min(out.size, 8 * numba.get_num_threads())
            _tau_batch(flat_x, flat_y, float(tolerance), variant == "a", blocks, out)
        finally:
            numba.set_num_threads(previous)
    return out.reshape(shape)[()]


def kendall_tau_a(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-a, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "a", tolerance)


def kendall_tau_b(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-b, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "b", tolerance)
