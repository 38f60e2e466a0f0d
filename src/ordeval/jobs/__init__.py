"""The jobs of the pipeline: one module per Snakemake rule, each with a ``run(job)`` function.

A rule's thin adapter (``scripts/<rule>.py``) calls :func:`execute` with the ``snakemake`` object it is
given; :func:`execute` turns that object into a plain :class:`Job` (no snakemake import here), sends
the log to the rule's ``log:`` file and runs the job module's ``run``. Tests call ``run`` directly with a
:class:`Job` they build. Every job writes its outputs atomically, so a failed job leaves none.
"""

from __future__ import annotations

import logging
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Job:
    """What a job is given: named inputs and outputs (a path or a list of paths), parameters (the
    rule's ``params: job=...``, built by :mod:`ordeval.workflow`), wildcards, threads and its log file."""

    rule: str
    input: dict[str, Any] = field(default_factory=dict)
    output: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    wildcards: dict[str, str] = field(default_factory=dict)
    threads: int = 1
    log: str | None = None
    #: one log file per data set (``logs/<rule>/<dataset>.log``), for :func:`each_dataset`
    dataset_logs: list[str] = field(default_factory=list)

    @classmethod
    def from_snakemake(cls, snakemake) -> Job:
        def named(items) -> dict:
            return {name: (list(value) if not isinstance(value, str) else value) for name, value in items.items()}

        return cls(
            rule=snakemake.rule,
            input=named(snakemake.input),
            output=named(snakemake.output),
            params=dict(snakemake.params.items()),
            wildcards=dict(snakemake.wildcards.items()),
            threads=int(snakemake.threads),
            log=snakemake.log[0] if len(snakemake.log) else None,
            dataset_logs=list(snakemake.log[1:]),
        )


LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
#: Third-party loggers kept at WARNING in job logs (fontTools.subset writes an INFO line per table and glyph
#: set of every embedded font: 14 KB in one figure job's log).
QUIET_LOGGERS = ("fontTools", "matplotlib", "PIL", "numba", "urllib3", "asyncio")


@contextmanager
def logged(log_path: str | Path | None, rule: str):
    """Log to ``log_path`` (warnings and errors also to stderr, every line there without a log file);
    record an exception before re-raising it."""
    terminal = logging.StreamHandler(sys.stderr)
    handlers: list[logging.Handler] = [terminal]
    if log_path:  # the log file has every line; the terminal (Snakemake's) only warnings and errors
        terminal.setLevel(logging.WARNING)
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, handlers=handlers, force=True)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.captureWarnings(True)
    warnings.simplefilter("default")
    logger = logging.getLogger(rule)
    start = time.perf_counter()
    try:
        yield logger
    except Exception as error:
        logger.error("%s failed: %s", rule, error)
        raise
    logger.info("%s done in %.2f s", rule, time.perf_counter() - start)


def execute(snakemake, run: Callable[[Job], Any]) -> Any:
    """Run a job module's ``run`` on the rule's ``snakemake`` object, logging to its log file. Bad input
    (an :class:`~ordeval.errors.InputError` or :class:`~ordeval.errors.ConfigError`) ends the job with
    its one-line message (logged by :func:`logged`) and no traceback (``ORDEVAL_DEBUG=1`` shows it)."""
    import os

    from ..errors import ConfigError, InputError

    job = Job.from_snakemake(snakemake)
    try:
        with logged(job.log, job.rule):
            return run(job)
    except (InputError, ConfigError):
        if os.environ.get("ORDEVAL_DEBUG") == "1":
            raise
        raise SystemExit(1) from None


def each_dataset(job: Job, datasets: list[str]) -> Iterator[tuple[int, str]]:
    """(index, name) of each data set in ``datasets`` (the order of the rule's ``expand()``), with the log
    lines written meanwhile also going to that data set's own log file, where the rule has one."""
    logs = job.dataset_logs
    if logs and len(logs) != len(datasets):
        raise ValueError(f"{job.rule}: {len(logs)} data set logs for {len(datasets)} data sets")
    for index, name in enumerate(datasets):
        if not logs:
            yield index, name
            continue
        Path(logs[index]).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(logs[index], mode="w", encoding="utf-8")
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        logging.getLogger().addHandler(handler)
        start = time.perf_counter()
        try:
            yield index, name
            logging.getLogger(job.rule).info("%s: %s done in %.2f s", job.rule, name, time.perf_counter() - start)
        finally:
            logging.getLogger().removeHandler(handler)
            try:
                handler.close()
            except OSError as error:  # e.g. a full disk: name the log (the error alone names no file)
                raise OSError(error.errno, error.strerror, logs[index]) from error


def files_by(names: list[str], **lists: list[str]) -> dict[str, dict[str, str]]:
    """``{name: {key: lists[key][i]}}`` for the i-th of ``names``: a rule's named inputs or outputs that
    hold one file per data set (or per task) in the order of the rule's ``expand()``."""
    for key, paths in lists.items():
        if len(paths) != len(names):
            raise ValueError(f"{key}: {len(paths)} files for {len(names)} names ({', '.join(names)})")
    return {name: {key: paths[index] for key, paths in lists.items()} for index, name in enumerate(names)}
