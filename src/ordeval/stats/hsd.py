"""Randomised Tukey HSD test (docs/methods.md 4.3), its trial loop compiled with numba.

The kernel: every trial has its own SplitMix64 stream, seeded from the caller's numpy Generator, so the
result depends on the seed only (not on the number of threads or the blocking); each topic's permutation
is a Fisher-Yates shuffle whose swap indices are unbiased bounded integers drawn in batches (several
swaps from one 32-bit word, Lemire's method on the product of their bounds); the trials are tiled in
blocks so that a topic's row is applied to a block of trials while it is in cache.

Importing this module imports numba (~0.3 s): only the jobs that run the test do. The kernel is compiled
on first use (~2 s) and cached on disk (``cache=True``: ``__pycache__`` beside this file, or
``NUMBA_CACHE_DIR``). Threads are Python threads over disjoint ranges of blocks (the kernel releases the GIL):
numba's parallel loops would take ~5 s more to compile, in every fresh checkout and test process, for the
same speed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numba
import numpy as np

from ordeval.stats.threads import run_ranges, usable_cpus

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)


@numba.njit(cache=True, inline="always")
def _splitmix64(state):
    """Next (state, 64 random bits) of the SplitMix64 generator."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return state, z ^ (z >> np.uint64(31))


#: Bounded integers are drawn in batches: one 32-bit random word gives the indices of several Fisher-Yates
#: swaps whose bounds multiply to at most this (so that Lemire's rejection test runs with probability
#: <= 1/16 and rejects with probability <= 1/16).
_BATCH_PRODUCT_LIMIT = 1 << 28


