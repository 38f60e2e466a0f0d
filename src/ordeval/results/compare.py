"""Comparing numbers and tables cell by cell: the engine of ``ordeval diff`` and of any comparison of
reproduced numbers with numbers printed elsewhere (a paper's table, a recorded reference).

**Numbers** are compared as written (text), exactly, with :class:`decimal.Decimal`:

* *at the written precision* (the default): a number written with ``d`` decimals stands for every value
  within half a unit of its last decimal (``0.854`` for [0.8535, 0.8545], ``38`` for [37.5, 38.5],
  ``1.5e-3`` has 4 decimals). Two numbers are equal when the one written with more decimals, rounded to
  the decimals of the other, gives the other: ``|a - b| <= 0.5 * 10**-d`` with ``d`` the fewer decimals (a
  tie, exactly half a unit, counts as equal whichever way it was rounded). Two numbers written with the
  same decimals are therefore equal only when they are the same number. In a table, a number's decimals
  are those of its column (the most decimals any number of that column has in that table), so that a
  column printed at 3 decimals is compared at 3 decimals; and a table written in **full precision** --
  one of its numbers has :data:`FULL_PRECISION` or more significant digits, as floats in their shortest
  round-trip form (ordeval's outputs) have -- holds exact numbers: ``0.5`` there is 0.5, not 0.45..0.55.
  So two of ordeval's tables are compared exactly, and one against a table printed at 3 decimals at 3
  decimals;
* *within a tolerance*, in addition: equal also when ``|a - b| <= max(absolute, relative * max(|a|, |b|))``
  (:class:`Tolerance`; as :func:`math.isclose`). A tolerance widens the written precision, never narrows it.

The **difference** is ``new - old``. A cell that is not a number on both sides (text, an empty cell,
``True``) is compared exactly, with no difference.

**Tables** are matched column by column by name (columns in another order are not a difference) and row
by row by their key (rows in another order are not a difference). The key, unless given
(:func:`key_columns`): the first columns (in the old table's order) that hold text -- a column holds
text when one of its non-empty cells is not a number -- as few of them as identify every row of both
tables (``measure``; ``measure_a, measure_b``; ``dataset, measure``). When even all of them do not, the
fewest that come closest are taken and the rows of equal key numbered in order (key column ``#``); a table
without a text column is matched row by row (``#`` alone: the row number).

>>> from ordeval.results.compare import compare_printed
>>> compare_printed("0.854", 0.85417).equal, compare_printed("0.854", 0.8556).equal
(True, False)
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from ordeval.io.parsing import MAX_NUMBER_LENGTH, NUMBER
from ordeval.io.table import Table

#: A table with a number of this many significant digits is written in full precision: its numbers are exact.
FULL_PRECISION = 15
#: The key column that numbers the rows of equal key (and the rows of a table without text columns).
ROW_NUMBER = "#"

# Exact enough for any two numbers of at most MAX_NUMBER_LENGTH characters and finite as floats; no traps:
# an impossible operation gives NaN (never equal) instead of an exception.
_CONTEXT = decimal.Context(prec=1000, Emax=decimal.MAX_EMAX, Emin=decimal.MIN_EMIN, traps=[])


# --------------------------------------------------------------------------- numbers


def number(text: str) -> Decimal | None:
    """The exact value of ``text`` if it is a finite number in ordeval's number grammar
    (:data:`ordeval.io.parsing.NUMBER`: no spaces, ``nan`` or ``inf``), else None."""
    if len(text) > MAX_NUMBER_LENGTH or not NUMBER.fullmatch(text) or not math.isfinite(float(text)):
        return None
    return Decimal(text)


def decimals(text: str) -> int:
    """How many decimals ``text`` is written with: ``0.854`` 3, ``38`` 0, ``1.5e-3`` 4, ``1e5`` -5."""
    value = number(text)
    if value is None:
        raise ValueError(f"{text!r} is not a number")
    return -int(value.as_tuple().exponent)


@dataclass(frozen=True)
class Tolerance:
    """Numbers within ``absolute`` or within ``relative`` times the larger magnitude are equal, besides those
    equal at the written precision (both 0: at the written precision only)."""

    absolute: float = 0.0
    relative: float = 0.0

    def __post_init__(self):
        for name in ("absolute", "relative"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"tolerance: {name} must be a finite number >= 0, not {value!r}")

    def allows(self, old: Decimal, new: Decimal) -> bool:
        gap = _CONTEXT.abs(_CONTEXT.subtract(new, old))
        if self.absolute and gap <= Decimal(repr(self.absolute)):
            return True
        largest = max(_CONTEXT.abs(old), _CONTEXT.abs(new))
        return bool(self.relative) and gap <= _CONTEXT.multiply(Decimal(repr(self.relative)), largest)

    def describe(self) -> str:
        parts = ["equal at the written precision"]
        if self.absolute:
            parts.append(f"within {self.absolute:g}")
        if self.relative:
            parts.append(f"within {self.relative:g} of the larger magnitude")
        return " or ".join(parts)

    def as_dict(self) -> dict:
        return {"absolute": self.absolute, "relative": self.relative, "rule": self.describe()}


EXACT = Tolerance()
#: The tolerance of ``ordeval diff`` and of the recorded reference (docs/methods.md, section 8): far above the
#: last-bit differences of floating-point results between platforms (at most ~1e-14 relative seen), far below
#: any change of a result (a change of 1e-6 relative is found in every number above 1e-6 in magnitude).
PORTABLE = Tolerance(absolute=1e-12, relative=1e-9)


def equal_numbers(old: Decimal, new: Decimal, places: int | None, tolerance: Tolerance = EXACT) -> bool:
    """``old`` and ``new`` agree to ``places`` decimals (``|new - old| <= 0.5 * 10**-places``; None: they
    are the same number), or within ``tolerance``."""
    if old == new:
        return True
    if places is not None and _CONTEXT.abs(_CONTEXT.subtract(new, old)) <= Decimal((0, (5,), -places - 1)):
        return True
    return tolerance.allows(old, new)


def _difference(old: Decimal, new: Decimal) -> float:
    return float(_CONTEXT.subtract(new, old))


@dataclass(frozen=True)
class Cell:
    """One compared cell: its row ``key`` (the key columns' values, an ``int`` row number for ``#``), its
    ``column``, the ``old`` and ``new`` text, ``new - old`` when both are numbers (else None), and whether
    they are ``equal``."""

    key: tuple
    column: str
    old: str
    new: str
    difference: float | None
    equal: bool


def compare_printed(
    printed: str,
    value: float,
    tolerance: Tolerance = EXACT,
    *,
    places: int | None = None,
    key: tuple = (),
    column: str = "",
) -> Cell:
    """A number as printed (``"0.854"``, ``"38"``) against a computed ``value`` (a float, taken as exact):
    equal when ``value`` rounded to the printed decimals (or to ``places``, e.g. its table column's) gives
    the printed number (a tie counts as equal), or within ``tolerance``. ``difference`` is
    ``value - printed``; ``key`` and ``column`` only label the result."""
    old = number(printed)
    if old is None:
        raise ValueError(f"{printed!r} is not a number")
    new_text = repr(float(value))
    new = number(new_text)
    if new is None:
        return Cell(key, column, printed, new_text, None, False)
    places = decimals(printed) if places is None else places
    return Cell(key, column, printed, new_text, _difference(old, new), equal_numbers(old, new, places, tolerance))


# --------------------------------------------------------------------------- tables


@dataclass
class TableDiff:
    """Two tables compared (:func:`compare_tables`).

    ``key``: the key columns (``#`` last when rows of equal key are numbered); ``cells``: the cells that
    differ (every compared cell with ``keep_equal``); ``compared``: how many cells both tables have;
    rows and columns only one table has; whether the shared columns or the matched rows come in another
    order (not a difference)."""

    key: list[str]
    cells: list[Cell]
    compared: int
    rows_added: list[tuple] = field(default_factory=list)
    rows_removed: list[tuple] = field(default_factory=list)
    columns_added: list[str] = field(default_factory=list)
    columns_removed: list[str] = field(default_factory=list)
    columns_reordered: bool = False
    rows_reordered: bool = False

    @property
    def changed(self) -> list[Cell]:
        return [cell for cell in self.cells if not cell.equal]

    @property
    def equal(self) -> bool:
        return not (self.changed or self.rows_added or self.rows_removed or self.columns_added or self.columns_removed)

    @property
    def largest(self) -> Cell | None:
        """The changed cell of the largest absolute difference (None if no changed cell is a number)."""
        numeric = [cell for cell in self.changed if cell.difference is not None]
        return max(numeric, key=lambda cell: abs(cell.difference), default=None)


def _is_text(cells: Sequence[str]) -> bool:
    return any(cell != "" and number(cell) is None for cell in cells)


def _numbers(cells: Sequence[str]):
    return (value for value in map(number, cells) if value is not None)


def full_precision(texts: dict[str, list[str]]) -> bool:
    """Whether a table (its columns as text) is written in full precision: a number of
    :data:`FULL_PRECISION` or more significant digits."""
    return any(len(value.as_tuple().digits) >= FULL_PRECISION for cells in texts.values() for value in _numbers(cells))


class _Precision:
    """The decimals each column of two tables is compared at (module docstring), computed when first asked:
    the fewer of the two sides' (the most decimals of the column's numbers; none for a side written in full
    precision); None: exactly."""

    def __init__(self, old: dict[str, list[str]], new: dict[str, list[str]]):
        self.sides = (old, new)
        self.full: tuple[bool, bool] | None = None

    def __call__(self, column: str) -> int | None:
        if self.full is None:
            self.full = (full_precision(self.sides[0]), full_precision(self.sides[1]))
        places = [
            max((-int(value.as_tuple().exponent) for value in _numbers(texts[column])), default=0)
            for texts, full in zip(self.sides, self.full, strict=True)
            if not full
        ]
        return min(places, default=None)


def _texts(table: Table) -> dict[str, list[str]]:
    return {name: table.cells(name) for name in table.columns}


def _repeated(texts: dict[str, list[str]], names: Sequence[str]) -> int:
    """How many rows repeat an earlier row's values of the columns ``names``."""
    rows = list(zip(*(texts[name] for name in names), strict=True))
    return len(rows) - len(set(rows))


def _key_columns(old: dict[str, list[str]], new: dict[str, list[str]]) -> list[str]:
    candidates = [name for name in old if name in new and _is_text(old[name])]
    best, fewest = 0, None
    for count in range(1, len(candidates) + 1):
        repeated = _repeated(old, candidates[:count]) + _repeated(new, candidates[:count])
        if repeated == 0:
            return candidates[:count]
        if fewest is None or repeated < fewest:
            best, fewest = count, repeated
    return [*candidates[:best], ROW_NUMBER]


def key_columns(old: Table, new: Table) -> list[str]:
    """The key of :func:`compare_tables`: the fewest leading text columns of ``old`` (also in ``new``) that
    identify every row of both tables; when none do, the fewest that come closest, and ``#`` (the rows of
    equal key numbered in order; ``#`` alone without text columns)."""
    return _key_columns(_texts(old), _texts(new))


def _row_keys(texts: dict[str, list[str]], rows: int, key: Sequence[str]) -> list[tuple]:
    names = [name for name in key if name != ROW_NUMBER]
    values = list(zip(*(texts[name] for name in names), strict=True)) if names else [()] * rows
    if ROW_NUMBER not in key:
        return values
    seen: dict[tuple, int] = {}
    numbered = []
    for value in values:
        seen[value] = seen.get(value, 0) + 1
        numbered.append((*value, seen[value]))
    return numbered


def compare_tables(
    old: Table, new: Table, key: Sequence[str] | None = None, tolerance: Tolerance = EXACT, keep_equal: bool = False
) -> TableDiff:
    """``old`` and ``new`` cell by cell: rows matched by ``key`` (column names; default
    :func:`key_columns`; ``#`` numbers the rows of equal key), columns by name, numbers at their columns'
    written precision or within ``tolerance`` (module docstring), other cells exactly. Cells of the key
    columns are not compared (they are equal by construction). ``keep_equal`` keeps the equal cells in
    ``cells`` too (a verdict per cell)."""
    old_texts, new_texts = _texts(old), _texts(new)
    key = list(_key_columns(old_texts, new_texts) if key is None else key)
    for name in key:
        if name != ROW_NUMBER and (name not in old_texts or name not in new_texts):
            raise ValueError(f"key column {name!r} is not in both tables")
    old_keys, new_keys = _row_keys(old_texts, len(old), key), _row_keys(new_texts, len(new), key)
    if ROW_NUMBER not in key and (len(set(old_keys)) < len(old_keys) or len(set(new_keys)) < len(new_keys)):
        key.append(ROW_NUMBER)  # a given key that does not identify the rows
        old_keys, new_keys = _row_keys(old_texts, len(old), key), _row_keys(new_texts, len(new), key)
    position = {row_key: index for index, row_key in enumerate(new_keys)}
    matched = [(row_key, index, position[row_key]) for index, row_key in enumerate(old_keys) if row_key in position]
    shared = [name for name in old.columns if name in new_texts]
    new_order = [index for _, _, index in matched]
    old_set = set(old_keys)
    diff = TableDiff(
        key=key,
        cells=[],
        compared=len(matched) * len([name for name in shared if name not in key]),
        rows_added=[row_key for row_key in new_keys if row_key not in old_set],
        rows_removed=[row_key for row_key in old_keys if row_key not in position],
        columns_added=[name for name in new.columns if name not in old_texts],
        columns_removed=[name for name in old.columns if name not in new_texts],
        columns_reordered=shared != [name for name in new.columns if name in old_texts],
        rows_reordered=new_order != sorted(new_order),
    )
    precision = _Precision(old_texts, new_texts)
    for name in shared:
        if name not in key:
            diff.cells += _column_cells(
                name, old_texts[name], new_texts[name], matched, precision, tolerance, keep_equal
            )
    return diff


def _column_cells(
    name: str,
    old: list[str],
    new: list[str],
    matched: list[tuple],
    precision: _Precision,
    tolerance: Tolerance,
    keep_equal: bool,
) -> list[Cell]:
    """The compared cells of one column (the differing ones, or all with ``keep_equal``)."""
    cells = []
    places: list = []  # the decimals the column is compared at, found when a number first differs
    for row_key, old_index, new_index in matched:
        before, after = old[old_index], new[new_index]
        if before == after:
            if keep_equal:
                cells.append(Cell(row_key, name, before, after, None if number(before) is None else 0.0, True))
            continue
        a, b = number(before), number(after)
        if a is None or b is None:
            cells.append(Cell(row_key, name, before, after, None, False))
            continue
        if not places:
            places.append(precision(name))
        equal = equal_numbers(a, b, places[0], tolerance)
        if keep_equal or not equal:
            cells.append(Cell(row_key, name, before, after, _difference(a, b), equal))
    return cells


def describe_key(key: Sequence[str], row_key: tuple) -> str:
    """``measure_a=NMD, measure_b=RNOD``; ``#2`` for a row numbered among rows of equal key; ``row 3`` for
    a table matched by position."""
    if list(key) == [ROW_NUMBER]:
        return f"row {row_key[0]}"
    pairs = zip(key, row_key, strict=True)
    return ", ".join(f"#{value}" if name == ROW_NUMBER else f"{name}={value}" for name, value in pairs)
