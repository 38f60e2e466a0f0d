"""The numbers of an output file, compared by value within a tolerance, and their fingerprint.

Floating-point results can differ in their last bits from one platform to another (docs/methods.md,
section 8), so ``ordeval diff`` compares every number-bearing output by value, not by its bytes:

* a **text file** (``.csv``, ``.tsv``, ``.tex``, ``.html``, ``.json``, ``.md``, ...) is its *layout* -- the
  text with every number replaced by a mark -- and its numbers: the words between delimiters (spaces and
  punctuation) that are numbers (:data:`NUMBER`: ``0.125``, ``-3e-05``, ``17``; ``nan``, ``inf``, ``t001`` are
  text). Two files are equal when their layouts are identical and their
  numbers, in order, are pairwise equal within the tolerance;
* an **npz archive** is its arrays: the names, dtypes and shapes, the bytes of the arrays that do not hold
  floats and the position of every NaN or infinity are the layout; the finite floats are the numbers (an array
  ``<file>_sha256``, the digest of the table the archive was built from, is left to that table's comparison);
* anything else (PNG, PDF) is compared by its SHA-256.

A recorded reference does not keep every file's numbers (the score matrices and simulated runs of the
default configuration are 40 MB of text), but their :class:`Fingerprint`: the SHA-256 of the layout, the count
n of numbers, their magnitude A = sum |x_i| and K = 3 weighted sums S_k = sum w_ki x_i with fixed
pseudo-random weights |w_ki| in [1, 2) of random sign, each sum computed exactly (:func:`math.fsum`). If every
number moved within the tolerance (|x_i' - x_i| <= max(a, r max(|x_i|, |x_i'|))), every weighted sum moved
by at most 2 (n a + r (A + A')): a fingerprint check never fails on numbers that are equal within the
tolerance. A change of d in one number moves each S_k by at least d, and is found when d exceeds that
bound; a change of many numbers, unless the weights happen to cancel it in all three sums. The magnitude A is
compared too (|A' - A| <= sum |x_i' - x_i|, within the same bound), so a recorded magnitude cannot widen the
bound: a reference whose magnitude was edited to 1e300 fails the check instead of passing every file. A recorded
fingerprint must agree with itself (:func:`inconsistency`: every |S_k| at most 2A, as the weights are below 2),
and a recorded reference seals its fingerprints and hashes with a SHA-256 (:mod:`ordeval.results.reference`).
"""

from __future__ import annotations

import hashlib
import math
import re
import sys
import zipfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.results.compare import Tolerance
from ordeval.results.text_numbers import (
    DELIMITERS,
    MARK,
    Stream,
    compare_texts,
    is_number,
    pieces,
)

# A word that is a number (NUMBER, the readers' grammar, at most MAX_NUMBER_LENGTH characters): an optional sign,
# digits with an optional fraction (or a fraction alone) and an optional exponent (``0.125``, ``-3e-05``, ``17``);
# ``t001``, ``v0.2.0``, ``SIM01``, ``nan`` are text. DELIMITERS and MARK: ordeval.results.text_numbers.
#: Arrays named ``<file>_sha256`` hold the SHA-256 of another output (the table they were built from): that
#: file is compared by value itself, and its digest changes with its last bits, so they are not compared.
DIGEST_SUFFIX = "_sha256"
#: Weighted sums in a fingerprint.
SUMS = 3
#: Suffixes of files compared by value; the others by SHA-256.
TEXT_SUFFIXES = (".csv", ".tsv", ".tex", ".html", ".json", ".md", ".txt", ".rst", ".svg", ".yaml")
ARCHIVE_SUFFIXES = (".npz",)
#: The slack of a fingerprint check for the rounding of the products w_ki x_i (relative to the magnitudes).
_PRODUCT_ROUNDING = 1e-15
#: The numbers of a text file held at once to fingerprint it (8 bytes each); a file with more is read twice.
HELD_NUMBERS = 1 << 22
#: The seed of the weights (PCG64 draws need no floating-point library: the same on every machine).
_WEIGHT_SEED = 20211101


def by_value(name: str) -> bool:
    """Whether the output ``name`` is compared by value (a text file or an npz archive)."""
    return name.endswith(TEXT_SUFFIXES + ARCHIVE_SUFFIXES)


@dataclass
class Numbers:
    """A file as its layout and its numbers (finite floats, in the file's order), each part named: ``""`` for
    a text file, the array names for an npz archive."""

    layout: dict[str, str]  # part -> its layout (text with marks, or dtype, shape and non-float bytes)
    values: dict[str, np.ndarray]  # part -> finite floats
    lines: dict[str, np.ndarray]  # part (an array) -> the flat index of each number


