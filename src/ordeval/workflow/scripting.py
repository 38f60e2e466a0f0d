"""What the workflow's scripts share (``scripts/<rule>.py``, run by each rule's ``script:``).

A script reads ``snakemake.input.<name>``, ``snakemake.params.<name>`` and ``snakemake.wildcards``, calls the
library, and writes exactly ``snakemake.output``. Its work sits in ``with job(snakemake) as log:``:

* :func:`job` -- the rule's log file (``snakemake.log[0]``; warnings and errors also on the terminal),
  third-party loggers kept at WARNING, the time taken, and bad input (an :class:`~ordeval.io.errors.InputError`
  or :class:`~ordeval.io.errors.ConfigError`) ending the job with its one-line message and no traceback
  (``ORDEVAL_DEBUG=1`` keeps it);
* :func:`keyed` -- the files of an ``expand()`` over data sets, each under its data set's name (found in the
  path, not paired by position);
* :func:`one_file` -- the one file of an input that holds one or none;
* :func:`in_process` -- the same for the few ``run:`` blocks, which run in the Snakemake process (their log
  written, an error recorded in it and named on the terminal in one line, Snakemake's own logging untouched).

A script runs outside Snakemake with :mod:`ordeval.workflow.offline` (tests, debugging).
"""

from __future__ import annotations

import logging
import os
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"
#: Third-party loggers kept at WARNING in job logs (fontTools.subset writes an INFO line per table and glyph
#: set of every embedded font: 14 KB in one figure job's log).
QUIET_LOGGERS = ("fontTools", "matplotlib", "PIL", "numba", "urllib3", "asyncio")


class _LogFile(logging.FileHandler):
    """A log file that keeps the first error of writing it (a full disk, say) instead of printing it and
    going on: :func:`logged` raises it, naming the file, so that a job whose log is cut short fails."""

    failure: OSError | None = None

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging's name)
        error = sys.exc_info()[1]
        if isinstance(error, OSError):
            self.failure = self.failure or error
            return
        super().handleError(record)


@contextmanager
def logged(log_path: str | Path | None, rule: str) -> Iterator[logging.Logger]:
    """Log to ``log_path`` (warnings and errors also to stderr, every line there without a log file);
    record an exception before re-raising it. A log that could not be written whole (a full disk) is an
    :class:`OSError` naming it."""
    terminal = logging.StreamHandler(sys.stderr)
    handlers: list[logging.Handler] = [terminal]
    log_file = None
    if log_path:  # the log file has every line; the terminal (Snakemake's) only warnings and errors
        terminal.setLevel(logging.WARNING)
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        log_file = _LogFile(log_path, mode="w", encoding="utf-8")
        handlers.append(log_file)
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT, handlers=handlers, force=True)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.captureWarnings(True)
    warnings.simplefilter("default")
    logger = logging.getLogger(rule)
    start = time.perf_counter()
    try:
        try:
            yield logger
        except Exception as error:
            logger.error("%s failed: %s", rule, "out of memory" if isinstance(error, MemoryError) else error)
            raise
        logger.info("%s done in %.2f s", rule, time.perf_counter() - start)
    finally:
        if log_file is not None:
            logging.getLogger().removeHandler(log_file)
            try:
                log_file.close()
            except OSError as error:
                log_file.failure = log_file.failure or error
    if log_file is not None and log_file.failure is not None:
        failure = log_file.failure
        raise OSError(failure.errno, f"cannot write the log ({failure.strerror or failure})", str(log_path))


