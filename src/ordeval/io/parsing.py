"""Strict text parsing shared by the readers of every task.

Rules (docs/methods.md, section 1, "Validation"):

* a file is UTF-8 (a leading byte-order mark is accepted and dropped); a byte that is not UTF-8 is an
  error naming the physical line and the byte offset; a NUL byte is an error (not text); a file without
  a non-empty line is an error ("file is empty");
* lines are the PHYSICAL lines: the file is split on ``\\n`` only and a trailing ``\\r`` is dropped, so
  a form feed, U+2028, U+0085 and the like stay inside their line (``str.splitlines`` would split on
  them and make every later line number wrong); empty lines are skipped but keep their numbers;
* fields are separated by TAB; every line of a table has the same number of fields;
* numbers follow :data:`NUMBER` (``[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?``) and integers
  ``[+-]?digits``: no whitespace, no ``_``, no ``nan`` / ``inf`` (all of which Python's ``float``
  accepts);
* JSON objects must not repeat a key.

Every problem is an :class:`~ordeval.io.errors.InputError` naming the file, the physical line (or JSON
record) and the problem, and the FIRST bad line of the file is the one reported.

Tables are split with array operations on the file's bytes in :mod:`ordeval.io.fields` (:class:`Fields`,
:func:`read_fields`, :func:`iter_fields`).
"""

from __future__ import annotations

import codecs
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

from ordeval.io.errors import InputError, amount

BOM = b"\xef\xbb\xbf"
TAB, NEWLINE, CARRIAGE_RETURN, NUL = 9, 10, 13, 0

#: The number grammar (as a regular expression, for single values; tables use the equivalent automaton).
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
INTEGER = re.compile(r"[+-]?[0-9]+")
#: Longer fields are not taken for numbers (keeps the vectorised check's loop short).
MAX_NUMBER_LENGTH = 64
#: Integers with more digits than this may overflow 64 bits and are rejected.
MAX_INTEGER_DIGITS = 18


# --------------------------------------------------------------------------- bytes and text


#: Files are read in blocks of this many bytes, each checked (UTF-8, no NUL) before the next is read: a
#: file that is not text is refused at its first bad block, with the memory of the blocks read so far.
READ_BLOCK = 1 << 22


def checked_blocks(path: str | Path, size: int | None = None) -> Iterator[tuple[bytes, int]]:
    """The file's bytes in blocks of at most :data:`READ_BLOCK` (a UTF-8 byte-order mark dropped), each with
    the offset of its first byte in the file, checked as they are read: the first byte that is not UTF-8 or is NUL
    is an InputError naming its physical line and byte offset, and nothing after its block is read. Only a
    regular file is read (:func:`ordeval.io.files.open_regular`: a FIFO, a device or a folder is refused).
    ``size``: the bytes of a block (default :data:`READ_BLOCK`)."""
    from ordeval.io.files import open_regular

    path = Path(path)
    with open_regular(path) as handle:
        yield from checked_stream(handle, path, size)


