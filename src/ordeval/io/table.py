"""Small column tables read and written without pandas (whose import costs a job ~0.6 s).

A :class:`Table` is an ordered mapping of equally long columns (numpy arrays or lists). It is
written in the format ``pandas.DataFrame.to_csv(index=False)`` produces -- floats in their shortest
round-trip form, NaN as an empty cell, minimal quoting, ``\\n`` line ends -- so that outputs keep
their bytes whichever writer made them. CSV outputs of the analyses carry a trailing
``data_origin`` column (:func:`write_csv`).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.files import write_atomically
from ordeval.io.floattext import float_texts


def _cell(value: Any) -> str:
    """One value as pandas' to_csv writes it."""
    if value is None:
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "True" if value else "False"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return "" if math.isnan(value) else repr(value)
    return str(value)


class Table:
    """Named columns of equal length, in order."""

    def __init__(self, columns: Mapping[str, Sequence[Any] | np.ndarray] | None = None):
        self._columns: dict[str, Any] = {}
        for name, values in (columns or {}).items():
            self[name] = values

    # ------------------------------------------------------------------ mapping-like access
    def __setitem__(self, name: str, values) -> None:
        if not isinstance(values, np.ndarray):
            values = list(values)
        if self._columns and len(values) != len(self):
            raise ValueError(f"column {name!r} has {len(values)} values, the table {len(self)} rows")
        self._columns[name] = values

    def __getitem__(self, name: str):
        return self._columns[name]

    def __contains__(self, name: object) -> bool:
        return name in self._columns

    def __len__(self) -> int:
        return len(next(iter(self._columns.values()))) if self._columns else 0

    @property
    def columns(self) -> list[str]:
        return list(self._columns)

    def column(self, name: str, dtype=None) -> np.ndarray:
        return np.asarray(self._columns[name], dtype=dtype)

    def rows(self) -> Iterator[tuple]:
        return zip(*self._columns.values(), strict=True)

    def records(self) -> list[dict[str, Any]]:
        names = self.columns
        return [dict(zip(names, row, strict=True)) for row in self.rows()]

    def select(self, mask) -> Table:
        """Rows where ``mask`` (booleans) holds."""
        index = np.flatnonzero(np.asarray(mask, dtype=bool))
        return Table({name: _take(values, index) for name, values in self._columns.items()})

    def with_column(self, name: str, values) -> Table:
        table = Table(self._columns)
        table[name] = values
        return table

    @classmethod
    def concat(cls, tables: Iterable[Table]) -> Table:
        tables = [table for table in tables if table.columns]
        if not tables:
            return cls()
        names = tables[0].columns
        for table in tables[1:]:
            if table.columns != names:
                raise ValueError(f"cannot stack tables with columns {table.columns} and {names}")
        return cls({name: [value for table in tables for value in table._column_list(name)] for name in names})

    def _column_list(self, name: str) -> list:
        values = self._columns[name]
        return values.tolist() if isinstance(values, np.ndarray) else list(values)

    def cells(self, name: str) -> list[str]:
        """The column's values as text, as :meth:`write` writes them (:func:`_cell`); a float array in bulk
        (:mod:`ordeval.io.floattext`)."""
        values = self._columns[name]
        if isinstance(values, np.ndarray) and values.dtype.kind == "f":
            cells = float_texts(values)
            for index in np.flatnonzero(np.isnan(values)):
                cells[index] = ""
            return cells
        return [_cell(value) for value in self._column_list(name)]

    def to_pandas(self):
        import pandas as pd

        return pd.DataFrame({name: self._columns[name] for name in self.columns})

    # ------------------------------------------------------------------ text
    def to_text(self, sep: str = "\t") -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=sep, lineterminator="\n")
        writer.writerow(self.columns)
        lists = [self.cells(name) for name in self.columns]
        writer.writerows(zip(*lists, strict=True))
        return buffer.getvalue()

    def write(self, path: str | Path, sep: str = "\t") -> None:
        """Write atomically (a failed job leaves no partial file)."""
        text = self.to_text(sep)
        write_atomically(path, lambda temporary: Path(temporary).write_text(text, encoding="utf-8"))

    @classmethod
    def read(cls, path: str | Path, sep: str = "\t", numeric: Sequence[str] = (), integer: Sequence[str] = ()) -> Table:
        """Read a table written by :meth:`write`; ``numeric`` columns become float arrays (empty = NaN),
        ``integer`` columns int arrays, the others stay strings."""
        from ordeval.io.parsing import MAX_LINE_BYTES, read_bytes

        # UTF-8 checked (the line of a bad byte named), a byte-order mark dropped, no line of more than 16 MiB
        raw, _ = read_bytes(path, max_line=MAX_LINE_BYTES)
        reader = csv.reader(io.StringIO(raw.decode("utf-8"), newline=""), delimiter=sep)
        try:
            header = next(reader)
            rows = list(reader)
        except StopIteration:
            raise InputError(path, None, "file is empty") from None
        except csv.Error as error:
            raise InputError(path, f"line {reader.line_num}", f"not a table: {error}") from None
        repeated = next((name for index, name in enumerate(header) if name in header[:index]), None)
        if repeated is not None:  # a second column of one name would replace the first
            raise InputError(path, "line 1", f"column {repeated[:60]!r} appears twice in the header")
        for number, row in enumerate(rows, start=2):
            if len(row) != len(header):
                raise InputError(path, f"line {number}", f"{len(row)} fields, the header has {len(header)}")
        columns = list(zip(*rows, strict=True)) if rows else [() for _ in header]
        table = cls()
        for name, values in zip(header, columns, strict=True):
            if name in numeric or name in integer:
                table[name] = _numbers(path, name, values, float if name in numeric else int)
            else:
                table[name] = list(values)
        return table