def draw_plan(num_systems: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How one Fisher-Yates shuffle of ``num_systems`` items draws its swap indices.

    The swap at position ``last`` (num_systems - 1 down to 1) needs a uniform integer in [0, last].
    Consecutive swaps are grouped into chunks whose bounds multiply to at most 2^28; chunk c takes
    the high (c even) or low (c odd) 32 bits of the (c // 2)-th 64-bit draw. Returns the chunks'
    first positions, lengths and products of bounds.
    """
    if num_systems > 1 << 31:
        raise ValueError(f"too many systems for 32-bit bounded integers: {num_systems}")
    starts, lengths, products = [], [], []
    last = num_systems - 1
    while last >= 1:
        starts.append(last)
        product, length = 1, 0
        while last >= 1 and (length == 0 or product * (last + 1) <= _BATCH_PRODUCT_LIMIT):
            product *= last + 1
            last -= 1
            length += 1
        lengths.append(length)
        products.append(product)
    return (np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int64), np.array(products, dtype=np.uint64))


@numba.njit(cache=True, inline="always")
def _swap_indices(state, starts, lengths, products, indices):
    """Fill indices[last] (last = n - 1 .. 1) with independent uniform integers in [0, last]: batched
    Lemire (Brackett-Rozinsky and Lemire 2024, "Batched ranged random integer generation"). For a chunk
    with bounds b1..bk and product P, the 32-bit word r gives r * b1 = a1 2^32 + l1, l1 * b2 = a2 2^32 + l2,
    ...: r * P = (mixed-radix a1..ak) 2^32 + lk, so rejecting lk < 2^32 mod P makes a1..ak unbiased
    exactly as Lemire's single bounded integer. Returns the new generator state."""
    bits = np.uint64(0)
    for chunk in range(starts.shape[0]):
        if chunk % 2 == 0:
            state, bits = _splitmix64(state)
            word = bits >> np.uint64(32)
        else:
            word = bits & _LOW32
        first = starts[chunk]
        product = products[chunk]
        while True:
            low = word
            for step in range(lengths[chunk]):
                last = first - step
                wide = low * np.uint64(last + 1)
                indices[last] = np.int64(wide >> np.uint64(32))
                low = wide & _LOW32
            if low >= product:  # cannot be in the rejection zone (2^32 mod P < P)
                break
            if low >= ((_LOW32 + np.uint64(1)) - product) % product:
                break
            state, fresh = _splitmix64(state)  # rare: redraw this chunk
            word = fresh >> np.uint64(32)
    return state


@numba.njit(cache=True, nogil=True)
def _null_ranges(scores, seeds, starts, lengths, products, block, first_block, last_block, ranges):
    """For trial b (seeded by seeds[b]), permute every topic's row of ``scores`` (topics x systems x
    measures) across systems (Fisher-Yates, the same permutation for every measure), sum per system and
    store (max - min) / topics per measure in ranges[b].

    Tiled for the cache: the trials are processed in blocks of ``block``, and each topic's row
    (systems x measures) is applied to all the trials of a block while it is in L1, the block's sums
    (block x systems x measures) staying in L2; so the whole matrix is read once per block instead of
    once per trial (2,000 topics x 100 systems x 13 measures is 21 MB). It runs the blocks first_block ..
    last_block - 1 and releases the GIL, so threads run disjoint block ranges at once. Each
    trial has its own random stream and its sums run over the topics in order, so the result depends
    on ``seeds`` only: not on the blocking or the number of threads.

    ``scores`` may have more measures than ``ranges`` (zero columns that pad each row to a multiple of
    the SIMD width, so that the inner sum runs in vector instructions without a scalar remainder);
    only the first ``ranges.shape[1]`` measures get a range.
    """
    num_topics, num_systems, num_measures = scores.shape
    num_trials = seeds.shape[0]
    for block_index in range(first_block, last_block):
        first_trial = block_index * block
        size = min(block, num_trials - first_trial)
        states = seeds[first_trial : first_trial + size].copy()
        permutations = np.empty((size, num_systems), dtype=np.int64)
        for trial in range(size):
            for system in range(num_systems):
                permutations[trial, system] = system
        sums = np.zeros((size, num_systems, num_measures))
        indices = np.zeros(num_systems, dtype=np.int64)
        for topic in range(num_topics):
            row = scores[topic]
            for trial in range(size):
                states[trial] = _swap_indices(states[trial], starts, lengths, products, indices)
                # Shuffling the previous arrangement again gives a fresh uniform permutation.
                permutation = permutations[trial]
                for last in range(num_systems - 1, 0, -1):
                    other = indices[last]
                    swapped = permutation[last]
                    permutation[last] = permutation[other]
                    permutation[other] = swapped
                trial_sums = sums[trial]
                if num_measures == 1:  # scalars: no row views (26% less time for 1,000 x 13 x 1)
                    for system in range(num_systems):
                        trial_sums[system, 0] += row[permutation[system], 0]
                    continue
                for system in range(num_systems):
                    source = row[permutation[system]]
                    target = trial_sums[system]
                    for measure in range(num_measures):  # contiguous, a multiple of the SIMD width
                        target[measure] += source[measure]
        for trial in range(size):
            for measure in range(ranges.shape[1]):
                highest = sums[trial, 0, measure]
                lowest = highest
                for system in range(1, num_systems):
                    highest = max(highest, sums[trial, system, measure])
                    lowest = min(lowest, sums[trial, system, measure])
                ranges[first_trial + trial, measure] = (highest - lowest) / num_topics


#: Measures are padded to a multiple of this many doubles (4: one AVX2 register) in the kernel's layout.
_SIMD_DOUBLES = 4


def _padded_width(num_measures: int) -> int:
    """Fewer measures than one register are not padded: (1 measure: the HSD on the consistency taus)
    four times the memory traffic costs more than the vector add saves (~25% slower, measured)."""
    if num_measures < _SIMD_DOUBLES:
        return num_measures
    return -(-num_measures // _SIMD_DOUBLES) * _SIMD_DOUBLES


def _padded_layout(stack: np.ndarray) -> np.ndarray:
    """The kernel's layout of a measures x topics x systems stack: topics x systems x measures, C-contiguous,
    the measures padded with zeros to a multiple of :data:`_SIMD_DOUBLES` (their ranges are never read;
    see :func:`_padded_width`).
    Padding does not change any sum (adding the same values in the same order): only the speed."""
    measures, topics, systems = stack.shape
    arranged = np.zeros((topics, systems, _padded_width(measures)))
    arranged[:, :, :measures] = stack.transpose(1, 2, 0)
    return arranged


#: Bytes of one block's sums (block x systems x measures doubles) the tiling aims at: within L2.
_BLOCK_BYTES = 1 << 18


def trial_block(num_trials: int, num_systems: int, num_measures: int, threads: int) -> int:
    """Trials per block of :func:`_null_ranges`: sums of about 256 KiB (at most 32 trials), and at least
    4 blocks per thread for the load balance. Does not change the result, only the speed."""
    by_cache = _BLOCK_BYTES // (8 * num_systems * num_measures)
    by_balance = -(-num_trials // (4 * max(1, threads)))
    return int(max(1, min(32, by_cache, by_balance)))


@dataclass(frozen=True)
class TukeyHSDResult:
    """Result of :func:`randomised_tukey_hsd` for a stack of score matrices."""

    means: np.ndarray  # measures x systems
    p_values: np.ndarray  # measures x systems x systems, symmetric, 1 on the diagonal
    null_ranges: np.ndarray  # measures x trials: max - min of the permuted means

    def significant(self, alpha: float = 0.05) -> np.ndarray:
        """Boolean measures x systems x systems: the pair differs at level ``alpha`` (p < alpha)."""
        return self.p_values < alpha


def trial_seeds(rng: np.random.Generator, trials: int) -> np.ndarray:
    """The seed of each trial's SplitMix64 stream: ``trials`` uint64 drawn from ``rng`` (what
    :func:`randomised_tukey_hsd` draws; the benchmarks' kernels take the same seeds)."""
    return rng.integers(0, np.iinfo(np.uint64).max, size=trials, dtype=np.uint64, endpoint=True)


def _run_blocks(arranged, seeds, plan, block: int, ranges: np.ndarray, threads: int) -> None:
    """The kernel over all blocks of trials, ``threads`` contiguous ranges of blocks at once."""
    blocks = -(-seeds.shape[0] // block)
    run_ranges(lambda start, stop: _null_ranges(arranged, seeds, *plan, block, start, stop, ranges), blocks, threads)


#: With a progress callback, the trials run in about this many chunks (one call per chunk).
PROGRESS_CHUNKS = 50


def randomised_tukey_hsd(
    scores: np.ndarray,
    trials: int,
    rng: np.random.Generator,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> TukeyHSDResult:
    """Randomised Tukey HSD test (docs/methods.md 4.3) for every pair of systems, for several measures at once.

    ``scores`` is a topics x systems matrix or a measures x topics x systems stack. In each of
    ``trials`` trials every topic's row is permuted independently across systems -- the same
    permutation for every measure -- and the range max_s - min_s of the permuted system means is
    recorded. The p-value of systems (s, t) is the fraction of trials whose range is >= |mean_s - mean_t|.

    The trial loop runs compiled (numba), on ``threads`` threads (default: every CPU this process may use); each
    trial draws its own
    random stream from a seed taken from ``rng`` (``trials`` 64-bit integers), so the result depends on
    ``rng`` only, not on the number of threads. Memory is O(trials x measures) plus a (padded) copy of ``scores``.

    ``progress(done, trials)``, if given, is called after each chunk of trials (about
    :data:`PROGRESS_CHUNKS` chunks) and once before the first; the trials keep their seeds, so the
    result is the same with or without it.
    """
    scores = np.asarray(scores, dtype=float)
    single = scores.ndim == 2
    stack = scores[None] if single else scores
    if stack.ndim != 3 or stack.shape[2] < 2:
        raise ValueError(f"expected topics x systems or measures x topics x systems, got shape {scores.shape}")
    if not np.isfinite(stack).all():
        raise ValueError("scores contain NaN or infinite values")
    seeds = trial_seeds(rng, trials)
    ranges = np.empty((trials, stack.shape[0]))
    threads = max(1, threads or usable_cpus())
    arranged = _padded_layout(stack)
    block = trial_block(trials, stack.shape[2], arranged.shape[2], threads)
    plan = draw_plan(stack.shape[2])
    if progress is None:
        _run_blocks(arranged, seeds, plan, block, ranges, threads)
    else:
        # Chunks of whole blocks: each trial keeps its own seed, so the ranges are those of one call.
        chunk = max(block, -(-trials // PROGRESS_CHUNKS) // block * block)
        progress(0, trials)
        for start in range(0, trials, chunk):
            stop = min(trials, start + chunk)
            _run_blocks(arranged, seeds[start:stop], plan, block, ranges[start:stop], threads)
            progress(stop, trials)
    means = stack.mean(axis=1)
    differences = np.abs(means[:, :, None] - means[:, None, :])
    sorted_ranges = np.sort(ranges.T, axis=1)
    # Trials whose range reaches the difference; the slack absorbs rounding between the two sums.
    slack = 1e-12 * np.maximum(1.0, np.abs(means).max(axis=1))
    p_values = np.empty_like(differences)
    for measure in range(stack.shape[0]):  # a loop over measures, not trials
        below = np.searchsorted(sorted_ranges[measure], differences[measure] - slack[measure], side="left")
        p_values[measure] = (trials - below) / trials
    if single:
        return TukeyHSDResult(means[0], p_values[0], ranges.T[0])
    return TukeyHSDResult(means, p_values, ranges.T)
