"""Arithmetic whose results are the same bits on every x86-64 CPU, whatever its vector instructions.

numpy picks the kernels of its elementwise functions when it is imported, by the CPU: ``exp``, ``log``,
``power`` run in AVX-512 code where the CPU has it, ``tanh`` and ``arctanh`` in AVX2 or AVX-512 code, else in
the C library's. These kernels differ from each other in the last bit of some results (``np.exp`` on AVX-512
and the C library's ``exp`` disagree on ~5% of random arguments). Matrix products go to BLAS, whose kernels,
also chosen by CPU, sum in different orders. So the same seed gave other simulated runs, scores and
intervals on a CPU with AVX-512 than on one without (docs/methods.md, section 8).

Every number ordeval writes is therefore computed with the functions here wherever numpy would dispatch:

* elementwise :func:`exp`, :func:`log`, :func:`log2`, :func:`power`, :func:`tanh`, :func:`arctanh` call
  Python's :mod:`math` (the C library's functions, one implementation per platform) value by value, with
  numpy's results at the special values (``log(0) = -inf``, ``exp(1000) = inf``, ...) and no warnings;
* :func:`matmul` sums the products in numpy's own order (``einsum``, never BLAS);
* :func:`pearson` sums in a fixed order (no BLAS).

numpy's reductions (``sum``, ``mean``: pairwise summation), its arithmetic and ``sqrt`` (correctly
rounded by IEEE 754) and its random generators (the C library underneath) need nothing: they give the same
bits on every CPU of one architecture. A test checks that the library calls none of the dispatched
functions elsewhere (``tests/test_portable.py``), and one runs the pipeline with numpy's AVX-512 and AVX2
kernels, OpenBLAS's kernels and numba's target CPU switched and compares the outputs byte for byte.

The cost: ~0.1 microsecond a value (the simulators and measures call them on at most a few hundred
thousand values: milliseconds).
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["exp", "log", "log2", "power", "tanh", "arctanh", "matmul", "pearson"]

_EXP_LIMIT = 709.782712893384  # the largest x with a finite exp(x)


def _elementwise(function, *arrays: np.ndarray) -> np.ndarray:
    """``function`` (a float function of the math module) applied value by value."""
    if not arrays[0].size:
        return np.empty(arrays[0].shape)
    with np.errstate(all="ignore"):  # the C library's status flags (0 ** -1 sets divide-by-zero)
        return np.asarray(np.frompyfunc(function, len(arrays), 1)(*arrays), dtype=float)


def _result(values: np.ndarray, *given) -> np.ndarray | float:
    """A float for scalar arguments (where numpy gives a numpy scalar), else the array."""
    scalar = all(np.ndim(value) == 0 and not isinstance(value, np.ndarray) for value in given)
    return float(values) if scalar else values


def exp(x) -> np.ndarray | float:
    """e**x value by value (``inf`` above 709.78, 0 at ``-inf``, NaN for NaN)."""
    values = np.asarray(x, dtype=float)
    finite = np.minimum(values, _EXP_LIMIT)
    out = _elementwise(math.exp, np.where(np.isnan(values), 0.0, finite))
    out = np.where(values > _EXP_LIMIT, np.inf, out)
    return _result(np.where(np.isnan(values), np.nan, out), x)


def _log(function, x) -> np.ndarray | float:
    values = np.asarray(x, dtype=float)
    positive = values > 0  # NaN is not
    out = _elementwise(function, np.where(positive & (values < np.inf), values, 1.0))
    out = np.where(values == np.inf, np.inf, out)
    out = np.where(values == 0, -np.inf, out)
    return _result(np.where(positive | (values == 0), out, np.nan), x)


def log(x) -> np.ndarray | float:
    """Natural logarithm value by value (``-inf`` at 0, NaN below 0 and for NaN)."""
    return _log(math.log, x)


def log2(x) -> np.ndarray | float:
    """Base-2 logarithm value by value (``-inf`` at 0, NaN below 0 and for NaN)."""
    return _log(math.log2, x)


def power(x, y) -> np.ndarray | float:
    """x**y value by value, for x >= 0 (what ordeval needs; NaN for a negative x, ``inf`` on overflow,
    0**0 = 1, 0**y = inf for y < 0)."""
    base, exponent = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    valid = (base >= 0) & np.isfinite(base) & np.isfinite(exponent)

    def safe_pow(a: float, b: float) -> float:
        try:
            return math.pow(a, b)
        except (OverflowError, ValueError):  # 0 ** negative (ValueError), or too large
            return math.inf

    out = _elementwise(safe_pow, np.where(valid, base, 1.0), np.where(valid, exponent, 1.0))
    return _result(np.where(valid, out, np.nan), x, y)


def tanh(x) -> np.ndarray | float:
    """Hyperbolic tangent value by value."""
    values = np.asarray(x, dtype=float)
    return _result(_elementwise(math.tanh, values), x)


def arctanh(x) -> np.ndarray | float:
    """Inverse hyperbolic tangent value by value (+-inf at +-1, NaN outside [-1, 1] and for NaN)."""
    values = np.asarray(x, dtype=float)
    inside = np.abs(values) < 1
    out = _elementwise(math.atanh, np.where(inside, values, 0.0))
    out = np.where(values == 1, np.inf, np.where(values == -1, -np.inf, out))
    return _result(np.where(inside | (np.abs(values) == 1), out, np.nan), x)


def matmul(a, b) -> np.ndarray:
    """The matrix product a @ b (broadcast over leading axes as ``np.matmul``), summed by numpy's own loops
    instead of BLAS. Integer and boolean operands (exact in any order) go to ``np.matmul``."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "biu" and b.dtype.kind in "biu":
        return np.matmul(a, b)
    a, b = a.astype(float, copy=False), b.astype(float, copy=False)
    if b.ndim == 1:
        return np.einsum("...j,j->...", a, b)
    if a.ndim == 1:
        return np.einsum("j,...jk->...k", a, b)
    return np.einsum("...ij,...jk->...ik", a, b)


def pearson(x, y) -> float:
    """Pearson's r of two 1-d samples, sums in a fixed order (NaN if either has no spread)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    dx, dy = x - x.mean(), y - y.mean()
    denominator = math.sqrt(float((dx * dx).sum()) * float((dy * dy).sum()))
    return float((dx * dy).sum()) / denominator if denominator > 0 else math.nan
