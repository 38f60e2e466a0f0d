"""Limits before work: a configuration too large for this machine is refused when it is planned.

From the sizes a configuration gives (simulated topics, systems and items, classes, measures, trials),
:func:`estimate` works out the memory of the largest job (the arrays it holds at its peak: scores,
distributions, the per-topic class x class matrices -- confusion matrices of ordinal classification,
class distances of some quantification measures --, item labels, the run pairs of the significance
tests; a few copies of each) and the time of the whole run (the operations of the cost model of
:mod:`ordeval.workflow.resources`, divided by :data:`MODEL_FACTOR`, plus Snakemake's start and every job's own,
on half this machine's cores: generous, never below the time measured, also with the other core busy).
:func:`check_limits` refuses a configuration whose largest job needs more memory than :func:`limits` allows, or
whose run would take longer, with the estimate in the message. It looks only at the configuration (no file is
read, nothing grows faster than the number of sources), so that even a million systems or 10^9
topics are refused in milliseconds, before the planner lists runs or topics.

The limits: ``memory_gb`` (default: this machine's memory) and ``hours`` (default
:data:`DEFAULT_HOURS`), set by the configuration's ``limits`` section, overridden by the environment
variables ``ORDEVAL_MEMORY_GB`` and ``ORDEVAL_HOURS``; ``0`` turns a limit off. Data sets read from files
count with the sizes the configuration gives (their topics unknown before they are read: 1,000
assumed, as :mod:`ordeval.workflow.resources` does). See docs/limits.md.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

from ordeval.io.errors import ConfigError
from ordeval.workflow import resources
from ordeval.workflow.config import parameters as config_parameters
from ordeval.workflow.resources import DataSize

#: The default time limit (hours).
DEFAULT_HOURS = 24.0
#: The cost model of :mod:`ordeval.workflow.resources` is slow on purpose (its operations per second about 100
#: times below the kernels' real speed; the default configuration: 0.52 model hours, 20 s measured): the time
#: estimate divides its work by this factor.
MODEL_FACTOR = 20.0
#: What the work of the model leaves out, which dominates small configurations: Snakemake's start (its DAG, this
#: plan), and every job's own start (Python, numpy, Snakemake's script preamble: about 0.5 s a job on an idle core,
#: benchmarks/pipeline.py), counted for a machine shared with other work: measured on this 2-core machine with
#: other engineers' jobs running (load 13-20), the default configuration took 427 s, 653 s with one more core kept
#: busy; the tiny one of the tests 172 s and 145 s (docs/limits.md). Jobs: about :data:`JOBS_FIXED` plus
#: :data:`JOBS_PER_DATASET` per data set (122 jobs for the default's ten data sets, 46 for two, 53 for three).
STARTUP_SECONDS = 30.0
JOB_SECONDS = 6.0
JOBS_FIXED, JOBS_PER_DATASET = 30, 10
#: Environment variables that override the configuration's ``limits``.
MEMORY_VARIABLE, HOURS_VARIABLE = "ORDEVAL_MEMORY_GB", "ORDEVAL_HOURS"
#: Bytes of a score, probability or matrix cell (float64, int64), and of one item label of a run
#: (int64, and the text of its line in the runs table as it is written).
BYTES_PER_SCORE = 8
BYTES_PER_LABEL = 8 + 16 + 20
#: Bytes of one simulated rating (a topic's annotator's score): noise, raw value, rounded rating, comparisons.
BYTES_PER_RATING = 8 * 4
#: The kinds of work (:data:`ordeval.workflow.resources.KINDS`) of the jobs on each data set whose memory and time the
#: estimate takes, and of the table and figure jobs that read every data set's scores.
PER_DATASET = ("build", "score", "taus", "hsd", "popularity")
OVER_ALL = ("tables", "figures")


@dataclass(frozen=True)
class Limits:
    memory_gb: float  #: 0: no limit
    hours: float  #: 0: no limit
    source: str  #: where they come from (for messages)


@dataclass(frozen=True)
class Estimate:
    memory_mb: float  #: the largest job's memory
    memory_job: str  #: which job that is (``<job> on <data set>``)
    memory_key: str  #: the configuration key of its data (``datasets.<name>``, or ``datasets``)
    hours: float  #: the whole run on this machine's cores


def machine_memory_gb() -> float:
    """This machine's memory (GiB); 0 where it cannot be known."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        return 0.0


