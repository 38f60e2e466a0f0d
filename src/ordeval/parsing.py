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

Every problem is an :class:`~ordeval.errors.InputError` naming the file, the physical line (or JSON
record) and the problem, and the FIRST bad line of the file is the one reported.

Tables are split with array operations on the file's bytes in :mod:`ordeval.fields` (:class:`Fields`,
:func:`read_fields`, :func:`iter_fields`, also importable from here).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np

from .errors import InputError

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


def read_bytes(path: str | Path) -> tuple[bytes, int]:
    """The file's bytes without a UTF-8 byte-order mark, and the offset of the first kept byte (3 or 0),
    checked to be UTF-8 text without NUL bytes."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, None, "file not found") from None
    except IsADirectoryError:
        raise InputError(path, None, "is a directory, not a file") from None
    offset = 0
    if raw.startswith(BOM):
        raw, offset = raw[len(BOM) :], len(BOM)
    check_utf8(path, raw, offset)
    return raw, offset


def check_utf8(path: str | Path, raw: bytes, offset: int = 0) -> None:
    """Raise an InputError at the first byte of ``raw`` that is not UTF-8 or is NUL (``offset``: where
    ``raw`` starts in the file, for the reported byte offset)."""
    data = np.frombuffer(raw, dtype=np.uint8)
    if data.size and data.max() >= 0x80:  # not pure ASCII: let the codec find the first bad byte
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            position = error.start
            line = raw.count(b"\n", 0, position) + 1
            raise InputError(
                path,
                f"line {line}",
                f"not UTF-8: byte 0x{raw[position]:02x} at line {line} (byte offset {position + offset})",
            ) from None
    nul = raw.find(b"\0")
    if nul >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        raise InputError(path, f"line {line}", f"NUL byte at line {line} (byte offset {nul + offset}): not a text file")


def read_text(path: str | Path) -> str:
    """The file as text: UTF-8 (see :func:`check_utf8`), byte-order mark dropped, not blank."""
    raw, _ = read_bytes(path)
    if not raw.strip():
        raise InputError(path, None, "file is empty")
    return raw.decode("utf-8")


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
    """``repr`` of a field for messages, shortened if long."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} characters)"


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


def load_json(path: str | Path):
    """A JSON file: UTF-8 (reported as :func:`read_text` does), no repeated key in any object (an error
    naming the record -- 1-based position in a top-level list -- and the key), no NaN / Infinity."""
    text = read_text(path)
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


def __getattr__(name: str):
    """The table readers moved to :mod:`ordeval.fields` stay importable from here."""
    if name in ("Fields", "iter_fields", "read_fields"):
        from . import fields

        return getattr(fields, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
