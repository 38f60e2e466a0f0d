"""Fields as bytes: the array kernels under :class:`ordeval.io.fields.Fields`.

A field is a byte range (start, length) of a file's bytes (a uint8 array). Here: the automata that check a column
of numbers or integers against the strict grammar of :mod:`ordeval.io.parsing` (:data:`NUMBER_TABLE`,
:data:`INTEGER_TABLE`: one byte position of every field at a time), and fields turned into comparable values (a
uint64 code each for fields of up to 7 bytes: :func:`packed`; fixed-width bytes: :func:`gather`), byte matrices and
floats. No Python work per field.
"""

from __future__ import annotations

import numpy as np

# --------------------------------------------------------------------------- automata for columns

# character classes: 0 other, 1 digit, 2 sign, 3 dot, 4 e/E
CHAR_CLASS = np.zeros(256, dtype=np.int8)
CHAR_CLASS[ord("0") : ord("9") + 1] = 1
CHAR_CLASS[[ord("+"), ord("-")]] = 2
CHAR_CLASS[ord(".")] = 3
CHAR_CLASS[[ord("e"), ord("E")]] = 4


def _automaton(transitions: dict[int, dict[int, int]], states: int) -> np.ndarray:
    """Transition table states x classes; the last state is the dead state."""
    table = np.full((states + 1, 5), states, dtype=np.int8)
    for state, moves in transitions.items():
        for char_class, target in moves.items():
            table[state, char_class] = target
    return table


# states: 0 start, 1 sign, 2 digits, 3 digits + dot, 4 fraction digits, 5 dot without digits before,
# 6 exponent mark, 7 exponent sign, 8 exponent digits
NUMBER_TABLE = _automaton(
    {
        0: {2: 1, 1: 2, 3: 5},
        1: {1: 2, 3: 5},
        2: {1: 2, 3: 3, 4: 6},
        3: {1: 4, 4: 6},
        4: {1: 4, 4: 6},
        5: {1: 4},
        6: {2: 7, 1: 8},
        7: {1: 8},
        8: {1: 8},
    },
    9,
)
NUMBER_ACCEPT = np.zeros(10, dtype=bool)
NUMBER_ACCEPT[[2, 3, 4, 8]] = True
INTEGER_TABLE = _automaton({0: {2: 1, 1: 2}, 1: {1: 2}, 2: {1: 2}}, 3)
INTEGER_ACCEPT = np.array([False, False, True, False])


def accepts(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, table, accept, limit: int) -> np.ndarray:
    """Which fields (byte ranges) the automaton accepts; fields longer than ``limit`` are rejected."""
    state = np.zeros(starts.size, dtype=np.int8)
    ok_length = (lengths > 0) & (lengths <= limit)
    width = int(lengths[ok_length].max()) if ok_length.any() else 0
    for position in range(width):
        active = np.flatnonzero(lengths > position)
        char_class = CHAR_CLASS[data[starts[active] + position]]
        state[active] = table[state[active], char_class]
    return accept[state] & ok_length


def _offsets(data: np.ndarray, starts: np.ndarray, width: int):
    """(position, the byte offsets ``starts + position``) for each position below ``width``, clipped to the
    data (bytes past a field's end are masked by the callers)."""
    clip = bool(starts.size) and int(starts.max()) + width > data.size
    for position in range(width):
        index = starts + position
        if clip:
            np.minimum(index, data.size - 1, out=index)
        yield position, index


def byte_matrix(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> np.ndarray:
    """Fields as rows of a records x ``width`` uint8 matrix, zero-padded; fields must fit in ``width``."""
    matrix = np.zeros((starts.size, max(width, 1)), dtype=np.uint8)
    for position, index in _offsets(data, starts, width):
        column = data[index]
        column[lengths <= position] = 0
        matrix[:, position] = column
    return matrix


def pack(value: bytes) -> int:
    """A field of at most 7 bytes as :func:`packed` codes it."""
    return int(np.frombuffer(value.ljust(7, b"\0") + bytes([len(value)]), dtype=np.uint64)[0])


def unpack(code) -> bytes:
    """The field bytes of a :func:`packed` code."""
    raw = np.asarray(code, dtype=np.uint64).tobytes()
    return raw[: raw[7]]


def gather(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> np.ndarray:
    """Fields as a fixed-width bytes array (``S<width>``); fields must be at most ``width`` long."""
    return byte_matrix(data, starts, lengths, width).view(f"S{max(width, 1)}").ravel()


def packed(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int = 7) -> np.ndarray:
    """Fields as one integer each, their first ``width`` (at most 7) bytes and their length (at most 255)
    packed: fields of at most ``width`` bytes are equal iff their codes are."""
    matrix = np.zeros((starts.size, 8), dtype=np.uint8)
    matrix[:, :width] = byte_matrix(data, starts, np.minimum(lengths, width), width)
    matrix[:, 7] = np.minimum(lengths, 255)
    return matrix.view(np.uint64).ravel()


def byte_columns(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, width: int) -> np.ndarray:
    """Fields as the columns of a ``width`` x records uint8 matrix (row ``i``: byte ``i`` of every field),
    zero-padded; fields must fit in ``width``. The transpose of :func:`byte_matrix`, built row by row."""
    columns = np.zeros((max(width, 1), starts.size), dtype=np.uint8)
    for position, index in _offsets(data, starts, width):
        row = columns[position]
        np.take(data, index, out=row)
        row[lengths <= position] = 0
    return columns


def to_floats(joined: np.ndarray, columns: np.ndarray, width: int) -> np.ndarray:
    """Numbers checked by the automaton as floats: from their text, one per line (``joined``), which
    numpy's text parser reads fastest (correctly rounded, locale-independent); from the byte columns
    should it ever read another count."""
    count = columns.shape[1]
    values = np.fromstring(joined.tobytes(), dtype=np.float64, sep="\n") if count else np.zeros(0)
    if values.size != count:
        values = np.ascontiguousarray(columns.T).view(f"S{width}").ravel().astype(np.float64)
    return values


# The number automaton over zero-padded fields: class 5 (the padding byte 0, never in a field: NUL bytes
# are rejected when the file is read) leaves the state as it is.
PADDED_CLASSES = 6
PADDED_CLASS = CHAR_CLASS.astype(np.uint8)
PADDED_CLASS[0] = 5
NUMBER_FLAT = np.concatenate(
    [NUMBER_TABLE.astype(np.uint8), np.arange(NUMBER_TABLE.shape[0], dtype=np.uint8)[:, None]], axis=1
).ravel()
