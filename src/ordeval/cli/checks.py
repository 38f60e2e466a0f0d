"""Checks of the command-line arguments, made before the first file is written.

* numbers: ``--alpha`` and ``--level`` finite and strictly between 0 and 1 (``nan``, ``inf`` refused);
  ``--seed`` an integer 0..2^63-1; ``--trials`` 1..10,000,000 and within the memory limit;
  ``--threads`` and ``ordeval run --cores`` positive integers (or ``all``);
* memory: the randomised Tukey HSD keeps a trials x measures array of range statistics and sorts it
  (about 16 bytes per trial and measure, plus the scores); a call whose estimate exceeds the limit is
  refused with the estimate. The limit is half the machine's memory; ``ORDEVAL_MEMORY_LIMIT`` (in GiB,
  e.g. ``ORDEVAL_MEMORY_LIMIT=64``) overrides it;
* names: run names follow the pipeline's name policy (:mod:`ordeval.io.names`; ``topic`` and the other
  column names are reserved);
* ``--out``: a folder holds exactly what one call wrote. ``ordeval score`` records the files it writes
  in ``<out>/.ordeval-files`` before it writes them (so a call stopped midway, by a full disk or a kill,
  leaves a folder the next call may write again); a later call into the same folder removes those files
  (and only those) before writing; a non-empty folder without that record, or with files it does not
  list, is refused; and one call writes into a folder at a time (:func:`exclusive_folder`: ``ordeval score``,
  ``ordeval leaderboard``; a second call at once is refused in one line).
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2."""


def existing(path: str, what: str = "file", option: str = "") -> Path:
    """``path`` as a Path where it is an existing ``what`` (file or folder); else a UserError saying what it is
    (``option``: the command-line option that gave it, for an empty path)."""
    if not str(path).strip():
        raise UserError(f"{option or what}: empty path")
    candidate = Path(path)
    if not candidate.exists():
        raise UserError(f"{path}: no such {what}")
    if what == "file" and candidate.is_dir():
        raise UserError(f"{path}: is a folder, not a file")
    if what == "file" and not candidate.is_file():
        from ordeval.io.files import file_kind

        raise UserError(f"{path}: is {file_kind(candidate.stat().st_mode)}, not a regular file")
    if what == "folder" and not candidate.is_dir():
        raise UserError(f"{path}: not a folder")
    return candidate


MAX_SEED = 2**63 - 1
MAX_TRIALS = 10_000_000
#: Bytes per trial and measure of the randomised Tukey HSD (range statistics and their sorted copy).
HSD_BYTES_PER_CELL = 16
MEMORY_VARIABLE = "ORDEVAL_MEMORY_LIMIT"
#: The record of the files an ``ordeval score`` call wrote into its ``--out`` folder.
RECORD = ".ordeval-files"


def probability(text: str) -> float:
    """An argparse type: a finite number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a finite number strictly between 0 and 1")
    return value


def non_negative_number(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a finite number >= 0")
    return value


def positive_number(text: str) -> float:
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a finite number > 0")
    return value


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def seed(text: str) -> int:
    """An argparse type: an integer 0..2^63-1."""
    value = _integer(text)
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text}: a seed is an integer from 0 to 2^63-1")
    return value


def trials(text: str) -> int:
    """An argparse type: an integer 1..MAX_TRIALS."""
    value = _integer(text)
    if not 1 <= value <= MAX_TRIALS:
        raise argparse.ArgumentTypeError(f"{text}: from 1 to {MAX_TRIALS:,} trials")
    return value


def positive(text: str) -> int:
    """An argparse type: an integer >= 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: at least 1")
    return value


def cores(text: str) -> str:
    """An argparse type: ``all`` or an integer >= 1 (Snakemake's ``--cores``)."""
    return text if text == "all" else str(positive(text))


def memory_limit() -> int:
    """Bytes a command may plan to use: ``ORDEVAL_MEMORY_LIMIT`` GiB, else half the physical memory."""
    override = os.environ.get(MEMORY_VARIABLE)
    if override:
        try:
            value = float(override)
        except ValueError:
            raise UserError(f"{MEMORY_VARIABLE}={override!r}: a number of GiB") from None
        if not math.isfinite(value) or value <= 0:
            raise UserError(f"{MEMORY_VARIABLE}={override!r}: a positive number of GiB")
        return int(value * 2**30)
    from ordeval.workflow.limits import machine_memory_gb

    return int(machine_memory_gb() * 2**30) // 2 or 8 * 2**30  # 8 GiB where the memory cannot be known


