"""Measure registries: one per task, the single source of the measures that ordeval scores.

A task (``ordeval.tasks``) owns one :class:`Registry`. Adding a measure is one function plus one
decorator line::

    from ordeval.tasks.quantification import register

    @register("MAXD", display="MaxD", description="largest absolute difference")
    def max_difference(estimate, gold):
        \"\"\"MaxD = max_i |p_i - p*_i|.\"\"\"
        return np.abs(estimate - gold).max(axis=-1)

Whatever is registered -- in ordeval itself, in a module named by the configuration's ``plugins``
or in an installed package's ``ordeval.plugins`` entry point -- is scored and analysed everywhere,
and its direction (``lower_is_better``) travels with its scores to every analysis.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from ordeval.io.errors import MeasureError

#: Allowed measure names: they become file names and LaTeX/CSV labels.
MEASURE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_+-]{0,63}$")


@dataclass(frozen=True)
class Measure:
    """A registered evaluation measure of one task."""

    name: str  #: registry key: file names, configuration, CSV labels (e.g. ``RNOD``)
    task: str  #: the task whose registry holds it (``quantification``, ``classification``)
    function: Callable[..., Any]
    display: str  #: name for tables and figures (plain text; writers escape it)
    description: str  #: one line
    lower_is_better: bool = True
    reference: str = ""  #: where the measure is defined (paper, equation)
    properties: Mapping[str, Any] = field(default_factory=dict)  #: task-specific facts (e.g. ``ordinal``)
    #: False: scored only where named (``--measures``, the configuration's ``measures``) and never one of
    #: the analyses' defaults -- an official measure that is another one rescaled (SemEval's EMD is
    #: (K-1) x NMD) would only repeat that measure in the meta-evaluation tables
    meta_evaluated: bool = True

    @property
    def formula(self) -> str:
        """The function's docstring: the formula, with its conventions."""
        return inspect.cleandoc(self.function.__doc__ or self.description)

    @property
    def direction(self) -> str:
        return "lower is better" if self.lower_is_better else "higher is better"

    def __call__(self, *arguments, **keywords):
        return self.function(*arguments, **keywords)