def _numbers(path, name: str, values, kind) -> np.ndarray:
    """A numeric column (empty cells of a float column are NaN); an InputError naming line and column."""
    numbers = []
    for number, value in enumerate(values, start=2):
        try:
            converted = np.nan if kind is float and value == "" else kind(value)
            if kind is int and not -(2**63) <= converted < 2**63:
                raise OverflowError
        except (ValueError, OverflowError):
            what = "a number" if kind is float else "a 64-bit integer"
            raise InputError(path, f"line {number}", f"column {name}: {value[:60]!r} is not {what}") from None
        numbers.append(converted)
    return np.array(numbers, dtype=float if kind is float else np.int64)


def _take(values, index: np.ndarray):
    if isinstance(values, np.ndarray):
        return values[index]
    return [values[i] for i in index]


def dataset_rows(tables: Mapping[str, Table], columns: Sequence[str] | None = None) -> Table:
    """The tables of several data sets (``{data set: table}``) as one, each row's data set in a first column
    ``dataset``, then ``columns`` (default: every column of the tables, which must have the same)."""
    stacked = Table.concat([table.with_column("dataset", [name] * len(table)) for name, table in tables.items()])
    if not stacked.columns:
        return Table({name: [] for name in ["dataset", *(columns or [])]})
    kept = columns if columns is not None else [name for name in stacked.columns if name != "dataset"]
    return Table({name: stacked[name] for name in ["dataset", *kept]})


def write_csv(
    table: Table, path: str | Path, origins: Mapping[str, str], row_origins: Sequence[str] | None = None
) -> None:
    """Write ``table`` (unrounded numbers) as CSV with a trailing ``data_origin`` column: ``row_origins`` (one
    per row) where given, else the origin of each row's ``dataset`` where the table has that column, else the
    combined origin of ``origins``. Every value is one of :class:`~ordeval.io.provenance.Origin` (never free
    text)."""
    from ordeval.io.provenance import Origin, combined_origin

    common = combined_origin(origins)
    if row_origins is not None:
        if len(row_origins) != len(table):
            raise ValueError(f"{path}: {len(row_origins)} data origins for {len(table)} rows")
        column = [Origin(origin).value for origin in row_origins]
    elif "dataset" in table:
        column = [Origin(origins.get(name, common)).value for name in table["dataset"]]
    else:
        column = [common] * len(table)
    table.with_column("data_origin", column).write(path, sep=",")


def read_csv(path: str | Path, numeric: Sequence[str] = (), integer: Sequence[str] = ()) -> Table:
    """A CSV written by :func:`write_csv`, without its ``data_origin`` column."""
    table = Table.read(path, sep=",", numeric=numeric, integer=integer)
    return Table({name: table[name] for name in table.columns if name != "data_origin"})