def fingerprint_file(path: str | Path, name: str | None = None) -> Fingerprint:
    """The fingerprint of the file ``path`` (its kind from ``name``, default its own name); a text file read block
    by block (:mod:`ordeval.results.text_numbers`: a file that is not text is refused at its first bad block), its
    sums made exactly block by block (:class:`ExactSum`, the same numbers as :func:`fingerprint` gives): the
    memory of :data:`HELD_NUMBERS` numbers at most (a file with more is read twice: the weights of a number depend
    on how many there are). An InputError names a file that cannot be read."""
    path = Path(path)
    if (name or path.name).endswith(ARCHIVE_SUFFIXES):
        return fingerprint(_archive_numbers(path))
    stream, digest, held = Stream(), hashlib.sha256(b"\0"), []
    for piece in pieces(path, stream):
        digest.update(piece.layout.encode("utf-8"))
        if held is not None:
            held.append(piece.values)
            held = held if stream.count <= HELD_NUMBERS else None
    digest.update((stream.suffix() + "\0").encode("utf-8"))
    count, start = stream.count, 0
    magnitude, sums = ExactSum(), [ExactSum() for _ in range(SUMS)]
    for values in held if held is not None else (piece.values for piece in pieces(path)):
        magnitude.add(np.abs(values))
        for total, weights in zip(sums, _weight_block(start, values.size, count), strict=True):
            total.add(weights * values)
        start += values.size
    return Fingerprint(digest.hexdigest(), {"": (count, magnitude.value(), tuple(total.value() for total in sums))})


class ExactSum:
    """The exact sum of float64 numbers added array by array, rounded once at the end: what :func:`math.fsum` gives
    for them all at once (both correctly rounded), without holding them. Each number is an integer mantissa times a
    power of two (:func:`numpy.frexp`); mantissas of one exponent are summed in int64 (split in two halves, so
    that no sum overflows), and the sums shifted to a common power of two in Python's exact integers."""

    #: Every finite float64 is an integer multiple of 2**BASE (a subnormal's 53-bit mantissa times 2**-1074).
    BASE = -1127

    def __init__(self):
        self.total = 0

    def add(self, values: np.ndarray) -> None:
        values = np.asarray(values, dtype=np.float64)
        values = values[values != 0]
        if not values.size:
            return
        mantissas, exponents = np.frexp(values)
        integers = (mantissas * 2.0**53).astype(np.int64)  # exact: |mantissa| < 1 has 53 bits
        order = np.argsort(exponents, kind="stable")
        exponents, integers = exponents[order], integers[order]
        starts = np.flatnonzero(np.diff(exponents, prepend=exponents[0] - 1))
        high, low = integers >> 26, integers & ((1 << 26) - 1)
        for exponent, upper, lower in zip(
            exponents[starts].tolist(),
            np.add.reduceat(high, starts).tolist(),
            np.add.reduceat(low, starts).tolist(),
            strict=True,
        ):
            self.total += ((upper << 26) + lower) << (exponent - 53 - self.BASE)

    def value(self) -> float:
        """The sum, correctly rounded (the largest float of its sign beyond the range of floats)."""
        if not self.total:
            return 0.0
        try:
            return float(Fraction(self.total, 2 ** (-self.BASE)))
        except OverflowError:
            return math.copysign(sys.float_info.max, self.total)


def compare_files(old: str | Path, new: str | Path, name: str, tolerance: Tolerance) -> str | None:
    """None when the files ``old`` and ``new`` (of the kind of ``name``) are equal within ``tolerance``; else what
    differs, one phrase. Text files are read side by side, block by block (:mod:`ordeval.results.text_numbers`)."""
    if name.endswith(ARCHIVE_SUFFIXES):
        found = compare_numbers(_archive_numbers(Path(old)), _archive_numbers(Path(new)), tolerance)
        return found.describe() if isinstance(found, ValueDifference) else found
    found = compare_texts(old, new, tolerance)
    return ValueDifference("", *found).describe() if isinstance(found, tuple) else found


def text_numbers(text: str) -> Numbers:
    """A text as its layout and numbers: the words between :data:`DELIMITERS` that are numbers."""
    parts = DELIMITERS.split(text)
    words = parts[0::2]
    kinds = {word: is_number(word) for word in set(words)}
    numbers = [word for word in words if kinds[word]]
    values = np.array(numbers, dtype=str).astype(float) if numbers else np.empty(0)
    parts[0::2] = [MARK if kinds[word] else word for word in words]
    layout = "".join(parts)
    finite = np.isfinite(values)
    if not finite.all():  # too large for a float (1e400): its text is its layout
        first = int(np.flatnonzero(~finite)[0])
        layout = f"{layout}\0{first}:{numbers[first]}"
        values = np.where(finite, values, 0.0)
    return Numbers({"": layout}, {"": values}, {})