def limits(config: Mapping) -> Limits:
    """The limits of ``config``: its ``limits`` section, overridden by the environment, else the defaults."""
    section = config.get("limits") or {}
    memory, hours = section.get("memory_gb"), section.get("hours")
    source = "the configuration's limits" if section else "the defaults"
    for variable, current in ((MEMORY_VARIABLE, memory), (HOURS_VARIABLE, hours)):
        text = os.environ.get(variable)
        if text is None or not text.strip():
            continue
        try:
            value = float(text)
        except ValueError:
            raise ConfigError(f"environment variable {variable}: {text[:50]!r} is not a number") from None
        if not math.isfinite(value) or value < 0:
            raise ConfigError(f"environment variable {variable}: {text[:50]!r} must be a number >= 0")
        if variable == MEMORY_VARIABLE:
            memory = value
        else:
            hours = value
        source = f"{variable}" if current is None else f"{variable} (over the configuration's limits)"
    return Limits(
        memory_gb=machine_memory_gb() if memory is None else float(memory),
        hours=DEFAULT_HOURS if hours is None else float(hours),
        source=source,
    )


# --------------------------------------------------------------------------- sizes from the configuration


def dataset_size(spec: Mapping, config: Mapping) -> tuple[DataSize, int, int]:
    """(size, items, ratings) of a data set as its configuration gives it: topics of a simulated gold (else
    :data:`ordeval.workflow.resources.UNKNOWN_TOPICS`), runs of its sources (simulated systems and English
    variants, named runs, listed runs; a whole runs table counts one), classes, measures, and the items of a
    simulated classification gold (topics x their mean size), and the ratings of an annotator
    simulation (topics x annotators x scores)."""
    from ordeval.tasks import get_task, task_of

    task = get_task(task_of(spec))
    gold = spec.get("gold", {})
    topics = gold.get("topics") if isinstance(gold.get("topics"), int) else resources.UNKNOWN_TOPICS
    runs = 0
    for source in spec.get("runs", []):
        if source.get("type") == "simulate":
            runs += int(source.get("systems", 1)) + int(source.get("english_variants", 0))
        else:
            runs += len(source.get("runs", [])) or 1
    hints = task.size_hints(spec)
    if hints.get("measures") is not None:  # the data set brings its own measures
        measures, runs = hints["measures"], max(runs, 1)
    else:
        listed = config.get("measures")
        measures = len(listed) if listed else len(task.registry.default_names())
    items, ratings = hints.get("items", 0), hints.get("ratings", 0)
    size = DataSize(
        topics=max(1, topics),
        runs=max(1, runs),
        measures=max(1, measures),
        classes=max(2, len(spec.get("classes", []))),
    )
    return size, items, ratings


