"""Input files of the commands: ``-`` for standard input, and a guess at a file's format when it does not
read as the format given."""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path

from ordeval.cli.checks import UserError, existing

#: Where standard input was saved (the readers take paths) -> how messages name it.
STDIN_NAMES: dict[str, str] = {}
STDIN = "<stdin>"


def gold_format_of(args) -> str:
    """The gold's format: ``--gold-format``, else that of the runs (NTCIR: the annotations that go with
    submissions)."""
    return args.gold_format or ("ntcir_annotations" if args.format == "ntcir_submission" else args.format)


def input_path(text: str, option: str = "") -> Path:
    """The path of an input file; ``-`` saves standard input to a temporary file (once per call) that
    messages name ``<stdin>``."""
    if text != "-":
        return existing(text, option=option or "FILE")
    if STDIN_NAMES:
        raise UserError(f"{option or 'FILE'}: standard input ('-') can be read once, and is already taken")
    if sys.stdin is None or sys.stdin.isatty():
        raise UserError(f"{option or 'FILE'}: nothing on standard input ('-'): pipe or redirect a file into it")
    folder = Path(tempfile.mkdtemp(prefix="ordeval-stdin-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "stdin"
    with open(path, "wb") as handle:  # not an output: a scratch copy of standard input
        shutil.copyfileobj(sys.stdin.buffer, handle)
    STDIN_NAMES[str(path)] = STDIN
    STDIN_NAMES[str(path.resolve())] = STDIN
    return path


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
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            head = handle.read(65536)
    except OSError:
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
