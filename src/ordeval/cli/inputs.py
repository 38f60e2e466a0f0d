"""Input files of the commands: ``-`` for standard input, and a guess at a file's format when it does not
read as the format given.

Standard input is copied to a temporary file (the readers take paths, and ``ordeval validate`` reads a file
again after each problem), checked block by block as it is copied (UTF-8, no NUL byte: what is not text stops
the copy at its first block, with the message naming ``<stdin>``), and at most :data:`MAX_STDIN_BYTES`. The copy
lies in a folder ``ordeval-stdin-<pid>-*`` of the temporary folder, removed when the command ends, also when
it is stopped by a signal (:mod:`ordeval.cli.stopping`); one left by a process that was killed outright
(``SIGKILL``) is removed by the next command that reads standard input."""

from __future__ import annotations

import atexit
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from ordeval.cli.checks import UserError, existing
from ordeval.io.errors import InputError, amount

#: Where standard input was saved (the readers take paths) -> how messages name it.
STDIN_NAMES: dict[str, str] = {}
STDIN = "<stdin>"
#: The most standard input that is copied (a larger input is refused: give it as a file).
MAX_STDIN_BYTES = 256 * 2**20
#: The folders of standard input's copies: ``ordeval-stdin-<pid of the process>-<random>``.
_STDIN_FOLDER = re.compile(r"^ordeval-stdin-(\d+)-[A-Za-z0-9_]+$")


def gold_format_of(args) -> str:
    """The gold's format: ``--gold-format``, else that of the runs (NTCIR: the annotations that go with
    submissions)."""
    return args.gold_format or ("ntcir_annotations" if args.format == "ntcir_submission" else args.format)


def input_path(text: str, option: str = "") -> Path:
    """The path of an input file; ``-`` saves standard input to a temporary file (once per call, checked as it
    is copied: see the module) that messages name ``<stdin>``."""
    if text != "-":
        return existing(text, option=option or "FILE")
    if STDIN_NAMES:
        raise UserError(f"{option or 'FILE'}: standard input ('-') can be read once, and is already taken")
    if sys.stdin is None or sys.stdin.isatty():
        raise UserError(f"{option or 'FILE'}: nothing on standard input ('-'): pipe or redirect a file into it")
    remove_stale_copies()
    folder = Path(tempfile.mkdtemp(prefix=f"ordeval-stdin-{os.getpid()}-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "stdin"
    STDIN_NAMES[str(path)] = STDIN
    STDIN_NAMES[str(path.resolve())] = STDIN
    try:
        _copy_stdin(path)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return path


def _copy_stdin(path: Path) -> None:
    """Copy standard input to ``path`` block by block, each checked as the readers check a file
    (:func:`ordeval.io.parsing.checked_stream`), at most :data:`MAX_STDIN_BYTES`. The copy stops after the first
    block that is not text (which the readers then report at its line, as for a file)."""
    from ordeval.io.parsing import checked_stream

    with open(path, "wb") as handle:  # not an output: a scratch copy of standard input
        copy = _Copy(sys.stdin.buffer, handle)
        try:
            for _ in checked_stream(copy, STDIN):
                if copy.size > MAX_STDIN_BYTES:
                    raise InputError(
                        STDIN,
                        None,
                        f"more than {amount(MAX_STDIN_BYTES)} on standard input (the most that is copied to be "
                        "read): give the file by its path",
                    )
        except InputError as error:
            if error.path != STDIN or error.where is None:  # the limit; not a problem of the text at a line
                raise


class _Copy:
    """A binary stream that writes what is read from ``source`` to ``target``, counting it."""

    def __init__(self, source, target):
        self.source, self.target, self.size = source, target, 0

    def read(self, size: int) -> bytes:
        block = self.source.read(size)
        self.target.write(block)
        self.size += len(block)
        return block


def remove_stale_copies(folder: str | Path | None = None) -> list[Path]:
    """Remove the folders of standard input's copies (``ordeval-stdin-<pid>-*`` in the temporary folder) whose
    process is gone (killed before it could remove its own); those of running processes are left."""
    removed = []
    folder = Path(folder or tempfile.gettempdir())
    try:
        entries = list(folder.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = _STDIN_FOLDER.match(entry.name)
        if not match or int(match.group(1)) == os.getpid() or _alive(int(match.group(1))):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink() and entry.stat().st_uid == os.getuid():
                shutil.rmtree(entry)
                removed.append(entry)
        except OSError:
            continue
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def reset() -> None:
    """Forget standard input's file (each call of the command reads it anew)."""
    STDIN_NAMES.clear()


def shown(message: str) -> str:
    """``message`` with the temporary file of standard input named ``<stdin>``."""
    for path, name in sorted(STDIN_NAMES.items(), key=lambda item: -len(item[0])):
        message = message.replace(path, name)
    return message


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sniff_format(path: str | Path, formats: list[str]) -> str | None:
    """The format among ``formats`` that the first lines of ``path`` look like, or None: ``tsv`` (a
    ``topic`` header), ``ntcir_annotations`` / ``ntcir_submission`` (JSON records with ``annotations`` /
    ``quality``), ``semeval_labels`` (id, topic, label), ``semeval_dist`` (topic, then numbers)."""
    import io

    from ordeval.io.files import open_regular

    try:
        with io.TextIOWrapper(open_regular(path), encoding="utf-8-sig", errors="replace") as handle:
            head = handle.read(65536)
    except (OSError, InputError):
        return None
    text = head.lstrip()
    if text.startswith(("[", "{")):
        guess = "ntcir_annotations" if '"annotations"' in head else "ntcir_submission" if '"quality"' in head else None
        return guess if guess in formats else None
    lines = [line for line in head.splitlines() if line.strip()][:20]
    if not lines:
        return None
    fields = [line.split("\t") for line in lines]
    if fields[0][0].strip() == "topic":
        guess = "tsv"
    elif all(len(row) == 3 and not _is_number(row[1]) for row in fields[:-1] or fields):
        guess = "semeval_labels"
    elif all(len(row) >= 3 and all(_is_number(cell) for cell in row[1:]) for row in fields[:-1] or fields):
        guess = "semeval_dist"
    else:
        return None
    return guess if guess in formats else None


def format_hint(path: str | Path, given: str, formats: list[str], option: str = "--format") -> str:
    """``; it looks like semeval_labels (--format semeval_labels)`` when the file looks like another of
    ``formats`` than ``given``, else an empty string."""
    guess = sniff_format(path, formats)
    if guess is None or guess == given:
        return ""
    return f"; it looks like {guess} ({option} {guess})"