def estimate(config: Mapping) -> Estimate:
    """The memory of the largest job and the hours of the whole run of a validated ``config``."""
    settings = config_parameters(config)
    sizes = {name: dataset_size(spec, config) for name, spec in config["datasets"].items()}
    memory, memory_job, memory_key, seconds = 0.0, "", "datasets", 0.0
    for name, (size, items, ratings) in sizes.items():
        matrices = float(size.topics) * (size.runs + 1) * size.classes**2
        labels = float(items) * (size.runs + 1)
        for kind in PER_DATASET:
            ops, _, _ = resources.work(kind, [size], settings)
            held = _held(kind, size, settings, matrices, labels)
            if kind in ("build", "score"):
                ops += 10.0 * matrices * (size.measures if kind == "score" else 1) + 50.0 * labels
            if kind == "build":  # the simulated ratings: noise, raw and rounded ratings, one-hot counts
                held += BYTES_PER_RATING * float(ratings)
                ops += 20.0 * ratings * size.classes
            if held > memory:
                what = resources.KINDS[kind].split(" (")[0]
                memory, memory_job, memory_key = held, f"{what} of {name}", f"datasets.{name}"
            seconds += ops / resources.OPS_PER_SECOND
    every = [size for size, _, _ in sizes.values()]
    over_all = BYTES_PER_SCORE * 2 * sum(float(size.cells) for size in every)
    if over_all > memory:
        memory, memory_job, memory_key = over_all, "the tables and figures over every data set", "datasets"
    for kind in OVER_ALL:
        ops, _, figures = resources.work(kind, every, settings)
        seconds += ops / resources.OPS_PER_SECOND + figures * resources.SECONDS_PER_FIGURE
    jobs = JOBS_FIXED + JOBS_PER_DATASET * len(sizes)
    return Estimate(
        memory_mb=resources.BASE_MB + memory / 2**20,
        memory_job=memory_job,
        memory_key=memory_key,
        hours=(STARTUP_SECONDS + (jobs * JOB_SECONDS + seconds / MODEL_FACTOR) / free_cores(config)) / 3600,
    )


def free_cores(config: Mapping) -> int:
    """The cores the estimate counts on: half this machine's (others may be busy: an estimate must hold on a
    shared machine), at most the configured threads, at least one."""
    return max(1, min((os.cpu_count() or 1) // 2, int(config.get("threads", 1))))


def _held(kind: str, size: DataSize, settings: dict, matrices: float, labels: float) -> float:
    """Bytes a per-data-set job of ``kind`` holds at its peak (the arrays, a few copies, the text it writes)."""
    cells = float(size.cells)
    if kind in ("build", "score"):
        numbers = (cells if kind == "score" else 0.0) + size.distributions
        return 3 * BYTES_PER_SCORE * numbers + 2 * BYTES_PER_SCORE * matrices + BYTES_PER_LABEL * labels
    if kind == "hsd":
        return BYTES_PER_SCORE * (cells + 2.0 * size.measures * size.runs**2)
    if kind == "taus":
        trials = settings["consistency_trials"] * size.measures
        chunk = min(resources.TAU_CHUNK_MB * 2**20, BYTES_PER_SCORE * trials * size.runs)
        return BYTES_PER_SCORE * (cells + 2.0 * settings["conditions"] * trials) + chunk
    return 3 * BYTES_PER_SCORE * (cells + size.distributions * size.classes)


def check_limits(config: Mapping) -> Estimate:
    """Raise a ConfigError when a validated ``config`` needs more memory or time than :func:`limits`
    allow; the estimate otherwise."""
    allowed = limits(config)
    found = estimate(config)
    override = (
        f"set limits: {{memory_gb: ..., hours: ...}} in the configuration or {MEMORY_VARIABLE} / {HOURS_VARIABLE} "
        "(0: no limit) to run it anyway; see docs/limits.md"
    )
    if allowed.memory_gb and found.memory_mb > allowed.memory_gb * 1024:
        raise ConfigError(
            f"config key {found.memory_key}: too large for this machine: {found.memory_job} needs about "
            f"{_amount(found.memory_mb / 1024)} GB of memory (estimate), the limit is {_amount(allowed.memory_gb)} GB "
            f"({allowed.source}); {override}"
        )
    if allowed.hours and found.hours > allowed.hours:
        raise ConfigError(
            f"config key datasets: too long for this machine: about {_amount(found.hours)} hours of work "
            f"(a generous estimate), the limit is {_amount(allowed.hours)} hours ({allowed.source}); {override}"
        )
    return found


def _amount(value: float) -> str:
    return f"{value:.3g}" if value < 1e6 else f"{value:.2e}"