def number_line(layout: str, index: int) -> int:
    """The line of the text whose layout is ``layout`` that holds its number ``index`` (0-based)."""
    position = -1
    for _ in range(index + 1):
        position = layout.index(MARK, position + 1)
    return layout.count("\n", 0, position) + 1


def _archive_numbers(path: Path) -> Numbers:
    """An archive's layout and numbers, array by array (:class:`ordeval.io.archives.Archive`: checked from its
    headers first, so a compressed member that would unpack to gigabytes is refused before it is read)."""
    from ordeval.io.archives import Archive

    layout, values, lines = {}, {}, {}
    try:
        with Archive(path, "an archive of arrays") as archive:
            for key in sorted(archive.headers):
                if key.endswith(DIGEST_SUFFIX):
                    continue
                array = archive.read(key)
                if array.dtype.kind in "fc":
                    flat = np.asarray(array, dtype=np.complex128 if array.dtype.kind == "c" else float).ravel()
                    flat = np.concatenate([flat.real, flat.imag]) if flat.dtype.kind == "c" else flat
                    special = ~np.isfinite(flat)
                    marks = hashlib.sha256(np.packbits(special).tobytes() + flat[special].tobytes()).hexdigest()
                    layout[key] = f"{array.dtype.str} {array.shape} non-finite {marks}"
                    values[key] = np.where(special, 0.0, flat)
                    lines[key] = np.arange(flat.size)
                else:
                    digest = hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()
                    layout[key] = f"{array.dtype.str} {array.shape} {digest}"
                    values[key], lines[key] = np.empty(0), np.empty(0, dtype=np.int64)
    except InputError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise InputError(path, None, f"not a readable npz archive ({one_line(error)})") from None
    return Numbers(layout, values, lines)


def one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


# --------------------------------------------------------------------------- fingerprints


def _weights(count: int) -> np.ndarray:
    """SUMS x count weights, the same on every machine (PCG64 draws need no floating-point library)."""
    generator = np.random.Generator(np.random.PCG64(_WEIGHT_SEED))
    size, sign = generator.random((SUMS, max(count, 1))), generator.random((SUMS, max(count, 1)))
    return ((1.0 + size) * np.where(sign < 0.5, -1.0, 1.0))[:, :count]


def _weight_block(start: int, size: int, count: int) -> np.ndarray:
    """Columns ``start .. start + size`` of :func:`_weights` ``(count)``, drawn alone: the generator advanced to
    each row's draws (one 64-bit draw per weight), so that a long file's weights need not be held."""
    rows = []
    for row in range(SUMS):
        draws = []
        for offset in (row * max(count, 1), (SUMS + row) * max(count, 1)):  # the sizes, then the signs
            generator = np.random.PCG64(_WEIGHT_SEED)
            generator.advance(offset + start)
            draws.append(np.random.Generator(generator).random(size))
        rows.append((1.0 + draws[0]) * np.where(draws[1] < 0.5, -1.0, 1.0))
    return np.array(rows).reshape(SUMS, size)


def _sums(values: np.ndarray) -> tuple[int, float, tuple[float, ...]]:
    """(count, magnitude, weighted sums) of numbers, each sum exact (:func:`math.fsum`)."""
    return int(values.size), math.fsum(np.abs(values)), tuple(math.fsum(row * values) for row in _weights(values.size))


@dataclass(frozen=True)
class Fingerprint:
    """What a reference records of a number-bearing file: the layout's SHA-256 and, per part, the count,
    magnitude and weighted sums of its numbers."""

    layout: str
    parts: dict[str, tuple[int, float, tuple[float, ...]]]

    def as_json(self) -> dict:
        return {
            "layout": self.layout,
            "numbers": {
                key: {"count": count, "magnitude": repr(magnitude), "sums": [repr(s) for s in sums]}
                for key, (count, magnitude, sums) in self.parts.items()
            },
        }

    @classmethod
    def from_json(cls, document, where) -> Fingerprint:
        """A fingerprint from a reference's JSON (``where``: file and key, for the error)."""
        try:
            parts = {}
            for key, part in document["numbers"].items():
                count, magnitude = part["count"], float(part["magnitude"])
                sums = tuple(float(value) for value in part["sums"])
                if not (
                    isinstance(count, int)
                    and not isinstance(count, bool)
                    and count >= 0
                    and len(sums) == SUMS
                    and math.isfinite(magnitude)
                    and all(math.isfinite(value) for value in sums)
                ):
                    raise ValueError
                parts[str(key)] = (count, magnitude, sums)
            layout = document["layout"]
            if not (isinstance(layout, str) and re.fullmatch(r"[0-9a-f]{64}", layout)):
                raise ValueError
        except (KeyError, TypeError, ValueError, AttributeError):
            raise InputError(where[0], where[1], "not a fingerprint of numbers ({layout, numbers})") from None
        for key, part in parts.items():
            problem = inconsistency(*part)
            if problem:
                shown = f" (array {key!r})" if key else ""
                raise InputError(
                    where[0], where[1], f"a fingerprint that does not agree with itself{shown}: {problem} (edited?)"
                )
        return cls(layout, parts)


