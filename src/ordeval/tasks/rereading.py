"""Re-reading a file with each reported problem taken out: how :mod:`ordeval.tasks.validation` lists every problem
of a file with exactly the readers' rules.

A :class:`FileCopy` is a file and a scratch copy of it (in a temporary folder, never an output). :func:`line_loop`
reads a line-based file, blanks the line of each problem the reader reports (or every line of a long table's
distribution, for a problem of the whole distribution) and reads it again, until it reads or a problem hides the
rest; :func:`json_loop` does the same for a JSON list, leaving out the reported record. Each problem is a
:class:`Problem` with the file's own line and record numbers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from ordeval.io.errors import InputError

_LINE = re.compile(r"^line (\d+)\b\s*(.*)$", re.S)
_RECORD = re.compile(r"^record (\d+)\b")
_BYTE = re.compile(r"^byte (\d+)$")
_RECORD_NUMBER = re.compile(r"\brecord (\d+)\b")
_TOPIC_RUN = re.compile(r"\(topic '(?P<topic>[^']*)'(?:, run '(?P<run>[^']*)')?\)")
#: Problems after which the rest of a file cannot be checked: a run that names no gold item at all, a run
#: paired by position with another number of lines than the gold has items, or whose topics stop agreeing
#: with the gold's at a line (blanking that line would shift the later ones and miscount the lines); a NUL
#: byte (not a text file: the reader stops at its block, and so does the check, whatever the file's size); a
#: line too long for a table (the reader stops there without holding it; blanking it would hold the whole file).
_HIDES_THE_REST = re.compile(
    r"none of the \d+ lines|with align: position (?:line i|the topics must agree)"
    r"|NUL byte at line \d+ .*not a text file|line \d+ is longer than [\d,]+ bytes"
)
#: Problems of a file whose reported lines were taken out and nothing was left: they follow from those lines.
_FOLLOWS = re.compile(r"^(?:file is empty|file holds a header but no rows)$")
#: Problems of a whole distribution (a long table reports them at the topic's first line).
_DISTRIBUTION = re.compile(r"probabilit(?:y|ies) .*(?:sum to|outside|NaN)")


@dataclass(frozen=True)
class Problem:
    """One problem: ``file:line: problem`` (``file: problem`` where no line applies)."""

    path: str
    line: int | None
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}" if self.line else f"{self.path}: {self.problem}"


class FileCopy:
    """A file and a working copy of it with some lines blanked (or JSON records left out)."""

    def __init__(self, path: Path, folder: Path):
        self.path = path
        self.blanked: set[int] = set()  # physical line numbers
        self.copy = folder / path.name

    @cached_property
    def raw(self) -> bytes:
        """The file's bytes: read only once a problem is to be taken out (a file that reads, or whose first
        problem hides the rest, is read by the reader alone, block by block)."""
        return self.path.read_bytes()

    @cached_property
    def lines(self) -> list[bytes]:
        return self.raw.split(b"\n")

    def current(self) -> Path:
        if not self.blanked:
            return self.path
        lines = [b"" if number + 1 in self.blanked else line for number, line in enumerate(self.lines)]
        self.copy.write_bytes(b"\n".join(lines))  # not an output: a scratch copy in a temporary folder
        return self.copy

    def fields(self, number: int) -> list[str]:
        line = self.lines[number - 1] if 0 < number <= len(self.lines) else b""
        return line.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r").decode("utf-8", errors="replace").split("\t")

    def first_nonempty(self) -> int:
        for number, line in enumerate(self.lines, start=1):
            if line.strip():
                return number
        return 0

    def text(self, message: str) -> str:
        return message.replace(str(self.copy), str(self.path))


def _located(error: InputError, copy: FileCopy) -> tuple[int | None, str]:
    """(line, message) of a reader's error, the message without the line and with the real path."""
    where, problem = error.where or "", copy.text(error.problem)
    match = _LINE.match(where)
    if match:
        rest = match.group(2).strip()
        if rest:
            problem = f"{problem} {rest}" if rest.startswith("(") else f"{rest}: {problem}"
        return int(match.group(1)), problem
    match = _BYTE.match(where)
    if match:
        offset = int(match.group(1))
        return copy.raw[:offset].count(b"\n") + 1, problem
    return None, f"{where}: {problem}" if where else problem


