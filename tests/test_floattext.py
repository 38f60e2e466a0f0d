"""Floats as text: ordeval.io.floattext gives repr's text, byte for byte, whichever formatter writes it."""

import numpy as np
import pytest

from ordeval.io import floattext
from ordeval.io.table import Table
from ordeval.tasks.stack import matrix_text


def awkward_values(rng: np.random.Generator, size: int) -> np.ndarray:
    """Every kind of float the score matrices and tables hold, and the ones at the edges of notation."""
    exponents = rng.integers(-13, 60, size).astype(float)
    powers = 2.0**exponents
    edges = np.array([1e-4, np.nextafter(1e-4, 0), np.nextafter(1e-4, 1), 1e16, np.nextafter(1e16, 0), 1e15,
                      9999999999999998.0, 0.0, -0.0, np.nan, np.inf, -np.inf, 5e-324, 1.7976931348623157e308,
                      1e-5, 9.99e-5, 1e22, 0.1 + 0.2, -1e-300])  # fmt: skip
    parts = [
        rng.random(size),  # uniform
        rng.integers(0, 1000, size) / rng.integers(1, 1000, size),  # fractions k/n (accuracy, F1, ...)
        -rng.random(size) * 10.0 ** rng.integers(-8, 18, size),  # every magnitude, both notations
        np.concatenate([powers, np.nextafter(powers, 0), np.nextafter(powers, np.inf)]),
        rng.integers(1, 10**6, size) / 10.0 ** rng.integers(0, 12, size),  # short decimals
        rng.integers(0, 2**64, size, dtype=np.uint64).view(np.float64),  # any bits (NaNs, subnormals, huge)
        edges,
    ]
    return np.concatenate(parts)


def test_float_texts_are_repr_for_every_kind_of_value():
    values = awkward_values(np.random.default_rng(7), 20_000)
    assert floattext.float_texts(values) == list(map(repr, values.tolist()))


def test_float_rows_are_repr_joined_including_rows_with_odd_values():
    rng = np.random.default_rng(8)
    matrix = rng.random((500, 7))
    matrix[3, 2] = 1e-7  # a row written by repr (scientific notation) among rows written by orjson
    matrix[10, 0] = np.nan
    matrix[11, 6] = 2e16
    matrix[12] = -0.0
    expected = ["\t".join(map(repr, row)) for row in matrix.tolist()]
    assert floattext.float_rows(matrix) == expected
    assert floattext.float_rows(matrix, sep=",") == [",".join(map(repr, row)) for row in matrix.tolist()]
    assert floattext.float_rows(matrix[:, :1]) == [repr(row[0]) for row in matrix.tolist()]
    assert floattext.float_rows(np.empty((0, 3))) == []
    assert floattext.float_rows(np.empty((2, 0))) == ["", ""]
    with pytest.raises(ValueError, match="2-D"):
        floattext.float_rows(matrix[0])


def test_the_same_text_without_orjson(monkeypatch):
    rng = np.random.default_rng(9)
    matrix = rng.random((50, 4)) * 10.0 ** rng.integers(-6, 18, (50, 4))
    fast = matrix_text([f"t{i}" for i in range(50)], list("abcd"), matrix)
    monkeypatch.setattr(floattext, "_ORJSON", False)  # missing, or disagreeing on the probes
    assert matrix_text([f"t{i}" for i in range(50)], list("abcd"), matrix) == fast
    values = matrix.ravel()
    assert floattext.float_texts(values) == list(map(repr, values.tolist()))


def test_the_probes_decide_whether_orjson_is_used(monkeypatch):
    monkeypatch.setattr(floattext, "_ORJSON", None)
    monkeypatch.setattr(floattext, "_PROBES", (0.1, 1e-4, 1e15))  # repr and orjson agree on these
    assert floattext._orjson() is not False
    monkeypatch.setattr(floattext, "_ORJSON", None)
    monkeypatch.setattr(floattext, "_PROBES", (0.1, 1e-7))  # orjson writes 1e-7, repr 1e-07
    assert floattext._orjson() is False


def test_table_float_columns_keep_their_text():
    values = awkward_values(np.random.default_rng(10), 200)
    table = Table({"name": [f"r{i}" for i in range(len(values))], "value": values, "count": np.arange(len(values))})
    lines = table.to_text().splitlines()
    cells = ["" if np.isnan(value) else repr(value) for value in values.tolist()]
    assert lines[1:] == [f"r{i}\t{cell}\t{i}" for i, cell in enumerate(cells)]
