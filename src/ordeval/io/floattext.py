"""Floats as text in Python's ``repr`` form (the shortest string that reads back as the same float), fast.

``repr(float)`` costs ~0.6 us per value (David Gay's dtoa); 30,000 topics x 20 runs x 13 measures of
score matrices are 7.8 million values, ~5 s. orjson formats floats with the Ryu algorithm, which gives
the same shortest round-trip digits (the shortest digit string that reads back as the float; among
those, the one closest to it) about ten times faster; in the range where both use fixed notation --
zero and 1e-4 <= |x| < 1e16 -- its text is ``repr``'s byte for byte (tested on tens of millions of
values: random bits, uniform, fractions k/n, powers of two and their neighbours, short decimals). Every
other value (smaller or larger magnitudes, where the notations differ, NaN and infinities) is written by
``repr`` itself. On first use the two are compared on probe values at both ends of the range and in
between; if orjson is missing or disagrees there (a future version changing its notation), ``repr``
writes everything. The text is the same either way: only the speed differs.
"""

from __future__ import annotations

import numpy as np

#: Values whose orjson text is checked against repr before orjson is trusted (both ends of the fixed
#: notation range, an integral value, a negative zero, 17 significant digits).
_PROBES = (
    0.0, -0.0, 1e-4, 0.00015, 0.1, 1.0, 5.0, -1.5, 123456789.123, 0.1 + 0.2, 2.0**-13,
    1e15, 9999999999999998.0, -0.3333333333333333, 1.0 / 7.0,
)  # fmt: skip

_ORJSON = None  # the module once checked; False when it is missing or disagrees


def _orjson():
    global _ORJSON
    if _ORJSON is None:
        try:
            import orjson
        except ImportError:
            _ORJSON = False
        else:
            probes = np.array(_PROBES)
            text = orjson.dumps(probes, option=orjson.OPT_SERIALIZE_NUMPY).decode()
            _ORJSON = orjson if text[1:-1].split(",") == [repr(value) for value in _PROBES] else False
    return _ORJSON


def _by_repr(values: np.ndarray) -> np.ndarray:
    """Where orjson's text is not repr's: NaN, infinities, and nonzero |x| < 1e-4 or >= 1e16."""
    magnitude = np.abs(values)
    with np.errstate(invalid="ignore"):
        fixed = (magnitude == 0) | ((magnitude >= 1e-4) & (magnitude < 1e16))
    return ~fixed


def _encoded(values: np.ndarray) -> str | None:
    """orjson's text of a float64 array (nested JSON lists), or None where ``repr`` writes everything
    (orjson missing or disagreeing, or no values)."""
    encoder = _orjson()
    if not encoder or values.size == 0:
        return None
    return encoder.dumps(values, option=encoder.OPT_SERIALIZE_NUMPY).decode()


def float_rows(matrix: np.ndarray, sep: str = "\t") -> list[str]:
    """Each row of a 2-D array as its values' ``repr`` joined by ``sep``: the same text as
    ``[sep.join(map(repr, row)) for row in matrix.tolist()]``, faster (see the module docstring)."""
    values = np.ascontiguousarray(matrix, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"expected a 2-D array, got shape {values.shape}")
    text = _encoded(values)  # [[a,b],[c,d]]
    if text is None:
        return [sep.join(map(repr, row)) for row in values.tolist()]
    rows = text[2:-2].replace(",", sep).split(f"]{sep}[")
    for index in np.flatnonzero(_by_repr(values).any(axis=1)):
        rows[index] = sep.join(map(repr, values[index].tolist()))
    return rows


def float_texts(vector: np.ndarray) -> list[str]:
    """The ``repr`` of every value of a 1-D array: ``list(map(repr, vector.tolist()))``, faster."""
    values = np.ascontiguousarray(vector, dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"expected a 1-D array, got shape {values.shape}")
    text = _encoded(values)  # [a,b]
    if text is None:
        return list(map(repr, values.tolist()))
    texts = text[1:-1].split(",")  # split on the flat text: half the time of float_rows on a column
    for index in np.flatnonzero(_by_repr(values)):
        texts[index] = repr(float(values[index]))
    return texts