def inconsistency(count: int, magnitude: float, sums: tuple[float, ...]) -> str | None:
    """What in a fingerprint's numbers cannot be, or None. Each weight is at most 2 in magnitude, so every
    weighted sum is at most twice the magnitude A = sum |x_i|, and no numbers have a magnitude and sums of 0."""
    if magnitude < 0:
        return f"a magnitude {magnitude!r} below 0"
    if count == 0 and (magnitude or any(sums)):
        return "no numbers, and a magnitude or sums other than 0"
    largest = max((abs(value) for value in sums), default=0.0)
    if largest > 2 * magnitude * (1 + 1e-12):
        return f"a weighted sum {largest!r} more than twice the magnitude {magnitude!r}"
    return None


def fingerprint(numbers: Numbers) -> Fingerprint:
    layout = hashlib.sha256()
    for key in sorted(numbers.layout):
        layout.update(f"{key}\0{numbers.layout[key]}\0".encode())
    return Fingerprint(layout.hexdigest(), {key: _sums(numbers.values[key]) for key in sorted(numbers.values)})


def compare_fingerprints(old: Fingerprint, new: Fingerprint, tolerance: Tolerance) -> str | None:
    """None when the two files can be equal within ``tolerance``; else what differs, one phrase."""
    if old.layout != new.layout:
        return "its text or structure changed (not only numbers)"
    for key in sorted(set(old.parts) | set(new.parts)):
        where = f" in array {key!r}" if key else ""
        if key not in old.parts or key not in new.parts:
            return f"array {key!r} added or removed"
        (count, magnitude, sums), (new_count, new_magnitude, new_sums) = old.parts[key], new.parts[key]
        if count != new_count:
            return f"{count} numbers{where}, now {new_count}"
        bound = 2 * (count * tolerance.absolute + tolerance.relative * (magnitude + new_magnitude))
        bound += _PRODUCT_ROUNDING * (magnitude + new_magnitude)
        if abs(new_magnitude - magnitude) > bound:  # the magnitude is a sum with weights +-1: it moves as little
            return (
                f"numbers{where} changed beyond the tolerance (the sum of their magnitudes moved from "
                f"{magnitude:.6g} to {new_magnitude:.6g}, more than the {bound:.3g} that the tolerance allows)"
            )
        moved = max(abs(after - before) for before, after in zip(sums, new_sums, strict=True))
        if moved > bound:
            return (
                f"numbers{where} changed beyond the tolerance (a weighted sum of its {count} numbers moved by "
                f"{moved:.3g}, more than the {bound:.3g} that the tolerance allows)"
            )
    return None


# --------------------------------------------------------------------------- two files, both at hand


@dataclass(frozen=True)
class ValueDifference:
    """The first number (of a file both sides hold) that differs beyond the tolerance, and how many do."""

    part: str
    line: int
    old: float
    new: float
    count: int

    def describe(self) -> str:
        where = f"array {self.part!r} index {self.line}" if self.part else f"line {self.line}"
        more = f" ({self.count} numbers differ)" if self.count > 1 else ""
        return f"{where}: {self.old!r} -> {self.new!r}{more}"


def compare_numbers(old: Numbers, new: Numbers, tolerance: Tolerance) -> str | ValueDifference | None:
    """None when equal within ``tolerance``; a phrase when the layouts differ; else the first number that
    differs beyond it."""
    if old.layout != new.layout:
        for key in sorted(set(old.layout) | set(new.layout)):
            if old.layout.get(key) != new.layout.get(key):
                return _layout_change(key, old.layout.get(key), new.layout.get(key))
    for key in sorted(old.values):
        before, after = old.values[key], new.values[key]
        gap = np.abs(after - before)
        allowed = np.maximum(tolerance.absolute, tolerance.relative * np.maximum(np.abs(before), np.abs(after)))
        beyond = np.flatnonzero(gap > allowed)
        if beyond.size:
            first = int(beyond[0])
            line = int(old.lines[key][first]) if key else number_line(old.layout[key], first)
            return ValueDifference(key, line, float(before[first]), float(after[first]), int(beyond.size))
    return None


def _layout_change(key: str, old: str | None, new: str | None) -> str:
    where = f"array {key!r}: " if key else ""
    if old is None or new is None:
        return f"array {key!r} {'added' if old is None else 'removed'}"
    if key:
        return f"{where}its type, shape or non-float contents changed"
    position = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
    line = old.count("\n", 0, position) + 1
    shown = new[position : position + 40].split("\n")[0].replace(MARK, "#")
    return f"text changed at line {line} (not only numbers): now {shown!r}"
