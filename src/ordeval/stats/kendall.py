"""Kendall's tau, the one implementation: batched, with one tie rule, counted pair by pair in numpy for short
rankings and in O(n log n) by a compiled kernel (numba) for long ones.

It serves both the ranking agreement between measures (Sakai, ACL-IJCNLP 2021) and the consistency of a
measure's rankings over random topic splits (Sakai, CIKM 2021), with one tie rule (below).

:func:`kendall_tau` computes tau between ``x[..., :]`` and ``y[..., :]`` for every leading index at once
(e.g. trials x measures pairs of run rankings in the consistency analysis), in parallel over the batch,
with memory O(batch + threads x n) for long rankings, and at most :data:`CHUNK` pair signs at once for short
ones.

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
tolerance * max(1, max |value|) (:data:`ordeval.stats.intervals.RANK_TIE_TOLERANCE`, 1e-12) join one tie group.
Unlike a pairwise rule ("a pair is tied when its difference is within the threshold", which is not
transitive), tie groups give every pair one answer; the two differ only for a chain of near-equal values
spanning more than the threshold (a, a + 0.6 eps, a + 1.2 eps), which rounding does not produce.

Short rankings (at most :data:`SHORT` items: the run sets of the papers have 12 to 31) are counted pair by pair,
with the same tie groups (:func:`ordeval.stats.intervals.tie_group_ranks`) and the same arithmetic (C - D an integer,
one division, one square root): the same bits as the kernel, in batches of a bounded size, and no numba to
import or compile (~0.4 s of a job's start, ~5 s to compile on a fresh checkout). Longer ones go to the
kernel (:mod:`ordeval.stats.kendall_kernel`, the algorithm above), compiled on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np

from ordeval.stats.intervals import RANK_TIE_TOLERANCE, tie_group_ranks
from ordeval.stats.threads import run_ranges, usable_cpus

VARIANTS = ("a", "b")
#: Rankings of at most this many items are counted pair by pair in numpy (n^2 signs per pair of rankings).
SHORT = 64
#: Pair signs (int8) per chunk of the numpy count: 2^22 (4 MiB).
CHUNK = 1 << 22


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
    NaN for n < 2 or where a row contains NaN. Long rankings (n > :data:`SHORT`) run on ``threads`` threads
    (default: every CPU this process may use); the result depends on neither the threads nor the path taken.
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
    if out.size and n <= SHORT:
        step = max(1, CHUNK // (n * n))
        for start in range(0, out.size, step):
            stop = min(out.size, start + step)
            out[start:stop] = _short_taus(flat_x[start:stop], flat_y[start:stop], tolerance, variant == "a")
    elif out.size:
        _kernel_taus(flat_x, flat_y, float(tolerance), variant == "a", out, threads or usable_cpus())
    return out.reshape(shape)[()]


def _short_taus(x: np.ndarray, y: np.ndarray, tolerance: float, variant_a: bool) -> np.ndarray:
    """tau of each row pair of the batch x n matrices, from the n x n signs of the tie-group ranks."""
    n = x.shape[1]
    missing = np.isnan(x).any(axis=1) | np.isnan(y).any(axis=1)
    signs = []
    for values in (x, y):
        ranks = tie_group_ranks(np.where(missing[:, None], 0.0, values), tolerance).astype(np.int8)  # n <= SHORT
        signs.append(np.sign(ranks[:, :, None] - ranks[:, None, :]))
    score = np.einsum("bij,bij->b", signs[0], signs[1], dtype=np.int64) // 2  # C - D: each pair twice
    pairs = n * (n - 1) // 2
    if variant_a:
        taus = score / pairs
    else:
        untied_x = (np.count_nonzero(signs[0], axis=(1, 2)) // 2).astype(np.int64)
        untied_y = (np.count_nonzero(signs[1], axis=(1, 2)) // 2).astype(np.int64)
        defined = (untied_x > 0) & (untied_y > 0)
        denominator = np.sqrt(untied_x.astype(float) * untied_y.astype(float))
        taus = np.where(defined, score / np.where(defined, denominator, 1.0), np.nan)
    return np.where(missing, np.nan, taus)


def _kernel_taus(x, y, tolerance: float, variant_a: bool, out: np.ndarray, threads: int) -> None:
    """The compiled kernel over the rows, in ``threads`` disjoint ranges at once (it releases the GIL)."""
    from ordeval.stats.kendall_kernel import tau_rows  # numba: imported only where long rankings are ranked

    run_ranges(lambda start, stop: tau_rows(x, y, tolerance, variant_a, start, stop, out), out.size, threads)


def kendall_tau_a(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-a, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "a", tolerance)


def kendall_tau_b(x: np.ndarray, y: np.ndarray, tolerance: float = RANK_TIE_TOLERANCE) -> np.ndarray:
    """tau-b, see :func:`kendall_tau`."""
    return kendall_tau(x, y, "b", tolerance)