@contextmanager
def job(snakemake) -> Iterator[logging.Logger]:
    """A script's work: logged to the rule's log file; bad input, or a file that could not be written (a full
    disk), ends it with a one-line message and exit status 1, no traceback (``ORDEVAL_DEBUG=1`` shows it)."""
    from ordeval.io.errors import ConfigError, InputError
    from ordeval.io.files import remove_temporaries

    wildcards = dict(snakemake.wildcards.items())
    name = snakemake.rule + "".join(f"[{value}]" for value in wildcards.values())
    remove_temporaries(snakemake.output)  # what a killed run of this job left beside its outputs
    try:
        with logged(snakemake.log[0] if len(snakemake.log) else None, name) as log:
            yield log
    except (InputError, ConfigError):
        if os.environ.get("ORDEVAL_DEBUG") == "1":
            raise
        raise SystemExit(1) from None
    except OSError as error:  # a file that could not be written or read (a full disk): one line naming it
        if os.environ.get("ORDEVAL_DEBUG") == "1" or not error.filename:
            raise
        print(f"{name} failed: {error.filename}: {error.strerror}", file=sys.stderr)
        raise SystemExit(1) from None
    except pickle.UnpicklingError:  # ordeval unpickles nothing (allow_pickle=False): numba's cache of its kernels
        if os.environ.get("ORDEVAL_DEBUG") == "1":
            raise
        from ordeval.stats.threads import damaged_kernel_cache

        print(f"{name} failed: {damaged_kernel_cache()}", file=sys.stderr)
        raise SystemExit(1) from None
    except MemoryError:  # logged by logged(); one line, no traceback
        if os.environ.get("ORDEVAL_DEBUG") == "1":
            raise
        print(
            f"{name} failed: out of memory (more than this machine or its limits allow; see the rule's mem_mb)",
            file=sys.stderr,
        )
        raise SystemExit(1) from None


def in_process(log: Sequence[str], rule: str, wildcards, action: Callable[..., object], *arguments) -> object:
    """A ``run:`` block's work, ``action(*arguments)``, which runs in the Snakemake process (so logging is not
    reconfigured): its log (``log[0]``) says what it did and how long it took; an error is the log's last line and
    one line on the terminal, ``<rule>[<wildcards>] failed: <error>`` (an OSError names its file: a full disk, say),
    then raised again for Snakemake. A log that cannot be written (the same full disk) leaves the terminal's line
    as the record. Returns what ``action`` returns."""
    from ordeval.io.files import write_text

    name = rule + "".join(f"[{value}]" for value in dict(wildcards.items()).values())
    lines = [f"{name}: {action.__module__}.{action.__name__}({', '.join(map(str, arguments))})"]
    start = time.perf_counter()
    try:
        result = action(*arguments)
        lines.append(f"{name} done in {time.perf_counter() - start:.2f} s")
        return result
    except Exception as error:
        lines.append(f"{name} failed: {'out of memory' if isinstance(error, MemoryError) else error}")
        print(lines[-1], file=sys.stderr)
        raise
    finally:
        try:
            write_text("".join(line + "\n" for line in lines), log[0])
        except OSError as failure:
            print(f"{name}: {log[0]}: cannot write the log ({failure.strerror or failure})", file=sys.stderr)


def one_file(value) -> str | None:
    """The path of a named input that holds one file or none (an input function's ``[]``), or None."""
    if isinstance(value, str):
        return value
    found = list(value or [])
    if len(found) > 1:
        raise ValueError(f"expected one file, got {len(found)}: {', '.join(map(str, found))}")
    return str(found[0]) if found else None


def keyed(paths, names) -> dict[str, str]:
    """``{name: path}`` for the files of a rule's ``expand()`` over data sets (or any names): each path matched to
    the name it holds, whatever the order of ``paths``. The paths of one template differ only where the template
    has the name: the longest prefix and suffix they share that leave every name (exactly the ``names``) in
    the middle."""
    paths, names = [str(path) for path in paths], [str(name) for name in names]
    if len(paths) != len(names) or len(set(names)) != len(names):
        raise ValueError(f"{len(paths)} files for the {len(set(names))} names {', '.join(names)}")
    if len(paths) == 1:
        return {names[0]: paths[0]}
    prefix = os.path.commonprefix(paths)
    suffix = os.path.commonprefix([path[::-1] for path in paths])
    for start in range(len(prefix), -1, -1):
        for end in range(len(suffix), -1, -1):
            found = {path[start : len(path) - end]: path for path in paths}
            if set(found) == set(names):
                return {name: found[name] for name in names}
    raise ValueError(f"files {', '.join(paths)} do not each hold one of the names {', '.join(names)}")
