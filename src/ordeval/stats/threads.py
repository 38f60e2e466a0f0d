"""How many threads the compiled kernels use by default."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it): the default number of
    threads of the compiled kernels (:mod:`ordeval.stats.hsd`, :mod:`ordeval.stats.kendall`)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
