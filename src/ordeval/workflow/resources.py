"""What each job asks a scheduler for (``threads``, ``mem_mb``, ``runtime`` in minutes), from the size of
its data: topics x runs x measures x classes of each data set, and the trials of the analysis.

Each rule declares the kind of work its jobs do (:data:`KINDS`: ``threads: threads("hsd")``, ``resources:
mem_mb=mem_mb("hsd"), runtime=runtime("hsd")`` in its ``.smk`` file, through :func:`job_resources`); the
cost of a kind grows with the data set of the job (a rule over ``{dataset}``) or with every data set (a rule
that gathers them). A simple model, generous on purpose (a job
killed for memory or time costs more than an idle core), calibrated on the benchmarks in ``benchmarks/`` on a
2-core machine:

* every job pays a start-up (Python, numpy and Snakemake's script preamble; matplotlib in figure jobs;
  numba in the kernels);
* memory grows with the arrays a job holds at once (float64 cells, times an overhead factor for the
  parsers and the copies they make), capped by the chunked kernels (the consistency taus are computed
  in chunks, so their memory does not grow with trials x run pairs);
* run time grows with the operations a job does (cells scored, permutations x cells of the Tukey HSD,
  splits x measures x runs log runs of the taus), at a conservative rate, plus the start-up.

The configuration's ``resources`` section multiplies every job's memory and time by a factor
(:meth:`Resources.scaled`); retries (``--retries``) multiply them by the attempt number (the rules' ``mem_mb()``,
``runtime()``).
Tested in ``tests/test_resources.py``, and on a Slurm cluster in ``tests/workflow/test_slurm.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Topics assumed for a data set whose number of topics cannot be known before it is built.
UNKNOWN_TOPICS = 1000
#: Memory of a bare job (MB): interpreter, numpy, Snakemake's script preamble.
BASE_MB = 400
#: More for jobs that import matplotlib or numba.
FIGURE_MB = 300
KERNEL_MB = 300
#: Bytes held per float64 cell of a data set's arrays (parsing, copies, outputs).
BYTES_PER_CELL = 8 * 12
#: Operations per second assumed (a slow core, with a safety margin), and the shortest runtime.
OPS_PER_SECOND = 2e7
MIN_RUNTIME = 5
#: Seconds to draw one figure (both formats), generously.
SECONDS_PER_FIGURE = 20
#: Memory of one chunk of split taus (trials x measures x runs, float64), see ordeval.stats.splits.
TAU_CHUNK_MB = 256

#: The kinds of work of the rules: what a job's cost grows with.
KINDS = {
    "build": "reading, computing or simulating a data set's gold and runs",
    "score": "scoring every run on every topic with every measure",
    "hsd": "the randomised Tukey HSD on a data set's scores (numba)",
    "taus": "random topic splits, their taus, and the HSD on them (numba)",
    "tables": "tables from the score matrices or p-values",
    "figures": "figures from the score matrices or p-values (matplotlib)",
    "popularity": "Popularity vs Uniform: the baselines' per-topic deltas and the gold distributions",
    "light": "small files only (provenance, captions, the report's fragments)",
}
#: The kinds that run the numba kernels (they ask for :data:`KERNEL_MB` more memory).
KERNEL_KINDS = ("hsd", "taus")
#: The kinds that draw figures (:data:`FIGURE_MB` more memory, :data:`SECONDS_PER_FIGURE` per figure).
FIGURE_KINDS = ("figures", "popularity")
#: Kinds that can use threads (the numba kernels; scoring writes its text tables in parallel processes):
#: a job gets the configured ``threads`` when its work reaches :data:`PARALLEL_FROM` operations of the cost
#: model, else one. Below that, a job's start-up (about 1.5 s with numba) outweighs what a second thread
#: saves, and a core left free runs another job beside it.
PARALLEL_FROM = {"hsd": 1e9, "taus": 1e9, "score": 5e8}
#: Figures a "figures" job on one data set draws (consistency: two conditions; discriminative power
#: curves; leaderboard; topic set size), and a "popularity" job (the scatter plots).
FIGURES_PER_DATASET = {"figures": 5, "popularity": 1}


@dataclass(frozen=True)
class DataSize:
    """The size of one data set, as far as the plan knows it before any job runs."""

    topics: int
    runs: int
    measures: int
    classes: int

    @property
    def cells(self) -> int:
        """Scores of every run on every topic for every measure."""
        return self.topics * self.runs * self.measures

    @property
    def distributions(self) -> int:
        """Numbers in the gold and the runs (a distribution or label count per class, topic and run)."""
        return self.topics * (self.runs + 1) * self.classes


@dataclass(frozen=True)
class Resources:
    threads: int
    mem_mb: int
    runtime: int  #: minutes

    def as_dict(self) -> dict[str, int]:
        return {"threads": self.threads, "mem_mb": self.mem_mb, "runtime": self.runtime}

    def scaled(self, memory: float = 1.0, runtime: float = 1.0) -> Resources:
        """These resources with ``mem_mb`` times ``memory`` and ``runtime`` times ``runtime`` (the configuration's
        ``resources`` factors), rounded up to a whole MB and minute, at least 1."""
        return Resources(self.threads, _scale(self.mem_mb, memory), _scale(self.runtime, runtime))


def _scale(value: int, factor: float) -> int:
    # rounded to 9 decimals first, so that 800 x 0.1 (80.00000000000001 in floating point) is 80, not 81
    return max(1, math.ceil(round(value * factor, 9)))


def _runtime(ops: float, figures: int = 0, threads: int = 1) -> int:
    seconds = 30 + ops / OPS_PER_SECOND / max(1, threads) + figures * SECONDS_PER_FIGURE
    return max(MIN_RUNTIME, math.ceil(3 * seconds / 60))  # three times the expected time, in minutes


def _mem(kind: str, held_bytes: float) -> int:
    base = BASE_MB + (FIGURE_MB if kind in FIGURE_KINDS else 0) + (KERNEL_MB if kind in KERNEL_KINDS else 0)
    return int(math.ceil((base + 2 * held_bytes / 2**20) / 100) * 100)  # twice the expected arrays


def estimate(kind: str, sizes: list[DataSize], settings: dict | None = None, threads: int = 1) -> Resources:
    """The resources of a job of ``kind`` (:data:`KINDS`) over the data sets of ``sizes`` (its data set, or
    every data set a gathering job reads).

    ``settings`` holds the analysis parameters (:func:`ordeval.workflow.config.parameters`); the model reads
    ``consistency_trials``, ``consistency_hsd_trials``, ``significance_hsd_trials`` and ``conditions``.
    ``threads``: the configured threads (for kinds that can use them, and only with enough work, see
    :data:`PARALLEL_FROM`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of work {kind!r}; known: {', '.join(KINDS)}")
    ops, held, figures = work(kind, sizes, settings or {})
    parallel = kind in PARALLEL_FROM and ops >= PARALLEL_FROM[kind]
    threads = max(1, int(threads)) if parallel else 1
    return Resources(threads=threads, mem_mb=_mem(kind, held), runtime=_runtime(ops, figures, threads))


def work(kind: str, sizes: list[DataSize], settings: dict) -> tuple[float, float, int]:
    """(operations, bytes held, figures) of a job of ``kind`` over the data sets of ``sizes`` (the cost model)."""
    trials = settings.get("consistency_trials", 1000)
    conditions = settings.get("conditions", 2)
    hsd_consistency = settings.get("consistency_hsd_trials", 5000)
    hsd_significance = settings.get("significance_hsd_trials", 5000)
    ops = 0.0
    held = 0.0
    figures = 0
    for size in sizes:
        runs_log = size.runs * max(1.0, math.log2(size.runs))
        if kind == "build":
            ops += 200 * size.distributions
            held = max(held, BYTES_PER_CELL * size.distributions)
        elif kind == "score":
            ops += 50 * size.cells * size.classes
            held = max(held, BYTES_PER_CELL * (size.cells + size.distributions))
        elif kind == "taus":
            # taus: per split, the means of every run on the topics, then tau between the two rankings
            ops += conditions * trials * size.measures * (size.topics * size.runs + 20 * runs_log)
            # the randomised Tukey HSD on the taus (trials x measures), per condition
            ops += conditions * hsd_consistency * trials * size.measures
            chunk = min(TAU_CHUNK_MB * 2**20, 8.0 * trials * size.measures * size.runs)
            held = max(held, BYTES_PER_CELL * size.cells + chunk + 8.0 * conditions * trials * size.measures)
        elif kind == "hsd":
            ops += hsd_significance * size.topics * size.runs * size.measures
            held = max(held, BYTES_PER_CELL * size.cells + 8.0 * size.measures * size.runs**2)
        elif kind == "popularity":
            ops += 100 * (size.cells + size.distributions * size.classes)
            held = max(held, BYTES_PER_CELL * (size.cells + 4 * size.distributions))
            figures += FIGURES_PER_DATASET["popularity"]
        elif kind in ("tables", "figures"):  # they read the score stacks (and p-values) of their data sets
            ops += 20 * size.cells
            held = max(held, BYTES_PER_CELL * size.cells)
            figures += FIGURES_PER_DATASET.get(kind, 0)
    return ops, held, figures


def data_size(plan, dataset: str) -> DataSize:
    """The size of a data set as the plan (:class:`~ordeval.workflow.plan.Plan`) knows it (topics unknown before it
    is built: UNKNOWN_TOPICS)."""
    data = plan.datasets[dataset]
    return DataSize(
        topics=data.topics or UNKNOWN_TOPICS,
        runs=max(1, len(data.runs)),
        measures=max(1, len(data.measures)),
        classes=max(2, len(data.classes)),
    )


def job_resources(plan, kind: str, dataset: str | None = None) -> Resources:
    """threads, mem_mb and runtime (minutes) of a job of ``kind`` (:data:`KINDS`) on ``dataset`` of ``plan``, or,
    for a job that gathers them, over every data set, times the configuration's ``resources`` factors: what each
    rule declares (``workflow/rules/common.smk``, which multiplies them by the attempt)."""
    names = [dataset] if dataset is not None else list(plan.datasets)
    sizes = [data_size(plan, name) for name in names]
    factors = plan.config["resources"]
    found = estimate(kind, sizes, plan.parameters(), threads=plan.config["threads"])
    return found.scaled(factors["memory"], factors["runtime"])
