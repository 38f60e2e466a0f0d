"""The compiled kernel of Kendall's tau for long rankings (numba): O(n log n) per pair of rankings, memory
O(n) per thread. :func:`ordeval.stats.kendall.kendall_tau` calls it for rankings of more than
:data:`ordeval.stats.kendall.SHORT` items (its docstring gives the algorithm and the tie rule); shorter ones are
counted pair by pair in numpy, which needs no compilation and no numba.

Compiled on first use and cached on disk (``cache=True``: in ``__pycache__`` beside this file, or under
``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import numba
import numpy as np


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


@numba.njit(cache=True, nogil=True)
def tau_rows(x, y, tolerance, variant_a, start, stop, out):
    """out[i] = tau(x[i], y[i]) for the rows start..stop-1 of the batch x n matrices, with O(n) scratch.
    Releases the GIL: threads run disjoint row ranges at once."""
    n = x.shape[1]
    rx = np.empty(n + 1, dtype=np.int64)
    ry = np.empty(n + 1, dtype=np.int64)
    order = np.empty(n + 1, dtype=np.int64)
    buffer = np.empty(n + 1, dtype=np.int64)
    counts = np.empty(n + 2, dtype=np.int64)
    tree = np.empty(n + 2, dtype=np.int64)
    for row in range(start, stop):
        out[row] = _tau_one(x[row], y[row], tolerance, variant_a, rx, ry, order, buffer, counts, tree)
