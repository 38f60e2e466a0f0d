"""The jobs of the pipeline: one module per Snakemake rule, each with a ``run(job)`` function.

A rule's thin adapter (``scripts/<rule>.py``) calls :func:`execute` with the ``snakemake`` object it is
given; :func:`execute` turns that object into a plain :class:`Job` (no snakemake import here), sends
the log to the rule's ``log:`` file and runs the job module's ``run``. Tests call ``run`` directly with a
:class:`Job` they build. Every job writes its outputs atomically, so a failed job leaves none.
"""

from __future__ import annotations

import hashlib
import logging
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
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

    @classmethod
    def from_snakemake(cls, snakemake) -> Job:
        def named(items) -> dict:
            return {name: (list(value) if not isinstance(value, str) else value) for name, value in items.items()}

        return cls(
            rule=snakemake.rule,
            input=named(snakemake.input),
            output=named(snakemake.output),
            params=dict(getattr(snakemake.params, "job", {})),
            wildcards=dict(snakemake.wildcards.items()),
            threads=int(snakemake.threads),
            log=snakemake.log[0] if len(snakemake.log) else None,
        )


class JobParams(Mapping):
    """A job's parameters as a rule passes them to its script (``params: job=...``), not as a ``dict``.

    Snakemake records every builtin-typed parameter (its ``repr``) in ``.snakemake/metadata`` once per
    output file and reads it back on every start to see whether the parameters changed; a job's whole
    spec repeated for each of its outputs made 11 of the 15 MB of metadata of the default pipeline and a
    quarter of a no-op run. Parameters of another type are passed to the script but not recorded, so a
    rule passes this read-only mapping and, beside it, :func:`params_digest` of the same parameters,
    which Snakemake records and compares: a change of any parameter still re-runs the job.
    """

    __slots__ = ("_params",)

    def __init__(self, params: Mapping[str, Any]):
        self._params = dict(params)

    def __getitem__(self, key: str) -> Any:
        return self._params[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._params)

    def __len__(self) -> int:
        return len(self._params)

    def __repr__(self) -> str:
        return f"JobParams(digest={params_digest(self._params)})"

    def __reduce__(self):
        return (JobParams, (self._params,))


def params_digest(params: Mapping[str, Any]) -> str:
    """SHA-256 of ``params`` as canonical JSON (sorted keys, tuples as lists): what Snakemake records
    for a rule's parameters (see :class:`JobParams`). Raises ``TypeError`` for a value that is not
    JSON-like data (a job spec holds only such data)."""
    import orjson

    return "sha256:" + hashlib.sha256(orjson.dumps(dict(params), option=orjson.OPT_SORT_KEYS)).hexdigest()


LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
#: Third-party loggers kept at WARNING in job logs (fontTools.subset writes an INFO line per table and glyph
#: set of every embedded font: 14 KB in one figure job's log).
QUIET_LOGGERS = ("fontTools", "matplotlib", "PIL", "numba", "urllib3", "asyncio")


@contextmanager
def logged(log_path: str | Path | None, rule: str):
    """Log to ``log_path`` (and to stderr); record an exception there before re-raising it."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
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
    """Run a job module's ``run`` on the rule's ``snakemake`` object, logging to its log file."""
    job = Job.from_snakemake(snakemake)
    with logged(job.log, job.rule):
        return run_job(run, job)


def run_job(run: Callable[[Job], Any], job: Job) -> Any:
    """``run(job)``; for the one job of a rule's small data sets (``params["members"]``, see
    :meth:`ordeval.workflow.Specs.group`), ``run`` on each data set's own :class:`Job` in turn, whose log
    lines also go to that data set's log file (the file its own job would write); returns their results."""
    members = job.params.get("members")
    if members is None:
        return run(job)
    rule = job.rule.removesuffix("_group")
    results = []
    for member in members:
        Path(member["log"]).parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(member["log"], mode="w", encoding="utf-8")
        handler.setFormatter(logging.Formatter(LOG_FORMAT))
        logging.getLogger().addHandler(handler)
        start = time.perf_counter()
        try:
            member_job = Job(rule, member["input"], member["output"], member["params"], threads=job.threads)
            results.append(run(member_job))
            logging.getLogger(rule).info("%s done in %.2f s", rule, time.perf_counter() - start)
        finally:
            logging.getLogger().removeHandler(handler)
            handler.close()
    return results