def checked_stream(handle, path: str | Path, size: int | None = None) -> Iterator[tuple[bytes, int]]:
    """:func:`checked_blocks` of an open binary stream (``path`` names it in messages: ``<stdin>``)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset = lines = position = 0  # byte-order mark; newlines and bytes (after the mark) before the block
    while True:
        block = handle.read(size or READ_BLOCK)  # a buffered stream reads up to the size asked, or to the end
        if position == 0 and offset == 0 and block.startswith(BOM):
            block, offset = block[len(BOM) :], len(BOM)
        if not block:
            break
        pending = decoder.getstate()[0]
        if pending or not block.isascii():  # let the codec find the first bad byte
            try:
                decoder.decode(block)
            except UnicodeDecodeError as error:
                _not_utf8(path, block, lines, position, error.start - len(pending), error.object[error.start], offset)
        nul = block.find(b"\0")
        if nul >= 0:
            line = lines + block.count(b"\n", 0, nul) + 1
            where = f"byte offset {position + nul + offset}"
            raise InputError(path, f"line {line}", f"NUL byte at line {line} ({where}): not a text file")
        yield block, position + offset
        lines += block.count(b"\n")
        position += len(block)
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError as error:  # the file ends inside a character
        pending = error.object
        _not_utf8(path, b"", lines, position, error.start - len(pending), pending[error.start], offset)


def _not_utf8(path, block: bytes, lines: int, position: int, start: int, byte: int, offset: int):
    """The InputError of a byte that is not UTF-8 at ``start`` of ``block`` (negative: in the bytes held over
    from the block before, which hold no newline)."""
    line = lines + (block.count(b"\n", 0, start) if start > 0 else 0) + 1
    where = f"byte offset {position + start + offset}"
    raise InputError(path, f"line {line}", f"not UTF-8: byte 0x{byte:02x} at line {line} ({where})") from None


#: The longest line of a line-based file (a table): names, labels and numbers make far shorter lines, and a longer
#: one is refused at its line as it is read, before it is held.
MAX_LINE_BYTES = 1 << 24
#: The largest record ordeval writes and reads back (``reference.json``, ``manifest.json``, ``provenance.json``):
#: a larger one is refused before it is parsed (the default reference's is about 1 MB).
RECORD_BYTES = 64 * 2**20


def read_bytes(path: str | Path, limit: int | None = None, max_line: int | None = None) -> tuple[bytearray, int]:
    """The file's bytes without a UTF-8 byte-order mark, and the offset of the first kept byte (3 or 0),
    checked to be UTF-8 text without NUL bytes as it is read (:func:`checked_blocks`: a file that is not
    text costs the memory of its blocks up to the first bad one, not of the whole file); with ``limit``, a file
    of more bytes is an InputError once that many are read; with ``max_line``, a line of more bytes is an
    InputError naming it once that many of it are read (a table's line: a huge line costs no more memory)."""
    raw = bytearray()
    offset = None
    lines = current = 0  # newlines before the block; bytes of the line going on at its start
    for block, start in checked_blocks(path):
        offset = start if offset is None else offset
        if max_line is not None:
            current = _check_lines(path, block, lines, current, max_line)
            lines += block.count(b"\n")
        raw += block
        if limit is not None and len(raw) > limit:
            raise InputError(path, None, f"more than {amount(limit)}: too large for a file of its kind")
    return raw, offset or 0


def _check_lines(path, block: bytes, lines: int, current: int, max_line: int) -> int:
    """Raise at the first line longer than ``max_line`` bytes that ``block`` ends or holds (``current``: bytes of
    the line going on at its start, ``lines`` newlines before it); the bytes of the line going on at its end."""
    import numpy as np

    ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == NEWLINE)
    lengths = np.diff(ends, prepend=-1) - 1
    if lengths.size:
        lengths[0] += current
    tail = current + len(block) if not ends.size else len(block) - int(ends[-1]) - 1
    long = np.flatnonzero(lengths > max_line)
    if long.size or tail > max_line:
        number = lines + (int(long[0]) if long.size else ends.size) + 1
        raise InputError(
            path, f"line {number}", f"line {number} is longer than {max_line:,} bytes: not a line of a table"
        )
    return tail


def read_text(path: str | Path, limit: int | None = None) -> str:
    """The file as text: UTF-8 (see :func:`checked_blocks`), byte-order mark dropped, not blank; at most ``limit``
    bytes (:func:`read_bytes`)."""
    raw, _ = read_bytes(path, limit)
    if not raw or raw.isspace():
        raise InputError(path, None, "file is empty")
    return raw.decode("utf-8")


def iter_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """(physical line number, line) of every line of the file, as :func:`physical_lines` splits them, read
    block by block (:func:`checked_blocks`): the memory of one block and one line (at most
    :data:`MAX_LINE_BYTES`: a longer one is an InputError at its line), and reading stops at the first byte that is
    not text. A file without a non-empty line is an InputError ("file is empty")."""
    pending: list[bytes] = []  # the start of a line that goes on in the next block
    number = 0
    blank = True
    held = 0  # the bytes of the line going on
    for block, _ in checked_blocks(path):
        held = _check_lines(path, block, number, held, MAX_LINE_BYTES)
        start = 0
        while (end := block.find(b"\n", start)) >= 0:
            line = block[start:end]
            if pending:
                line, pending = b"".join([*pending, line]), []
            line = line.removesuffix(b"\r")
            number += 1
            blank = blank and not line.strip()
            yield number, line.decode("utf-8")
            start = end + 1
        if start < len(block):
            pending.append(block[start:])
    if pending:
        line = b"".join(pending).removesuffix(b"\r")
        blank = blank and not line.strip()
        yield number + 1, line.decode("utf-8")
    if blank:
        raise InputError(path, None, "file is empty")


