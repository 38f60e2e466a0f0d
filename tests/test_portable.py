"""ordeval.stats.portable: the same bits on every x86-64 CPU (issue 42; docs/methods.md, section 8).

* each function gives, value by value, exactly what Python's math module gives, with numpy's results at the
  special values;
* none of numpy's CPU-dispatched functions (exp, log, power, tanh, ...), no BLAS product and no power with a
  variable exponent is called anywhere else in the library or the scripts (a matrix product of integers,
  exact in any order, says so on its line: ``# exact``);
* in a process whose numpy has its dispatched kernels switched off, the functions give the same bytes, where
  numpy's own ``exp`` does not (on a CPU with AVX-512).
"""

from __future__ import annotations

import ast
import math
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPO

from ordeval.stats import portable

#: numpy functions whose float kernels numpy chooses by CPU, and BLAS products.
DISPATCHED = {
    "exp",
    "exp2",
    "expm1",
    "log",
    "log2",
    "log10",
    "log1p",
    "power",
    "float_power",
    "tanh",
    "arctanh",
    "sinh",
    "cosh",
    "arcsinh",
    "arccosh",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "arctan2",
    "cbrt",
    "dot",
    "vdot",
    "inner",
    "tensordot",
    "corrcoef",
    "cov",
    "matmul",
    "linalg",
}


def _values() -> np.ndarray:
    rng = np.random.default_rng(3)
    return np.concatenate([rng.uniform(-30, 30, 2000), rng.uniform(-1, 1, 2000), rng.lognormal(0, 5, 2000)])


@pytest.mark.parametrize(
    ("function", "reference", "domain"),
    [
        (portable.exp, math.exp, lambda x: np.clip(x, -700, 700)),
        (portable.log, math.log, np.abs),
        (portable.log2, math.log2, np.abs),
        (portable.tanh, math.tanh, lambda x: x),
        (portable.arctanh, math.atanh, lambda x: np.clip(x, -0.999, 0.999)),
    ],
)
def test_each_function_is_the_math_modules_value_by_value(function, reference, domain):
    x = domain(_values())
    x = x[x != 0] if reference in (math.log, math.log2) else x
    got = function(x)
    assert got.dtype == float and got.shape == x.shape
    assert np.array_equal(got, np.array([reference(value) for value in x]))
    assert function(float(x[0])) == reference(float(x[0])) and isinstance(function(float(x[0])), float)


def test_power_matmul_and_pearson():
    rng = np.random.default_rng(4)
    base, exponent = rng.uniform(0, 3, 500), rng.uniform(-2, 5, 500)
    assert np.array_equal(
        portable.power(base, exponent), np.array([math.pow(*pair) for pair in zip(base, exponent, strict=True)])
    )
    a, b = rng.normal(size=(4, 7, 5)), rng.normal(size=(5, 3))
    assert np.allclose(portable.matmul(a, b), a @ b, rtol=1e-14, atol=1e-14)
    assert np.allclose(portable.matmul(a[0], b[:, 0]), a[0] @ b[:, 0]) and portable.matmul(np.ones(5), b).shape == (3,)
    ints = rng.integers(0, 9, (3, 4))
    assert portable.matmul(ints, ints.T).dtype.kind == "i"
    x, y = rng.normal(size=50), rng.normal(size=50)
    assert math.isclose(portable.pearson(x, y), np.corrcoef(x, y)[0, 1], rel_tol=1e-13)
    assert math.isnan(portable.pearson(np.ones(5), x[:5]))


def test_special_values_are_numpys():
    with np.errstate(all="ignore"):
        x = np.array([0.0, -1.0, np.inf, -np.inf, np.nan, 1000.0, -1000.0, 1.0])
        for function, numpy_function in (
            (portable.exp, np.exp),
            (portable.log, np.log),
            (portable.log2, np.log2),
            (portable.tanh, np.tanh),
            (portable.arctanh, np.arctanh),
        ):
            assert np.array_equal(function(x), numpy_function(x), equal_nan=True), function.__name__
        bases, exponents = np.array([0.0, 0.0, 2.0, -1.0, 10.0]), np.array([0.0, -1.0, 0.5, 2.0, 400.0])
        assert np.array_equal(
            portable.power(bases, exponents), np.array([1.0, np.inf, math.sqrt(2), np.nan, np.inf]), equal_nan=True
        )
    assert portable.exp(np.empty((0, 3))).shape == (0, 3)


def _offenders(path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = path.read_text(encoding="utf-8").splitlines()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "np":
            if node.attr in DISPATCHED and "# exact" not in lines[node.lineno - 1]:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: np.{node.attr}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            if "# exact" not in lines[node.lineno - 1]:
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: @")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and not isinstance(node.left, ast.Constant):
            if not (isinstance(node.right, ast.Constant) and node.right.value in (0, 0.5, 1, 2, -1)):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: ** {ast.unparse(node.right)}")
    return found


def test_no_dispatched_function_outside_portable():
    """Not np.exp, np.log, ... nor a BLAS product nor x ** y for a variable y (numpy's power) in the library
    and scripts; squares, square roots and reciprocals (fast paths, correctly rounded) and powers of constants
    are fine; a matrix product of integers says ``# exact`` on its line."""
    files = [*(REPO / "src" / "ordeval").rglob("*.py"), *(REPO / "scripts").glob("*.py")]
    offenders = [line for path in files if path.name != "portable.py" for line in _offenders(path)]
    assert offenders == [], "use ordeval.stats.portable instead:\n" + "\n".join(offenders)


KERNELS_SCRIPT = """
import hashlib, numpy as np
from ordeval.stats import portable
from ordeval.tasks.quantification.simulate import simulate_tweet_gold
x = np.random.default_rng(1).uniform(-20, 20, 20000)
gold = simulate_tweet_gold(np.random.default_rng(2), topics=30, num_classes=5, cut_points=[-3.0, -1.0, 1.0, 3.0])
parts = [portable.exp(x), portable.log(np.abs(x)), portable.tanh(x / 9), portable.arctanh(portable.tanh(x / 9)),
         portable.power(np.abs(x), x / 9), portable.matmul(x[:600].reshape(20, 30), x[600:1500].reshape(30, 30)), gold]
print(hashlib.sha256(b"".join(np.ascontiguousarray(p).tobytes() for p in parts)).hexdigest(),
      hashlib.sha256(np.exp(x).tobytes()).hexdigest())
"""


def _hashes(environment: dict[str, str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", KERNELS_SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **environment},
        check=True,
    )
    return done.stdout.split()


def test_the_same_bytes_with_numpys_dispatched_kernels_switched_off():
    from numpy._core import _multiarray_umath as umath

    dispatched = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
    if not dispatched:
        pytest.skip("this CPU has none of numpy's dispatched features: nothing to switch off")
    here = _hashes({})
    baseline = _hashes({"NPY_DISABLE_CPU_FEATURES": " ".join(dispatched), "OPENBLAS_CORETYPE": "Prescott"})
    assert here[0] == baseline[0]
    if "AVX512F" in umath.__cpu_features__ and umath.__cpu_features__["AVX512F"]:
        assert here[1] != baseline[1]  # numpy's own exp: another last bit on AVX-512 (what portable avoids)
