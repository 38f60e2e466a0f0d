"""What a property of a task's measures is and how a task defines one (:meth:`Properties.define`): the defining
cases and seeded random instances of a property (:class:`Batch`), its test on a measure (:class:`Scorer`), and the
record (:class:`Property`). Each task defines its own in its package (a :class:`Properties`: the built-in tasks'
``properties`` modules, which :meth:`ordeval.tasks.base.Task.properties` returns); :mod:`ordeval.properties` checks
them on every measure."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Two scores closer than this (relative to max(1, |a|, |b|)) are equal.
TOLERANCE = 1e-9
QUANTIFIERS = ("all", "exists")


@dataclass(frozen=True)
class Batch:
    """Instances of one property that share their array shapes: ``arrays[key][i]`` belongs to instance i
    (an example shows the arrays whose key does not start with ``_``); ``sizes[i]`` orders the instances
    (smallest first: fewer classes, then fewer items or a coarser grid)."""

    arrays: Mapping[str, np.ndarray]
    sizes: np.ndarray  # (instances, size fields), integers

    def __len__(self) -> int:
        return len(self.sizes)

    def case(self, index: int) -> dict[str, Any]:
        return {key: plain(values[index]) for key, values in self.arrays.items() if not key.startswith("_")}


@dataclass(frozen=True)
class Scorer:
    """A measure as a property test sees it: scores of arrays (errors and warnings silenced; a measure
    that raises scores NaN, which no test accepts) and comparisons by its direction."""

    function: Callable[..., Any]
    lower_is_better: bool
    core: int = 1  #: trailing axes of one case (1: a distribution, 2: a confusion matrix)
    tolerance: float = TOLERANCE

    def __call__(self, *arrays: np.ndarray) -> np.ndarray:
        shape = np.broadcast_shapes(*(np.shape(a)[: np.ndim(a) - self.core] for a in arrays))
        with np.errstate(all="ignore"):
            try:
                values = np.asarray(self.function(*arrays), dtype=float)
            except Exception:  # noqa: BLE001 - a measure that fails on a case fails the property there
                return np.full(shape, np.nan)
        return values if values.shape == shape else np.full(shape, np.nan)

    def _gap(self, a, b) -> np.ndarray:
        a, b = np.asarray(a, float), np.asarray(b, float)
        return self.tolerance * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))

    def better(self, a, b) -> np.ndarray:
        """``a`` is a strictly better score than ``b`` (by more than the tolerance); False for NaN."""
        with np.errstate(invalid="ignore"):
            return (b - a > self._gap(a, b)) if self.lower_is_better else (a - b > self._gap(a, b))

    def same(self, a, b) -> np.ndarray:
        """``a`` and ``b`` are equal within the tolerance; False for NaN."""
        with np.errstate(invalid="ignore"):
            return np.abs(np.asarray(a, float) - np.asarray(b, float)) <= self._gap(a, b)


#: A property test: (scorer, batch) -> (bool per instance: satisfies it / is a witness, scores to show).
Test = Callable[[Scorer, Batch], tuple[np.ndarray, Mapping[str, np.ndarray]]]


@dataclass(frozen=True)
class Property:
    """A property of the measures of one task (see the module docstring)."""

    name: str  #: key, also the registry flag a measure may declare
    task: str
    title: str  #: column heading, e.g. "(I) ordinal"
    quantifier: str  #: "all" or "exists"
    definition: str  #: the precise statement with its reference (the test's docstring)
    cases: Callable[[np.random.Generator, int], list[Batch]] = field(repr=False)
    test: Test = field(repr=False)
    paper: bool = False  #: one of the paper's Table 4 columns (I)-(III)


class Properties(dict):
    """The properties of one task's measures by name, in definition order: a task's package defines them with
    :meth:`define` and returns them from :meth:`ordeval.tasks.base.Task.properties`."""

    def __init__(self, task: str):
        super().__init__()
        self.task = task

    def define(self, name: str, title: str, quantifier: str, cases, *, paper: bool = False):
        """Decorator registering a property test (its docstring is the property's definition) and the function
        ``cases(rng, trials)`` making its defining cases and random instances."""
        if quantifier not in QUANTIFIERS:
            raise ValueError(f"quantifier must be one of {QUANTIFIERS}, got {quantifier!r}")

        def decorator(test: Test) -> Test:
            import inspect

            definition = inspect.cleandoc(test.__doc__ or "")
            self[name] = Property(name, self.task, title, quantifier, definition, cases, test, paper)
            return test

        return decorator


def plain(value):
    """Numbers and nested lists for an example: integers stay integers, floats are rounded to 12 digits."""
    array = np.asarray(value)
    if np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.bool_):
        return array.tolist()
    rounded = np.round(array.astype(float), 12) + 0.0
    integral = np.isfinite(rounded).all() and np.all(rounded == np.round(rounded)) and array.ndim > 1
    return rounded.astype(np.int64).tolist() if integral else rounded.tolist()