def first_line(path: str | Path) -> tuple[int, str]:
    """(physical line number, text) of the file's first non-empty line, read as :func:`iter_lines` reads
    (the rest of the file is not read)."""
    for number, line in iter_lines(path):
        if line:
            return number, line
    raise InputError(path, None, "file is empty")  # pragma: no cover - iter_lines raises it


def physical_lines(text: str) -> list[str]:
    """``text`` split on ``\\n`` only, a trailing ``\\r`` dropped from each line, no empty last line
    for a final newline. Line ``i`` of the result is physical line ``i + 1``."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" in text:
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return lines


def quoted(text: str, limit: int = 60) -> str:
    """``repr`` of a field for messages, shortened if long; a field not in Unicode NFC form with its characters
    beyond ASCII as code points (:func:`ordeval.io.names.distinct`), so that two that differ only there differ."""
    from ordeval.io.names import distinct

    return distinct(text) if len(text) <= limit else distinct(text[:limit]) + f"... ({len(text)} characters)"


# --------------------------------------------------------------------------- single values


def parse_number(text: str, path: str | Path, where: str | None, what: str = "number") -> float:
    """One finite number in the strict grammar (:data:`NUMBER`)."""
    if len(text) > MAX_NUMBER_LENGTH or not NUMBER.fullmatch(text):
        raise InputError(path, where, f"{what} {quoted(text)} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise InputError(path, where, f"{what} {quoted(text)} is out of range")
    return value


def parse_integer(text: str, path: str | Path, where: str | None, what: str = "integer") -> int:
    """One integer ``[+-]?digits``."""
    if not INTEGER.fullmatch(text) or len(text.lstrip("+-")) > MAX_INTEGER_DIGITS:
        raise InputError(path, where, f"{what} {quoted(text)} is not an integer")
    return int(text)


# --------------------------------------------------------------------------- JSON


class _DuplicateKeys(dict):
    """A JSON object that repeated a key (kept to be reported with its place)."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, object]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            marked = _DuplicateKeys(result)
            marked.duplicate = key
            for later_key, later_value in pairs:
                marked.setdefault(later_key, later_value)
            return marked
        result[key] = value
    return result


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _find_duplicate(value, place: list) -> tuple[list, str] | None:
    """(path to the object, key) of the first object (depth first) that repeated a key; iterative, so that
    a deeply nested value costs no recursion."""
    stack = [(value, place)]
    while stack:
        value, place = stack.pop()
        if isinstance(value, _DuplicateKeys):
            return place, value.duplicate
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        stack.extend((child, [*place, key]) for key, child in reversed(list(children)))
    return None


def _describe_place(place: list) -> str:
    if not place:
        return "top-level object"
    head, rest = place[0], place[1:]
    text = f"record {head + 1}" if isinstance(head, int) else f"key {head!r}"
    return text + "".join(f"[{step!r}]" for step in rest)


def load_json(path: str | Path, limit: int | None = None):
    """A JSON file: UTF-8 (reported as :func:`read_text` does), no repeated key in any object (an error
    naming the record -- 1-based position in a top-level list -- and the key), no NaN / Infinity; at most
    ``limit`` bytes (:data:`RECORD_BYTES` for the records ordeval writes)."""
    text = read_text(path, limit)
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise InputError(path, f"line {error.lineno} column {error.colno}", f"invalid JSON: {error.msg}") from None
    except RecursionError:
        raise InputError(path, None, "invalid JSON: nested too deeply (arrays or objects inside each other)") from None
    except ValueError as error:
        raise InputError(path, None, f"invalid JSON: {error}") from None
    found = _find_duplicate(value, [])
    if found:
        place, key = found
        raise InputError(path, _describe_place(place), f"duplicate key {key!r} in one JSON object")
    return value
