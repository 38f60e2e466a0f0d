"""Baselines for the benchmarks: a bare numba kernel and a vectorised numpy version of the randomised
Tukey HSD null distribution (SPEC 4.3), and a numpy / scipy Kendall's tau.

Not part of the library: imported by the scripts of this folder, which run as
``python benchmarks/<name>.py`` (Python puts the script's folder on the import path) with ``ordeval``
installed (``pip install -e .``) or on ``PYTHONPATH`` (``PYTHONPATH=$PWD/src``).

* :func:`bare_null_ranges` -- what a competent numba user writes in an afternoon: parallel over trials,
  per topic a Fisher-Yates shuffle then the permuted row added to the system sums, then the range. Same
  data layout (topics x systems x measures, measures contiguous) and *the same random-number cost* as
  ordeval's kernel (SplitMix64 per trial, batched unbiased Lemire bounded integers: the very function
  ordeval uses), so the comparison measures what ordeval adds or saves around the random draws (tiling,
  fused loops, p-values, input checks), not a slower generator.
* :func:`numpy_null_ranges` -- what a competent numpy user writes: per block of trials, random
  permutations as the argsort of a uniform block x topics x systems matrix, fancy indexing, sum, range;
  blocks spread over a thread pool (numpy releases the GIL in argsort and indexing), so it can use the
  same threads.
* :func:`c_null_ranges` -- ``hsd_floor.c``, the same algorithm as ordeval's kernel in C (same streams,
  same ranges bit for bit), compiled here with ``-O3 -march=native -fopenmp``: the floor of the
  algorithm on this machine. ``None`` where no C compiler with OpenMP is found.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import numba
import numpy as np
from scipy import stats as scipy_stats

from ordeval.stats.hsd import _swap_indices, draw_plan, trial_seeds


@numba.njit(cache=True, parallel=True)
def _bare(scores, seeds, starts, lengths, products, ranges):
    num_topics, num_systems, num_measures = scores.shape
    for trial in numba.prange(seeds.shape[0]):
        state = seeds[trial]
        permutation = np.arange(num_systems)
        indices = np.zeros(num_systems, dtype=np.int64)
        sums = np.zeros((num_systems, num_measures))
        for topic in range(num_topics):
            state = _swap_indices(state, starts, lengths, products, indices)
            for last in range(num_systems - 1, 0, -1):
                other = indices[last]
                permutation[last], permutation[other] = permutation[other], permutation[last]
            for system in range(num_systems):
                source = permutation[system]
                for measure in range(num_measures):
                    sums[system, measure] += scores[topic, source, measure]
        for measure in range(num_measures):
            highest = sums[0, measure]
            lowest = highest
            for system in range(1, num_systems):
                highest = max(highest, sums[system, measure])
                lowest = min(lowest, sums[system, measure])
            ranges[trial, measure] = (highest - lowest) / num_topics


def bare_null_ranges(layout: np.ndarray, trials: int, rng: np.random.Generator, threads: int) -> np.ndarray:
    """trials x measures ranges of the permuted system means; ``layout`` is topics x systems x measures
    (C-contiguous, as ordeval's kernel gets it). Only permute, average, take the range."""
    seeds = trial_seeds(rng, trials)
    ranges = np.empty((trials, layout.shape[2]))
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        _bare(layout, seeds, *draw_plan(layout.shape[1]), ranges)
    finally:
        numba.set_num_threads(previous)
    return ranges


def _numpy_block(layout: np.ndarray, trials: int, rng: np.random.Generator) -> np.ndarray:
    topics, systems, _ = layout.shape
    permutations = rng.random((trials, topics, systems)).argsort(axis=2)
    sums = layout[np.arange(topics)[None, :, None], permutations].sum(axis=1)  # trials x systems x measures
    return (sums.max(axis=1) - sums.min(axis=1)) / topics


def numpy_null_ranges(
    layout: np.ndarray, trials: int, rng: np.random.Generator, threads: int, block_bytes: int = 1 << 25
) -> np.ndarray:
    """The same ranges with numpy only, in blocks of trials whose gathered block x topics x systems x
    measures array has about ``block_bytes`` (32 MiB), on ``threads`` threads (independent streams)."""
    topics, systems, measures = layout.shape
    block = max(1, min(trials, block_bytes // (8 * topics * systems * measures)))
    sizes = [min(block, trials - start) for start in range(0, trials, block)]
    streams = rng.spawn(len(sizes))
    with ThreadPoolExecutor(max_workers=threads) as pool:
        parts = list(pool.map(lambda job: _numpy_block(layout, *job), zip(sizes, streams, strict=True)))
    return np.concatenate(parts)


def p_values_from_ranges(stack: np.ndarray, ranges: np.ndarray) -> np.ndarray:
    """measures x systems x systems p-values from trials x measures null ranges (ordeval's rule)."""
    means = stack.mean(axis=1)
    differences = np.abs(means[:, :, None] - means[:, None, :])
    slack = 1e-12 * np.maximum(1.0, np.abs(means).max(axis=1))
    sorted_ranges = np.sort(ranges.T, axis=1)
    trials = ranges.shape[0]
    p_values = np.empty_like(differences)
    for measure in range(stack.shape[0]):
        below = np.searchsorted(sorted_ranges[measure], differences[measure] - slack[measure], side="left")
        p_values[measure] = (trials - below) / trials
    return p_values


C_SOURCE = Path(__file__).resolve().parent / "hsd_floor.c"


@cache
def _c_library() -> ctypes.CDLL | None:
    """``hsd_floor.c`` compiled into a temporary folder (removed at exit), or None without a compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="ordeval-hsd-floor-"))
    atexit.register(shutil.rmtree, folder, True)
    library = folder / "libhsd_floor.so"
    command = [compiler, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", str(C_SOURCE), "-o", str(library)]
    if subprocess.run(command, capture_output=True, check=False).returncode != 0:
        return None
    loaded = ctypes.CDLL(str(library))
    pointer = np.ctypeslib.ndpointer
    i64 = ctypes.c_int64
    loaded.null_ranges.restype = None
    loaded.null_ranges.argtypes = [
        pointer(np.float64, flags="C_CONTIGUOUS"),
        i64,
        i64,
        i64,
        i64,
        pointer(np.uint64, flags="C_CONTIGUOUS"),
        i64,
        i64,
        pointer(np.int64, flags="C_CONTIGUOUS"),
        pointer(np.int64, flags="C_CONTIGUOUS"),
        pointer(np.uint64, flags="C_CONTIGUOUS"),
        i64,
        ctypes.c_int,
        pointer(np.float64, flags="C_CONTIGUOUS"),
    ]
    return loaded


def c_available() -> bool:
    return _c_library() is not None


def c_null_ranges(layout: np.ndarray, measures: int, seeds: np.ndarray, threads: int, block: int) -> np.ndarray:
    """trials x ``measures`` ranges from ``hsd_floor.c`` for the trial ``seeds`` (uint64), on ``layout``
    (topics x systems x width, C-contiguous, the first ``measures`` columns real): with ordeval's seeds
    and layout, ordeval's ranges exactly. Blocks of ``block`` trials (as ordeval's ``trial_block``)."""
    library = _c_library()
    if library is None:
        raise RuntimeError("no C compiler with OpenMP: the C reference kernel is not available")
    topics, systems, width = layout.shape
    starts, lengths, products = draw_plan(systems)
    ranges = np.empty((seeds.shape[0], measures))
    library.null_ranges(
        np.ascontiguousarray(layout),
        topics,
        systems,
        width,
        measures,
        np.ascontiguousarray(seeds, dtype=np.uint64),
        seeds.shape[0],
        starts.shape[0],
        starts,
        lengths,
        products,
        block,
        threads,
        ranges,
    )
    return ranges


def numpy_pairwise_tau(x: np.ndarray, y: np.ndarray, tolerance: float = 1e-12) -> np.ndarray:
    """tau-b by the O(n^2) pairs, vectorised over the batch: the signs of all n(n-1)/2 pair differences at
    once (memory batch x n^2), ties within ``tolerance`` relative (as ordeval's, pair by pair)."""

    def signs(values: np.ndarray) -> np.ndarray:
        first, second = np.triu_indices(values.shape[-1], k=1)
        difference = values[..., first] - values[..., second]
        scale = np.maximum(1.0, np.abs(values).max(axis=-1, keepdims=True))
        return np.where(np.abs(difference) <= tolerance * scale, 0, np.sign(difference))

    sx, sy = np.broadcast_arrays(signs(np.asarray(x, float)), signs(np.asarray(y, float)))
    numerator = (sx * sy).sum(axis=-1)
    denominator = np.sqrt(np.count_nonzero(sx, axis=-1) * np.count_nonzero(sy, axis=-1).astype(float))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def scipy_loop_tau(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """tau-b with scipy.stats.kendalltau (O(n log n), one call per pair of rankings)."""
    flat_x, flat_y = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1])
    taus = [scipy_stats.kendalltau(a, b).statistic for a, b in zip(flat_x, flat_y, strict=True)]
    return np.array(taus).reshape(x.shape[:-1])
