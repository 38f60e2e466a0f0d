"""Tables split into fields with array operations, by the rules of :mod:`ordeval.io.parsing`.

:class:`Fields` keeps the byte offsets of a table's fields (not strings): a file of a million lines is
checked without a Python call per line -- numbers through a vectorised automaton equivalent to
:data:`ordeval.io.parsing.NUMBER` -- and columns become Python strings only when asked
(:meth:`Fields.column`). :func:`read_fields` reads a whole table, :func:`iter_fields` a long one in
pieces. Every problem is an :class:`~ordeval.io.errors.InputError` naming the file and the physical line.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.field_bytes import (
    INTEGER_ACCEPT,
    INTEGER_TABLE,
    NUMBER_ACCEPT,
    NUMBER_FLAT,
    PADDED_CLASS,
    PADDED_CLASSES,
    accepts,
    byte_columns,
    gather,
    pack,
    packed,
    to_floats,
    unpack,
)
from ordeval.io.parsing import (
    CARRIAGE_RETURN,
    INTEGER,
    MAX_INTEGER_DIGITS,
    MAX_LINE_BYTES,
    MAX_NUMBER_LENGTH,
    NEWLINE,
    TAB,
    quoted,
    read_bytes,
)

# --------------------------------------------------------------------------- tables

#: Files are split in pieces of about this many bytes, and columns handled this many records at a time:
#: arrays stay small enough to be recycled by the allocator instead of being mapped afresh (page faults
#: would otherwise cost more than the arithmetic).
CHUNK_BYTES = 1 << 22
CHUNK_RECORDS = 1 << 18
#: The longest field of a table (bytes): names, labels and numbers are far shorter, and a longer one is refused at
#: its line (a column's fields are padded to its longest one). Lines: at most MAX_LINE_BYTES.
MAX_FIELD_BYTES = 1024


def _records(width: int) -> int:
    """Records handled at once where each is padded to ``width`` bytes: :data:`CHUNK_BYTES` of them at most."""
    return max(1, min(CHUNK_RECORDS, CHUNK_BYTES // max(width, 1)))


def _pieces(count: int, size: int = CHUNK_RECORDS) -> list[slice]:
    return [slice(start, min(count, start + size)) for start in range(0, count, size)]


@dataclass
class Fields:
    """The non-empty physical lines of a tab-separated file, each split into the same number of fields.

    Nothing is decoded until asked: ``bounds[i, k]`` is the byte offset of the separator before field
    ``k`` of record ``i`` (the line start minus one for ``k = 0``) and ``bounds[i, k + 1]`` the offset
    of the separator after it (tab, or the ``\\r`` / ``\\n`` ending the line), in ``data`` (the file's
    bytes after any byte-order mark, always ending with ``\\n``).
    """

    path: Path
    data: np.ndarray  # uint8
    bounds: np.ndarray  # records x (fields + 1)
    numbers: np.ndarray  # physical line number of each record
    names: tuple[str, ...]  # what the fields are (for messages)

    def __len__(self) -> int:
        return self.bounds.shape[0]

    @property
    def width(self) -> int:
        return self.bounds.shape[1] - 1

    def where(self, record: int) -> str:
        return f"line {int(self.numbers[record])}"

    def error(self, record: int | None, problem: str) -> InputError:
        """An InputError at ``record`` (None: the whole file)."""
        return InputError(self.path, None if record is None else self.where(record), problem)

    def lengths(self, field: int) -> np.ndarray:
        return self.bounds[:, field + 1] - self.bounds[:, field] - 1

    def field(self, record: int, field: int) -> str:
        start, end = int(self.bounds[record, field]) + 1, int(self.bounds[record, field + 1])
        return self.data[start:end].tobytes().decode("utf-8", errors="replace")

    def take(self, records) -> Fields:
        """The records ``records`` (indices, a slice or a boolean mask), in that order."""
        return Fields(self.path, self.data, self.bounds[records], self.numbers[records], self.names)

    def _span(self, part: slice, first: int, last: int) -> tuple[np.ndarray, np.ndarray]:
        """(start offsets, lengths) of fields ``first..last`` (with the tabs between) of records ``part``."""
        starts = self.bounds[part, first] + 1
        return starts, self.bounds[part, last + 1] - starts

    # ------------------------------------------------------------------ strings
    def joined(self, first: int, last: int | None = None) -> np.ndarray:
        """The bytes of fields ``first..last`` (with the tabs between them) of every record, each record
        followed by ``\\n``: one uint8 array. Byte-equal to another such array means field-equal."""
        last = first if last is None else last
        pieces = []
        for part in _pieces(len(self)):
            starts, lengths = self._span(part, first, last)
            segments = lengths + 1  # with the separator after the field, which becomes \n
            gaps = starts - np.concatenate(([starts[0]], starts[:-1] + segments[:-1]))
            runs = np.empty(2 * segments.size, dtype=np.int64)
            runs[0::2], runs[1::2] = gaps, segments
            mask = np.repeat(np.tile(np.array([False, True]), segments.size), runs)
            piece = self.data[starts[0] : starts[0] + mask.size][mask]
            piece[np.cumsum(segments) - 1] = NEWLINE
            pieces.append(piece)
        return np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.uint8)

    def column(self, field: int) -> list[str]:
        """Field ``field`` of every record as a Python string."""
        values: list[str] = []
        for part in _pieces(len(self)):
            values += self.take(part).joined(field).tobytes().decode("utf-8").split("\n")[:-1]
        return values

    def first_empty(self, field: int) -> int | None:
        """The first record whose field ``field`` is empty, or None."""
        empty = np.flatnonzero(self.lengths(field) == 0)
        return int(empty[0]) if empty.size else None

    def require_nonempty(self, field: int) -> None:
        record = self.first_empty(field)
        if record is not None:
            raise self.error(record, f"empty {self.names[field]} field")

    # ------------------------------------------------------------------ categories
    def _values(self, part: slice, field: int, width: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(comparable values, lengths) of field ``field`` of records ``part``: integers for fields of up
        to 7 bytes, else fixed-width bytes; fields longer than ``width`` (if given) are cut to it."""
        starts, lengths = self._span(part, field, field)
        if width is None:
            width = int(lengths.max()) if lengths.size else 0
        if width <= 7:
            return packed(self.data, starts, lengths, width), lengths
        return gather(self.data, starts, np.minimum(lengths, width), width), lengths

    def lookup(self, field: int, categories: Sequence[str]) -> np.ndarray:
        """Index of each record's field ``field`` in ``categories`` (exact bytes), -1 where absent."""
        encoded = [str(category).encode("utf-8") for category in categories]
        codes = np.full(len(self), -1, dtype=np.int64)
        if not encoded:
            return codes
        width = max(len(value) for value in encoded)
        if width <= 7:
            table = np.array([pack(value) for value in encoded], dtype=np.uint64)
        else:
            table = np.array(encoded, dtype=f"S{width}")
        order = np.argsort(table, kind="stable")
        ordered = table[order]
        for part in _pieces(len(self), _records(width)):
            values, lengths = self._values(part, field, width)
            position = np.minimum(np.searchsorted(ordered, values), ordered.size - 1)
            found = (ordered[position] == values) & (lengths <= width)
            codes[part][found] = order[position[found]]
        return codes

    def categories(self, field: int) -> tuple[list[str], np.ndarray]:
        """The distinct values of field ``field`` in order of first appearance, and each record's index
        among them (for columns of few values, such as run names, or of values that come in blocks,
        such as the topics of a long table: equal neighbours are handled once)."""
        lengths = self.lengths(field)
        width = int(lengths.max()) if lengths.size else 0
        starts, blocks = [], []
        for part in _pieces(len(self), _records(width)):
            values, _ = self._values(part, field, width)
            first = np.concatenate(([0], np.flatnonzero(values[1:] != values[:-1]) + 1))
            starts.append(first + part.start)
            blocks.append(values[first])
        if not blocks:
            return [], np.zeros(0, dtype=np.int64)
        block_starts = np.concatenate(starts)
        blocks = np.concatenate(blocks)
        # neighbouring pieces may end and start with one value: merge such blocks
        keep = np.concatenate(([True], blocks[1:] != blocks[:-1]))
        block_starts, blocks = block_starts[keep], blocks[keep]
        counts = np.diff(np.append(block_starts, len(self)))
        distinct, first, inverse = np.unique(blocks, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # number the values in order of first appearance
        rank = np.empty(order.size, dtype=np.int64)
        rank[order] = np.arange(order.size)
        names = [(unpack(value) if blocks.dtype == np.uint64 else bytes(value)) for value in distinct[order]]
        codes = np.repeat(rank[inverse.ravel()], counts)
        return [name.decode("utf-8") for name in names], codes

    # ------------------------------------------------------------------ numbers
    def _first_rejected(self, field: int, table, accept, limit: int) -> int | None:
        for part in _pieces(len(self)):
            starts, lengths = self._span(part, field, field)
            bad = np.flatnonzero(~accepts(self.data, starts, lengths, table, accept, limit))
            if bad.size:
                return part.start + int(bad[0])
        return None

    def _converted(self, field: int, dtype) -> np.ndarray:
        out = np.empty(len(self), dtype=dtype)
        for part in _pieces(len(self)):
            starts, lengths = self._span(part, field, field)
            out[part] = gather(self.data, starts, lengths, int(lengths.max())).astype(dtype)
        return out

    def check_integers(self, field: int, what: str | None = None) -> None:
        """Raise at the first record whose field ``field`` is not an integer ``[+-]?digits`` of at most
        18 digits."""
        record = self._first_rejected(field, INTEGER_TABLE, INTEGER_ACCEPT, MAX_INTEGER_DIGITS + 1)
        if record is None:
            for part in _pieces(len(self)):
                starts, lengths = self._span(part, field, field)
                signed = (self.data[starts] == ord("+")) | (self.data[starts] == ord("-"))
                long = np.flatnonzero(lengths - signed > MAX_INTEGER_DIGITS)
                if long.size:
                    record = part.start + int(long[0])
                    break
        if record is not None:
            text = self.field(record, field)
            problem = "is too large" if INTEGER.fullmatch(text) else "is not an integer"
            raise self.error(record, f"{what or self.names[field]} {quoted(text)} {problem}")

    def integers(self, field: int, what: str | None = None) -> np.ndarray:
        """Field ``field`` as 64-bit integers (strict grammar, at most 18 digits)."""
        self.check_integers(field, what)
        return self._converted(field, np.int64)

    def floats(self, field: int, what: str | None = None, limit: float | None = None) -> np.ndarray:
        """Field ``field`` as finite floats, in the strict number grammar (:data:`NUMBER`), of magnitude at most
        ``limit`` if given."""
        what = what or self.names[field]
        out = np.empty(len(self), dtype=np.float64)
        for part in _pieces(len(self)):
            starts, lengths = self._span(part, field, field)
            ok = (lengths > 0) & (lengths <= MAX_NUMBER_LENGTH)
            width = int(lengths[ok].max()) if ok.any() else 1
            columns = byte_columns(self.data, starts, np.minimum(lengths, width), width)
            state = np.zeros(starts.size, dtype=np.uint8)
            for position in range(width):  # the automaton, one byte position of every field at a time
                state = NUMBER_FLAT[state * PADDED_CLASSES + PADDED_CLASS[columns[position]]]
            bad = np.flatnonzero(~(NUMBER_ACCEPT[state] & ok))
            if bad.size:
                record = part.start + int(bad[0])
                raise self.error(record, f"{what} {quoted(self.field(record, field))} is not a number")
            out[part] = to_floats(self.take(part).joined(field), columns, width)
        infinite = np.flatnonzero(~np.isfinite(out))
        if infinite.size:
            record = int(infinite[0])
            raise self.error(record, f"{what} {quoted(self.field(record, field))} is out of range")
        if limit is not None and (large := np.flatnonzero(np.abs(out) > limit)).size:
            record = int(large[0])
            raise self.error(record, f"{what} {quoted(self.field(record, field))} is out of range (at most {limit:g})")
        return out


def iter_fields(
    path: str | Path, names: Sequence[str], *, header: bool = False, layout: str = "", trailing_tabs: bool = False
) -> Iterator[Fields]:
    """:func:`read_fields` piece by piece (pieces of about :data:`CHUNK_BYTES` of whole lines), for
    files too large to hold every record's offsets at once. Errors are raised when their piece is
    reached, so the first bad line is still the one reported."""
    path = Path(path)
    names = tuple(names)
    count = len(names)
    layout = layout or ", ".join(names)
    raw, _ = read_bytes(path, max_line=MAX_LINE_BYTES)
    if not raw or raw.isspace():
        raise InputError(path, None, "file is empty")
    if not raw.endswith(b"\n"):
        raw += b"\n"
    data = np.frombuffer(raw, dtype=np.uint8)
    position, lines_before = 0, 0
    if header:
        position, lines_before = _check_header(path, raw, names)
    records = 0
    while position < data.size:
        end = raw.find(b"\n", min(position + CHUNK_BYTES, data.size - 1)) + 1
        piece_bounds, piece_lines, lines = _split_piece(data[position:end], count, trailing_tabs)
        if isinstance(piece_bounds, int):  # the index of a line with another number of fields
            raise InputError(
                path,
                f"line {lines_before + piece_bounds + 1}",
                f"expected {count} tab-separated field{'s' if count != 1 else ''} ({layout}), found {piece_lines}",
            )
        _check_widths(path, piece_bounds, piece_lines + lines_before + 1, names)
        piece_bounds += position
        records += piece_bounds.shape[0]
        yield Fields(path, data, piece_bounds, piece_lines + (lines_before + 1), names)
        lines_before += lines
        position = end
    if not records:
        raise InputError(path, None, "file holds a header but no rows" if header else "file is empty")


def _check_widths(path: Path, bounds: np.ndarray, numbers: np.ndarray, names: tuple[str, ...]) -> None:
    """An InputError at the first record with a field longer than :data:`MAX_FIELD_BYTES`."""
    lengths = np.diff(bounds, axis=1) - 1
    long = np.flatnonzero((lengths > MAX_FIELD_BYTES).any(axis=1))
    if long.size:
        record = int(long[0])
        field = int(np.flatnonzero(lengths[record] > MAX_FIELD_BYTES)[0])
        raise InputError(
            path,
            f"line {int(numbers[record])}",
            f"{names[field]} field of {int(lengths[record, field]):,} bytes (a field may have at most "
            f"{MAX_FIELD_BYTES:,}: a name, a label or a number)",
        )


def read_fields(
    path: str | Path, names: Sequence[str], *, header: bool = False, layout: str = "", trailing_tabs: bool = False
) -> Fields:
    """The records of a tab-separated file with one field per name in ``names``.

    With ``header``, the first non-empty line must be the names themselves (tab-separated) and is not a
    record. Errors: not UTF-8, NUL byte, empty file, a header that differs, a line with another number
    of fields (the first such line), a header and no records. With ``trailing_tabs``, tabs that end a
    line after its last field are ignored (empty trailing fields, which Perl's ``split /\t/`` drops: the
    SemEval organisers' scorers read such files, and a 2016 run ends every line with a tab).
    """
    pieces = list(iter_fields(path, names, header=header, layout=layout, trailing_tabs=trailing_tabs))
    if len(pieces) == 1:
        return pieces[0]
    first = pieces[0]
    return Fields(
        first.path,
        first.data,
        np.concatenate([piece.bounds for piece in pieces]),
        np.concatenate([piece.numbers for piece in pieces]),
        first.names,
    )


def _check_header(path: Path, raw: bytes, names: tuple[str, ...]) -> tuple[int, int]:
    """Check the first non-empty line against ``names``; (offset after it, its line number)."""
    position, number = 0, 0
    while position < len(raw):
        end = raw.find(b"\n", position)
        number += 1
        line = raw[position:end].removesuffix(b"\r")
        if line:
            found = line.decode("utf-8").split("\t")
            if found != list(names):
                expected = "\t".join(names)
                raise InputError(
                    path,
                    f"line {number}",
                    f"header must be {expected!r} (tab-separated), found {quoted(chr(9).join(found), 120)}",
                )
            return end + 1, number
        position = end + 1
    raise InputError(path, None, "file is empty")


def _split_piece(piece: np.ndarray, count: int, trailing_tabs: bool = False):
    """Split whole lines (``piece`` ends with a newline) into ``count`` fields (with ``trailing_tabs``, a
    line may end with more tabs: empty fields after the last one, ignored).

    Returns (bounds relative to the piece, the line index of each record, number of lines), or, when a
    non-empty line has another number of fields, (its line index, its number of fields, None).
    """
    special = np.flatnonzero(piece < 14)
    kinds = piece[special]
    # Fast path: only tabs and newlines, each line with exactly count - 1 tabs, no \r, no empty line.
    if special.size % count == 0:
        pattern = kinds.reshape(-1, count)
        expected = np.full(count, TAB, dtype=np.uint8)
        expected[-1] = NEWLINE
        if (pattern == expected).all():
            separators = special.reshape(-1, count)
            line_ends = separators[:, -1]
            if not (piece[line_ends - 1] == CARRIAGE_RETURN).any() and (
                count > 1 or ((np.diff(line_ends) > 1).all() and line_ends[0] > 0)
            ):
                bounds = np.empty((separators.shape[0], count + 1), dtype=np.int64)
                bounds[:, 1:] = separators
                bounds[0, 0] = -1
                bounds[1:, 0] = line_ends[:-1]
                return bounds, np.arange(separators.shape[0]), separators.shape[0]
    newlines = special[kinds == NEWLINE]
    tabs = special[kinds == TAB]
    line_starts = np.concatenate(([0], newlines[:-1] + 1))
    line_ends = newlines.copy()
    has_cr = (line_ends > line_starts) & (piece[np.maximum(line_ends - 1, 0)] == CARRIAGE_RETURN)
    line_ends[has_cr] -= 1
    nonempty = np.flatnonzero(line_ends > line_starts)
    first_tab = np.searchsorted(tabs, line_starts)
    tab_counts = np.searchsorted(tabs, newlines) - first_tab
    if trailing_tabs and tabs.size:  # a line's last field ends where its run of trailing tabs starts
        extra = np.maximum(tab_counts - (count - 1), 0)
        trailing = (extra > 0) & (line_ends - extra == tabs[np.minimum(first_tab + count - 1, tabs.size - 1)])
        line_ends = np.where(trailing, line_ends - extra, line_ends)
        tab_counts = np.where(trailing, count - 1, tab_counts)
    wrong = np.flatnonzero(tab_counts[nonempty] != count - 1)
    if wrong.size:
        line = int(nonempty[wrong[0]])
        return line, int(tab_counts[line]) + 1, None
    bounds = np.empty((nonempty.size, count + 1), dtype=np.int64)
    bounds[:, 0] = line_starts[nonempty] - 1
    if count > 1:
        bounds[:, 1:count] = tabs[first_tab[nonempty][:, None] + np.arange(count - 1)]
    bounds[:, count] = line_ends[nonempty]
    return bounds, nonempty, newlines.size