def check_hsd_memory(trial_count: int, measures: int, topics: int, runs: int) -> None:
    """Refuse an HSD whose memory estimate exceeds :func:`memory_limit`, with the estimate."""
    estimate = HSD_BYTES_PER_CELL * trial_count * measures + 3 * 8 * measures * topics * runs
    limit = memory_limit()
    if estimate > limit:
        raise UserError(
            f"--trials {trial_count}: the randomised Tukey HSD of {measures} measures would need about "
            f"{_size(estimate)}, more than the limit of {_size(limit)} (fewer trials or measures; "
            f"{MEMORY_VARIABLE}=<GiB> raises the limit)"
        )


def _size(count: int) -> str:
    return f"{count / 2**30:.1f} GiB" if count >= 2**30 else f"{count / 2**20:.1f} MiB"


def check_run_names(names: Iterable[str]) -> None:
    """Run names by the pipeline's name policy (``topic`` and the other column names are reserved)."""
    from ordeval.io.names import name_problem

    for name in names:
        problem = name_problem(name, kind="run name")
        if problem:
            raise UserError(f"--run: {problem}")


def out_folder(path: str | Path) -> list[Path]:
    """Check that ``ordeval score`` may write into ``path``: it does not exist, is empty, or holds only the
    files a previous call recorded in :data:`RECORD` (and their temporary files, ``.<name>.<8 characters>``,
    where a call was killed while writing one). Returns those earlier files (removed by
    :func:`clear_previous` once everything is checked); nothing is written here."""
    folder = Path(path)
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise UserError(f"--out {path}: not a folder")
    present = sorted(entry.name for entry in folder.iterdir())
    if not present:
        return []
    record = folder / RECORD
    if not record.is_file():
        raise UserError(
            f"--out {path}: the folder is not empty and was not written by 'ordeval score' (no {RECORD}); "
            "give a new or empty folder"
        )
    from ordeval.io.errors import InputError
    from ordeval.io.parsing import iter_lines

    try:  # line by line: a record that is not text is refused at its first bad block
        listed = {line.strip() for _, line in iter_lines(record) if line.strip()}
    except InputError as error:
        if error.problem != "file is empty":
            raise UserError(
                f"{record}: not a list of file names ({error.where or ''}{': ' if error.where else ''}{error.problem})"
            ) from None
        listed = set()
    if any("/" in name or "\\" in name or name in {".", ".."} for name in listed):
        raise UserError(f"{record}: not a list of file names")
    foreign = [name for name in present if name != RECORD and name not in listed and not _temporary_of(name, listed)]
    if foreign:
        raise UserError(
            f"--out {path}: holds {', '.join(foreign[:3])}{' ...' if len(foreign) > 3 else ''}, which an earlier "
            "'ordeval score' call did not write; give a new or empty folder"
        )
    return [folder / name for name in present if name != RECORD]


@contextmanager
def exclusive_folder(path: str | Path, option: str, command: str) -> Iterator[Path]:
    """Hold an exclusive lock (``flock``) on the output folder ``path`` while the block runs, so that a second call
    writing into the same folder at the same time is refused in one line instead of both mixing their files (each
    then saying it wrote them). The folder (and its missing parents) is created if it is missing, and removed
    again if the block fails while it is still empty; nothing is written into it for the lock."""
    import fcntl

    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{option} {path}: not a folder")
    created = [parent for parent in (folder, *folder.parents) if not parent.exists()]  # innermost first
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as error:
        raise UserError(f"{option} {path}: {error.strerror or error}") from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UserError(
                f"{option} {path}: another '{command}' is writing into this folder now; wait for it to end, or give "
                "another folder"
            ) from None
        try:
            yield folder
        except BaseException:
            with suppress(OSError):
                for made in created:
                    made.rmdir()  # only while it is empty
            raise
    finally:
        os.close(descriptor)


def _temporary_of(name: str, listed: set[str]) -> bool:
    """Whether ``name`` is the temporary file of a listed file (left by a call killed while writing it)."""
    from ordeval.io.files import TEMPORARY

    match = TEMPORARY.match(name)
    return bool(match) and match.group("name") in listed


def clear_previous(files: Iterable[Path]) -> None:
    """Remove the files an earlier call wrote (see :func:`out_folder`)."""
    for path in files:
        path.unlink(missing_ok=True)


def record_written(folder: Path, names: Iterable[str]) -> None:
    """Write :data:`RECORD`: the names of the files this call wrote into ``folder``."""
    from ordeval.io.files import write_text

    write_text("".join(f"{name}\n" for name in sorted(set(names))), folder / RECORD)
