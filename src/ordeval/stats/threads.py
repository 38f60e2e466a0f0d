"""The compiled kernels' run time: how many threads they use by default, how a kernel runs on them, and what to say
when numba's cache of them is damaged."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it): the default number of
    threads of the compiled kernels (:mod:`ordeval.stats.hsd`, :mod:`ordeval.stats.kendall`)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run_ranges(kernel: Callable[[int, int], object], count: int, threads: int) -> None:
    """``kernel(start, stop)`` over ``threads`` contiguous ranges covering ``0 .. count``, each on a Python thread
    (the compiled kernels release the GIL); one call in this thread where there is one range."""
    threads = max(1, min(threads, count))
    if threads == 1:
        kernel(0, count)
        return
    from concurrent.futures import ThreadPoolExecutor

    bounds = np.linspace(0, count, threads + 1).astype(np.int64)
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda i: kernel(bounds[i], bounds[i + 1]), range(threads)))


def damaged_kernel_cache() -> str:
    """What to say when numba's on-disk cache of ordeval's compiled kernels cannot be read (a file cut short by
    a killed process, or written over): where it is, and that its files may be deleted (they are made again)."""
    folder = os.environ.get("NUMBA_CACHE_DIR") or str(Path(__file__).resolve().parent / "__pycache__")
    return (
        f"numba's cache of ordeval's compiled kernels is damaged ({folder}): delete the *.nbi and *.nbc files "
        "of ordeval there (they are compiled again, a few seconds)"
    )
