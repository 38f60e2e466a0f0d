"""What each job asks a scheduler for (``threads``, ``mem_mb``, ``runtime`` in minutes), from the size of
its data: topics x runs x measures x classes of each data set, and the trials of the analysis.

A simple cost model, generous on purpose (a job killed for memory or time costs more than an idle core),
calibrated on the benchmarks in ``benchmarks/`` on a 2-core machine:

* every job pays a start-up (Python, numpy and Snakemake's script preamble; matplotlib in figure jobs;
  numba in the kernels);
* memory grows with the arrays a job holds at once (float64 cells, times an overhead factor for the
  parsers and the copies they make), capped by the chunked kernels (the consistency taus are computed
  in chunks, so their memory does not grow with trials x run pairs);
* run time grows with the operations a job does (cells scored, permutations x cells of the Tukey HSD,
  splits x measures x runs log runs of the taus), at a conservative rate, plus the start-up.

The rules take these numbers from :func:`ordeval.workflow.resources` (each rule is one job over all the
data sets it covers); retries
(``--retries``) multiply the memory and time by the attempt number. Tested in ``tests/test_resources.py``.
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
#: Memory of one chunk of split taus (trials x measures x runs, float64), see ordeval.splits.
TAU_CHUNK_MB = 256

#: The jobs that run the numba kernels (they ask for :data:`KERNEL_MB` more memory).
KERNEL_JOBS = ("consistency_taus", "significance_pvalues")
#: Jobs that can use threads (the numba kernels; scoring writes its text tables in parallel processes):
#: they get the configured ``threads`` when the work of one of their data sets reaches
#: :data:`PARALLEL_FROM` operations of the cost model, else one, like every other job. Below that, a
#: job's start-up (about 1.5 s with numba) outweighs what a second thread saves, and a core left free
#: runs another job beside it.
THREADED = (*KERNEL_JOBS, "score_runs")
#: Operations (of the cost model below, which is slow on purpose: ~100 times the kernels' real speed)
#: from which a threaded job asks for the configured threads: about 1 s of real work on one core.
PARALLEL_FROM = {"consistency_taus": 1e9, "significance_pvalues": 1e9, "score_runs": 5e8}
FIGURE_JOBS = ("agreement_figures", "consistency_figures", "significance_figures", "popularity_figures",
               "leaderboard_figures", "classification_figures", "topic_set_size_design")  # fmt: skip
#: Jobs that read only small files (provenance, captions, the report's fragments): a flat request.
LIGHT_JOBS = ("datasets_table", "manifest", "report_captions", "report_tex", "report_pdf", "replication_dataset",
              "replication_summary")  # fmt: skip


#: Scheduling priorities (Snakemake ``priority:``, higher first among the jobs that are ready; 0 for the
#: rest), the longest chains first: the data and scores of every data set (Snakemake ranks only the
#: ready jobs, so without this the later data sets' chains would wait); the significance tests, which
#: gate the leaderboard tables and the longest figure job (the leaderboards); the consistency analyses,
#: which gate the consistency figures, and the topic set size design (long, it needs only the scores);
#: the Popularity tables and figures (they need only the scores) and
#: the significance figures; the short figure and table jobs last (longest first keeps both cores busy).
PRIORITY = {"prepare_data": 4, "score_runs": 4, "significance_pvalues": 3, "leaderboard_tables": 3,
            "leaderboard_figures": 3, "consistency_taus": 2, "topic_set_size_design": 2, "consistency_figures": 1,
            "popularity_tables": 1, "popularity_figures": 1, "significance_figures": 1}  # fmt: skip


def priority(job: str) -> int:
    """The scheduling priority of ``job`` (a job module name), see :data:`PRIORITY`."""
    return PRIORITY.get(job, 0)


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


def _runtime(ops: float, figures: int = 0, threads: int = 1) -> int:
    seconds = 30 + ops / OPS_PER_SECOND / max(1, threads) + figures * SECONDS_PER_FIGURE
    return max(MIN_RUNTIME, math.ceil(3 * seconds / 60))  # three times the expected time, in minutes


def _mem(job: str, held_bytes: float) -> int:
    base = BASE_MB + (FIGURE_MB if job in FIGURE_JOBS else 0) + (KERNEL_MB if job in KERNEL_JOBS else 0)
    return int(math.ceil((base + 2 * held_bytes / 2**20) / 100) * 100)  # twice the expected arrays


def cost_settings(config) -> dict:
    """The analysis parameters of a validated configuration that the cost model uses (:func:`estimate`)."""
    from .splits import CONDITIONS

    return {
        "consistency_trials": config["consistency"]["trials"],
        "consistency_hsd_trials": config["consistency"]["hsd_trials"],
        "significance_hsd_trials": config["significance"]["hsd_trials"],
        "conditions": len(CONDITIONS),
    }


def estimate(job: str, sizes: list[DataSize], settings: dict | None = None, threads: int = 1) -> Resources:
    """The resources of ``job`` (a job module name: ``score_runs``, ``consistency_taus``...) over the
    data sets of ``sizes`` (every data set the job covers).

    ``settings`` holds the analysis parameters: ``consistency_trials``, ``consistency_hsd_trials``,
    ``significance_hsd_trials``, ``conditions``. ``threads``: the configured threads (threaded jobs with
    enough work only, see :data:`PARALLEL_FROM`)."""
    ops, held, figures = _work(job, sizes, settings or {})
    if job not in FIGURE_JOBS:
        figures = 0
    # threads pay off within one data set's work: a job over many small data sets keeps one thread, so that
    # two such jobs share the cores instead of waiting for each other
    largest = max((_work(job, [size], settings or {})[0] for size in sizes), default=0.0)
    threads = max(1, int(threads)) if job in THREADED and largest >= PARALLEL_FROM[job] else 1
    return Resources(threads=threads, mem_mb=_mem(job, held), runtime=_runtime(ops, figures, threads))


def _work(job: str, sizes: list[DataSize], settings: dict) -> tuple[float, float, int]:
    """(operations, bytes held, figures) of ``job`` over the data sets of ``sizes`` (the cost model)."""
    trials = settings.get("consistency_trials", 1000)
    conditions = settings.get("conditions", 2)
    hsd_consistency = settings.get("consistency_hsd_trials", 5000)
    hsd_significance = settings.get("significance_hsd_trials", 5000)
    ops = 0.0
    held = 0.0
    figures = 0
    for size in sizes:
        runs_log = size.runs * max(1.0, math.log2(size.runs))
        if job == "prepare_data":
            ops += 200 * size.distributions
            held = max(held, BYTES_PER_CELL * size.distributions)
        elif job == "score_runs":
            ops += 50 * size.cells * size.classes
            held = max(held, BYTES_PER_CELL * (size.cells + size.distributions))
        elif job == "consistency_taus":
            # taus: per split, the means of every run on the topics, then tau between the two rankings
            ops += conditions * trials * size.measures * (size.topics * size.runs + 20 * runs_log)
            # the randomised Tukey HSD on the taus (trials x measures), per condition
            ops += conditions * hsd_consistency * trials * size.measures
            chunk = min(TAU_CHUNK_MB * 2**20, 8.0 * trials * size.measures * size.runs)
            held = max(held, BYTES_PER_CELL * size.cells + chunk + 8.0 * conditions * trials * size.measures)
        elif job == "significance_pvalues":
            ops += hsd_significance * size.topics * size.runs * size.measures
            held = max(held, BYTES_PER_CELL * size.cells + 8.0 * size.measures * size.runs**2)
        elif job in ("popularity_tables", "popularity_figures"):
            ops += 100 * (size.cells + size.distributions * size.classes)
            held = max(held, BYTES_PER_CELL * (size.cells + 4 * size.distributions))
            figures += 1
        elif job in LIGHT_JOBS:
            pass
        else:  # tables and figures over the results of every data set: they read the score stacks
            ops += 20 * size.cells
            held = max(held, BYTES_PER_CELL * size.cells)
            figures += 2
    return ops, held, figures