class Registry(Mapping[str, Measure]):
    """The measures of one task, in registration order (the default table order)."""

    def __init__(self, task: str):
        self.task = task
        self._measures: dict[str, Measure] = {}

    def register(
        self,
        name: str,
        *,
        display: str | None = None,
        description: str = "",
        lower_is_better: bool = True,
        reference: str = "",
        meta_evaluated: bool = True,
        **properties: Any,
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Decorator adding ``function`` to the registry under ``name``; returns ``function`` unchanged."""
        if not MEASURE_NAME.match(name):
            raise ValueError(f"measure name {name!r}: use a letter, then up to 63 letters, digits, '_', '+' or '-'")
        from ordeval.io.names import name_problem

        problem = name_problem(name, kind="measure name")  # the words outputs use, Windows's device names
        if problem:
            raise ValueError(problem)

        def decorator(function: Callable[..., Any]) -> Callable[..., Any]:
            if name in self._measures:
                raise ValueError(f"{self.task} measure {name!r} is registered twice")
            summary = description or (inspect.cleandoc(function.__doc__ or name).splitlines() or [name])[0]
            self._measures[name] = Measure(
                name=name,
                task=self.task,
                function=function,
                display=display or name,
                description=summary,
                lower_is_better=bool(lower_is_better),
                reference=reference,
                properties=MappingProxyType(dict(properties)),
                meta_evaluated=bool(meta_evaluated),
            )
            return function

        return decorator

    def __getitem__(self, name: str) -> Measure:
        try:
            return self._measures[name]
        except KeyError:
            raise KeyError(f"unknown {self.task} measure {name!r}; registered: {', '.join(self._measures)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._measures)

    def __len__(self) -> int:
        return len(self._measures)

    def names(self) -> list[str]:
        """Every registered measure, in registration order."""
        return list(self._measures)

    def default_names(self) -> list[str]:
        """The measures scored and analysed when none are named: every one registered with
        ``meta_evaluated=True`` (the default), in registration order."""
        return [name for name, measure in self._measures.items() if measure.meta_evaluated]

    def __repr__(self) -> str:
        return f"Registry({self.task!r}: {', '.join(self._measures)})"


# --------------------------------------------------------------------------- calling a measure


def measure_values(measure: Measure, *arguments) -> np.ndarray:
    """``measure(*arguments)`` as a float array. A measure that raises, calls ``sys.exit`` or returns
    anything but numbers (None, strings, objects, complex numbers) is a :class:`~ordeval.io.errors.MeasureError`
    naming it and the file that defines it (what it raised is chained: ``ORDEVAL_DEBUG=1`` shows it)."""
    try:
        result = measure(*arguments)
    except MeasureError:  # a combination measure's component: named already
        raise
    except SystemExit as stop:
        raise measure_error(measure, f"called sys.exit({stop.code!r}) while scoring") from stop
    except Exception as error:
        raise measure_error(measure, f"raised {type(error).__name__}: {error}") from error
    if result is None:
        raise measure_error(measure, "returned None, not scores")
    try:
        values = np.asarray(result)
    except ValueError as error:  # e.g. a ragged list
        raise measure_error(measure, f"returned something that is not an array of scores ({error})") from error
    if values.dtype.kind not in "biuf":
        what = "strings" if values.dtype.kind in "US" else f"values of type {values.dtype}"
        raise measure_error(measure, f"returned {what}, not numbers")
    return values.astype(float, copy=False)


def checked_scores(
    measure: Measure, values: np.ndarray, runs: Sequence[str], topics: Sequence[str], dataset: str
) -> np.ndarray:
    """``values``, the runs x topics scores of ``measure`` on data set ``dataset``, once checked: one finite
    number per run and topic, else a :class:`~ordeval.io.errors.MeasureError` naming the measure and the first
    run and topic without one."""
    expected = (len(runs), len(topics))
    if values.shape != expected:
        shape = "a single number" if values.ndim == 0 else f"shape {values.shape}"
        raise measure_error(
            measure,
            f"returned {shape} on data set {dataset!r}; expected one score per run and topic, shape {expected} "
            f"({len(runs)} runs x {len(topics)} topics)",
        )
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        run, topic = bad[0]
        raise measure_error(
            measure,
            f"gave {values[run, topic]} for run {runs[run]!r} on topic {topics[topic]!r} of data set {dataset!r} "
            f"({len(bad)} of {values.size} scores not finite); a measure must give a finite number for every run "
            "and topic (with a documented convention where it is 0/0)",
        )
    from ordeval.stats import MAX_SCORE

    large = np.argwhere(np.abs(values) > MAX_SCORE)
    if large.size:
        run, topic = large[0]
        raise measure_error(
            measure,
            f"gave {values[run, topic]} for run {runs[run]!r} on topic {topics[topic]!r} of data set {dataset!r}, "
            f"beyond {MAX_SCORE:g} in magnitude ({len(large)} of {values.size} scores): the statistics square scores",
        )
    return values


def measure_error(measure: Measure, problem: str) -> MeasureError:
    """A MeasureError about ``measure``, naming the file that defines its function."""
    import inspect

    try:
        source = inspect.getsourcefile(measure.function) or measure.function.__module__
    except TypeError:  # not a Python function (a builtin, a callable object without source)
        source = getattr(measure.function, "__module__", None) or repr(measure.function)
    path = Path(source)
    with suppress(OSError):  # shown relative to the current folder where it is inside it
        path = path.relative_to(Path.cwd()) if path.is_absolute() and path.is_relative_to(Path.cwd()) else path
    return MeasureError(path, None, f"{measure.task} measure {measure.name!r} {problem}")


def registry_on_first_use(package: str):
    """A module ``__getattr__`` for a task package: its ``REGISTRY`` and ``register`` come from
    ``<package>.measures``, imported on first use, so that jobs that only read or write data (and do
    not score) do not depend on the measures' code."""

    def __getattr__(name: str):
        if name in ("REGISTRY", "register"):
            import importlib

            return getattr(importlib.import_module(f"{package}.measures"), name)
        raise AttributeError(name)

    return __getattr__