def line_loop(copy: FileCopy, read, fmt: str, limit: int) -> tuple[list[Problem], dict | None, bool]:
    """Read ``copy``, blanking each reported line, until it reads or a problem hides the rest."""
    problems: list[Problem] = []
    reported_groups: set[tuple[str, ...]] = set()
    while True:
        try:
            return problems, read(copy.current()), False
        except InputError as error:
            line, text = _located(error, copy)
            problem = Problem(str(copy.path), line, text)
            if problems and line is None and _FOLLOWS.search(text):  # the lines reported were all there was
                return problems, None, False
            if (
                line is None
                or line in copy.blanked
                or _HIDES_THE_REST.search(text)
                or (
                    fmt == "tsv" and line == copy.first_nonempty()  # the header
                )
            ):
                problems.append(problem)
                return problems, None, False
            group = _group(copy, line, fmt, error.where or "")
            whole = group is not None and _DISTRIBUTION.search(error.problem) is not None
            if whole and group in reported_groups:  # follows from a line of it already reported
                copy.blanked |= _group_lines(copy, group, fmt)
                continue
            problems.append(problem)
            if len(problems) >= limit:
                return problems, None, True
            copy.blanked |= _group_lines(copy, group, fmt) if whole else {line}
            if group is not None:
                reported_groups.add(group)


def _group(copy: FileCopy, line: int, fmt: str, where: str) -> tuple[str, ...] | None:
    """The (topic[, run]) of a line of a quantification long table (None for other formats)."""
    if fmt != "tsv":
        return None
    match = _TOPIC_RUN.search(where)
    if match:
        return tuple(value for value in (match.group("topic"), match.group("run")) if value is not None)
    fields = copy.fields(line)
    header = copy.fields(copy.first_nonempty())
    width = 2 if "run" in header and header.index("run") == 1 else 1
    return tuple(value.strip() for value in fields[:width])


def _group_lines(copy: FileCopy, group: tuple[str, ...] | None, fmt: str) -> set[int]:
    if group is None:
        return set()
    header = copy.first_nonempty()
    return {
        number
        for number in range(header + 1, len(copy.lines) + 1)
        if tuple(value.strip() for value in copy.fields(number)[: len(group)]) == group
    }


def _record_spans(text: str) -> list[tuple[int, int]] | None:
    """(start, end) offsets of each record of a top-level JSON list, None if it is not one."""
    decoder = json.JSONDecoder()
    position = len(text) - len(text.lstrip())
    if not text.startswith("[", position):
        return None
    position += 1
    spans = []
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            return spans
        try:
            _, end = decoder.raw_decode(text, position)
        except (ValueError, RecursionError):
            return None
        spans.append((position, end))
        position = end


def json_loop(copy: FileCopy, read, limit: int) -> tuple[list[Problem], dict | None, bool, set[str]]:
    """Read a JSON list file, leaving out each reported record, until it reads or a problem hides the rest.
    Also returns the ids of the records left out."""
    try:
        return [], read(copy.path), False, set()
    except InputError as first:
        error = first
    text = copy.raw.decode("utf-8", errors="replace").removeprefix("\ufeff")
    spans = _record_spans(text) if _RECORD.match(error.where or "") else None
    if spans is None:  # syntax, encoding, not a list: nothing after it can be checked
        line, message = _located(error, copy)
        return [Problem(str(copy.path), line, message)], None, False, set()
    active = list(range(len(spans)))
    problems: list[Problem] = []
    left_out: set[str] = set()
    while True:
        where = error.where or ""
        match = _RECORD.match(where)
        if not match or not active:
            if active:
                problems.append(Problem(str(copy.path), None, _renumber(f"{where}: {error.problem}", active)))
            return problems, None, False, left_out
        original = active[int(match.group(1)) - 1]
        line = text.count("\n", 0, spans[original][0]) + 1
        problems.append(Problem(str(copy.path), line, _renumber(f"{where}: {copy.text(error.problem)}", active)))
        if len(problems) >= limit:
            return problems, None, True, left_out
        left_out.add(_record_id(text[slice(*spans[original])]))
        active.remove(original)
        remaining = "[" + ",\n".join(text[slice(*spans[index])] for index in active) + "]"
        copy.copy.write_text(remaining, encoding="utf-8")  # not an output: a scratch copy in a temporary folder
        try:
            return problems, read(copy.copy), False, left_out
        except InputError as again:
            error = again


def _renumber(message: str, active: list[int]) -> str:
    """Record numbers of the working copy as those of the file."""

    def original(match: re.Match) -> str:
        number = int(match.group(1))
        return f"record {active[number - 1] + 1}" if 0 < number <= len(active) else match.group(0)

    return _RECORD_NUMBER.sub(original, message)


def _record_id(text: str) -> str:
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):
        return ""
    return str(record.get("id", "")) if isinstance(record, dict) else ""
