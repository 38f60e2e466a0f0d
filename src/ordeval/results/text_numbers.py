"""The numbers of a text file, read block by block: memory that does not grow with the file.

A text file compared by value (:mod:`ordeval.results.fingerprint`) is its *layout* -- the text with every number
replaced by :data:`MARK` -- and its numbers (the words between :data:`DELIMITERS` that are numbers in the readers'
grammar, :data:`ordeval.io.parsing.NUMBER`, at most :data:`ordeval.io.parsing.MAX_NUMBER_LENGTH` characters).
:func:`pieces` reads a file in blocks checked as every reader checks them (UTF-8, no NUL byte:
:func:`ordeval.io.parsing.checked_blocks`; a file that is not text stops at its first bad block) and yields each
block's layout and numbers, from which :func:`ordeval.results.fingerprint.fingerprint_file` makes a fingerprint and
:func:`compare_texts` compares two files side by side, neither holding a file.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ordeval.io.parsing import MAX_NUMBER_LENGTH, NUMBER, checked_blocks

#: The characters that separate the words of a text (spaces, punctuation of CSV, JSON, HTML and LaTeX).
DELIMITERS = re.compile(r"([\s,;:=<>\"'(){}\[\]|$&\\/%*!?`~^@#]+)")
_PUNCTUATION = frozenset(",;:=<>\"'(){}[]|$&\\/%*!?`~^@#")  # DELIMITERS besides whitespace
#: Bytes of a block: its words are held as Python strings while it is split (about 60 bytes a word).
TEXT_BLOCK = 1 << 20
#: What replaces each number in a layout.
MARK = "\0"


def is_number(word: str) -> bool:
    """Whether a word of a text is a number (the readers' grammar and length limit)."""
    return len(word) <= MAX_NUMBER_LENGTH and NUMBER.fullmatch(word) is not None


@dataclass
class Piece:
    """A block of a text file: its layout, its numbers (finite floats; one too large for a float is 0 here and
    recorded by the :class:`Stream`) and the line it starts on."""

    layout: str
    values: np.ndarray
    line: int


@dataclass
class Stream:
    """What :func:`pieces` found of a whole file once it is read: the count of numbers, and the first number too
    large for a float (its index and text), which the layout then records (its text is part of the layout)."""

    count: int = 0
    infinite: tuple[int, str] | None = None

    def suffix(self) -> str:
        """What the layout of the whole file ends with: ``\\0<index>:<text>`` of its first number that is not a
        finite float, else nothing (as :func:`ordeval.results.fingerprint.text_numbers` writes it)."""
        return "" if self.infinite is None else f"\0{self.infinite[0]}:{self.infinite[1]}"


def _is_delimiter(character: str) -> bool:
    return character in _PUNCTUATION or character.isspace()


def pieces(path: str | Path, stream: Stream | None = None) -> Iterator[Piece]:
    """The layout and numbers of the text file ``path``, block by block (each block of :data:`TEXT_BLOCK` bytes,
    checked as every reader checks its blocks, its words split at :data:`DELIMITERS`; a word cut by the end of a
    block is carried to the next, and a word longer than a number can be is text). ``stream`` (a fresh
    :class:`Stream`) receives the count and the first non-finite number. An InputError names a file that is not
    text at its first bad line."""
    stream = stream if stream is not None else Stream()
    decoder = codecs.getincrementaldecoder("utf-8")()
    carry, line, long_word = "", 1, False
    for block, _ in checked_blocks(path, TEXT_BLOCK):
        text = carry + decoder.decode(block)
        cut = len(text)
        while cut > 0 and not _is_delimiter(text[cut - 1]) and len(text) - cut <= MAX_NUMBER_LENGTH:
            cut -= 1
        if len(text) - cut > MAX_NUMBER_LENGTH:  # a word longer than a number: text, emitted as it comes
            cut = len(text)
        if cut:
            yield _piece(text[:cut], line, stream, long_word)
            line += text.count("\n", 0, cut)
            long_word = cut == len(text) and not _is_delimiter(text[-1])
        carry = text[cut:]
    if carry:
        yield _piece(carry, line, stream, long_word)


def _piece(text: str, line: int, stream: Stream, continued: bool) -> Piece:
    """The layout and numbers of ``text``, which starts on ``line`` (its first word the end of a word longer than a
    number when ``continued``)."""
    parts = DELIMITERS.split(text)
    words = parts[0::2]
    kinds = {word: is_number(word) for word in set(words)}
    numeric = [kinds[word] for word in words]
    if continued:
        numeric[0] = False
    numbers = [word for word, number in zip(words, numeric, strict=True) if number]
    parts[0::2] = [MARK if number else word for word, number in zip(words, numeric, strict=True)]
    values = np.fromiter(map(float, numbers), dtype=np.float64, count=len(numbers))  # the strict grammar: float()
    finite = np.isfinite(values)
    if not finite.all():  # too large for a float (1e400): its text is part of the layout
        first = int(np.flatnonzero(~finite)[0])
        if stream.infinite is None:
            stream.infinite = (stream.count + first, numbers[first])
        values = np.where(finite, values, 0.0)
    stream.count += len(numbers)
    return Piece("".join(parts), values, line)


def number_line(path: str | Path, index: int) -> int:
    """The line of number ``index`` (0-based) of a text file (read again, block by block)."""
    stream = Stream()
    for piece in pieces(path, stream):
        if stream.count > index:
            position, skip = -1, index - (stream.count - piece.values.size)
            for _ in range(skip + 1):
                position = piece.layout.index(MARK, position + 1)
            return piece.line + piece.layout.count("\n", 0, position)
    raise IndexError(index)


class _Side:
    """One file of :func:`compare_texts`: its pieces, and the layout and numbers read but not yet compared."""

    def __init__(self, path):
        self.stream = Stream()
        self.pieces = pieces(path, self.stream)
        self.layout, self.values, self.line, self.done = "", np.empty(0), 1, False

    def pull(self) -> None:
        piece = next(self.pieces, None)
        if piece is None:
            self.done = True
        else:
            self.layout += piece.layout
            self.values = np.concatenate([self.values, piece.values]) if self.values.size else piece.values


def compare_texts(old: str | Path, new: str | Path, tolerance) -> str | tuple[int, float, float, int] | None:
    """Two text files read side by side, block by block: None when their layouts agree and every pair of numbers
    is equal within ``tolerance``; where the layouts first differ (``text changed at line N (not only numbers):
    now '...'``: the new text from there, up to 40 characters of its line, numbers as ``#``); else (the line of
    the first pair of numbers that differs beyond the tolerance, its old and new value, how many pairs do)."""
    a, b = _Side(old), _Side(new)
    first, beyond, compared = None, 0, 0
    while True:
        for side in (a, b):
            if not side.done and len(side.layout) <= len((b if side is a else a).layout):
                side.pull()
        size = min(len(a.layout), len(b.layout))
        if a.layout[:size] != b.layout[:size]:
            position = next(i for i in range(size) if a.layout[i] != b.layout[i])
            return _layout_message(a, b, position)
        if any(side.done and len(side.layout) == size < len(other.layout) for side, other in ((a, b), (b, a))):
            return _layout_message(a, b, size)  # one file ends where the other goes on
        count = min(a.values.size, b.values.size)
        before, after = a.values[:count], b.values[:count]
        gap = np.abs(after - before)
        allowed = np.maximum(tolerance.absolute, tolerance.relative * np.maximum(np.abs(before), np.abs(after)))
        found = np.flatnonzero(gap > allowed)
        if found.size:
            beyond += int(found.size)
            if first is None:
                at = int(found[0])
                first = (compared + at, float(before[at]), float(after[at]))
        compared += count
        a.values, b.values = a.values[count:], b.values[count:]
        a.line += a.layout.count("\n", 0, size)
        a.layout, b.layout = a.layout[size:], b.layout[size:]
        if a.done and b.done and not (a.layout or b.layout):
            break
    if a.stream.suffix() != b.stream.suffix():
        return "a number too large for a float changed (not only numbers within a float's range)"
    if first is None:
        return None
    return number_line(old, first[0]), first[1], first[2], beyond


def _layout_message(a: _Side, b: _Side, position: int) -> str:
    shown = b.layout[position:]
    while len(shown) < 40 and "\n" not in shown and not b.done:
        b.pull()
        shown = b.layout[position:]
    shown = shown[:40].split("\n")[0].replace(MARK, "#")
    line = a.line + a.layout.count("\n", 0, position)
    return f"text changed at line {line} (not only numbers): now {shown!r}"
