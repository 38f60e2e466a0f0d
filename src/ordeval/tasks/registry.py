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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

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
