"""Property checks of evaluation measures, computed rather than declared.

A *property* is a precise statement about a measure (its definition, with the reference, is the
docstring of the function that tests one instance of it; see :mod:`.classification` and
:mod:`.quantification`). Each property is either

* universal (``"all"``): it must hold on every instance of a family (e.g. every topic with K >= 3
  classes); the checker builds the defining cases and thousands of random instances (a seeded
  ``numpy.random.default_rng``) and reports *violated* with the smallest counterexample it found, or
  *holds* when none of the instances is one -- a search result, not a proof; or
* existential (``"exists"``): some instance must show it (e.g. two topics whose pooled score is not
  the item-weighted mean of theirs); *holds* comes with the smallest witness found, *violated* means no
  instance was one.

So a verdict is ``decided`` (settled by the example it carries) for a violated universal property and a
satisfied existential one; the other verdicts rest on the search (``instances`` says how large).

Every registered measure -- built in or from a plugin -- is checked the same way; a measure may also
declare the properties it claims (its registry ``properties``), and :func:`disagreements` lists where a
declaration and its check differ. :func:`property_table` lays the checks out as a table,
:func:`render` as text or markdown.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ordeval.io.table import Table

#: Instances per property: its defining cases, then seeded random ones.
DEFAULT_TRIALS = 2000
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
        return {key: _plain(values[index]) for key, values in self.arrays.items() if not key.startswith("_")}


@dataclass(frozen=True)
class Example:
    """One instance: the case (plain lists and numbers) and the measure's scores on it."""

    size: tuple[int, ...]
    case: Mapping[str, Any]
    scores: Mapping[str, Any]

    def __str__(self) -> str:
        parts = [f"{key} {_number_text(value)}" for key, value in self.case.items()]
        parts += [f"{key} {_number_text(value)}" for key, value in self.scores.items()]
        return "; ".join(parts)


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


@dataclass(frozen=True)
class PropertyResult:
    """The check of one property on one measure."""

    measure: str
    property: str
    quantifier: str
    holds: bool
    instances: int  #: instances examined (defining cases and random ones)
    example: Example | None  #: the smallest counterexample (violated "all") or witness (satisfied "exists")

    @property
    def decided(self) -> bool:
        """The verdict is settled by its example (not by the search alone)."""
        return self.example is not None

    def explain(self) -> str:
        if self.quantifier == "all":
            if self.holds:
                return f"holds: no counterexample among {self.instances} instances"
            return f"violated: counterexample {self.example}"
        if self.holds:
            return f"holds: witness {self.example}"
        return f"violated: no witness among {self.instances} instances"


#: task -> {property name: Property}, in definition order.
PROPERTIES: dict[str, dict[str, Property]] = {}


def define(task: str, name: str, title: str, quantifier: str, cases, *, paper: bool = False):
    """Decorator registering a property test (its docstring is the property's definition)."""
    if quantifier not in QUANTIFIERS:
        raise ValueError(f"quantifier must be one of {QUANTIFIERS}, got {quantifier!r}")

    def decorator(test: Test) -> Test:
        import inspect

        PROPERTIES.setdefault(task, {})[name] = Property(
            name, task, title, quantifier, inspect.cleandoc(test.__doc__ or ""), cases, test, paper
        )
        return test

    return decorator


def properties_of(task: str) -> dict[str, Property]:
    """The properties defined for ``task`` (empty for a task without any)."""
    from ordeval.properties import classification, quantification  # noqa: F401  (they define the properties)

    return PROPERTIES.get(task, {})


@lru_cache(maxsize=64)
def instances(task: str, name: str, trials: int = DEFAULT_TRIALS, seed: int = 0) -> tuple[Batch, ...]:
    """The defining cases and ``trials`` random instances of a property (the same for every measure):
    random stream ``default_rng([seed, crc32("<task>/<name>")])``."""
    prop = properties_of(task)[name]
    rng = np.random.default_rng([seed, zlib.crc32(f"{task}/{name}".encode())])
    return tuple(batch for batch in prop.cases(rng, trials) if len(batch))


def _case_axes(task: str) -> int:
    """Trailing axes of one case of ``task``'s measures (Task.case_axes: a distribution 1, a confusion matrix 2)."""
    from ordeval.tasks import get_task

    return get_task(task).case_axes


def check(measure, name: str, *, trials: int = DEFAULT_TRIALS, seed: int = 0) -> PropertyResult:
    """Check property ``name`` (of the measure's task) on a registered ``measure``."""
    prop = properties_of(measure.task)[name]
    scorer = Scorer(measure.function, measure.lower_is_better, _case_axes(measure.task))
    best: tuple | None = None
    count = 0
    for number, batch in enumerate(instances(measure.task, name, trials, seed)):
        ok, scores = prop.test(scorer, batch)
        ok = np.asarray(ok, dtype=bool)
        count += len(batch)
        interesting = np.flatnonzero(ok if prop.quantifier == "exists" else ~ok)
        if interesting.size:
            keys = batch.sizes[interesting]
            index = int(interesting[np.lexsort(keys.T[::-1])[0]])
            key = (tuple(int(v) for v in batch.sizes[index]), number, index)
            if best is None or key < best[0]:
                shown = {label: _plain(values[index]) for label, values in scores.items()}
                best = (key, Example(key[0], batch.case(index), shown))
    example = best[1] if best else None
    holds = example is not None if prop.quantifier == "exists" else example is None
    return PropertyResult(measure.name, name, prop.quantifier, holds, count, example)


def check_measure(measure, *, trials: int = DEFAULT_TRIALS, seed: int = 0) -> dict[str, PropertyResult]:
    """Every property of the measure's task, checked: ``{property: result}``."""
    return {name: check(measure, name, trials=trials, seed=seed) for name in properties_of(measure.task)}


def computed_flags(measures: Iterable, *, trials: int = DEFAULT_TRIALS, seed: int = 0) -> dict[str, dict[str, bool]]:
    """``{measure name: {property: holds}}``: the computed counterpart of the registry flags (e.g. for the
    OC properties table, ``ordinal``, ``handles_constant`` and ``handles_imbalance``)."""
    return {m.name: {k: r.holds for k, r in check_measure(m, trials=trials, seed=seed).items()} for m in measures}


def declared(measure, name: str) -> bool | None:
    """The flag a measure declares for property ``name`` (None: it declares none)."""
    value = dict(measure.properties).get(name)
    return None if value is None else bool(value)


def disagreements(measures: Iterable, *, trials: int = DEFAULT_TRIALS, seed: int = 0) -> list[str]:
    """One line per declared flag that its check contradicts, with the check's explanation."""
    return table_disagreements(property_table(measures, trials=trials, seed=seed))


def table_disagreements(table: Table) -> list[str]:
    """:func:`disagreements` of the checks a :func:`property_table` holds (without running them again)."""
    return [
        f"{row['task']} measure {row['measure']}: declares {row['property']}={row['declared']}, "
        f"but {row['explanation']}"
        for row in table.records()
        if row["declared"] != "" and row["declared"] != row["holds"]
    ]


def resolve_measures(names: Sequence[str] | None = None, task: str | None = None) -> list:
    """Registered measures by name (searched in every task's registry), or every measure (of ``task``)."""
    from ordeval.tasks import get_task, scoring_tasks

    tasks = [task] if task else scoring_tasks()
    registries = [get_task(t).registry for t in tasks]
    if not names:
        return [measure for registry in registries for measure in registry.values()]
    found = []
    for name in names:
        matches = [registry[name] for registry in registries if name in registry]
        if not matches:
            known = ", ".join(m for registry in registries for m in registry)
            raise KeyError(f"unknown measure {name!r}; registered: {known}")
        found.extend(matches)
    return found


def property_table(measures: Iterable, *, trials: int = DEFAULT_TRIALS, seed: int = 0) -> Table:
    """One row per measure and property of its task: measure, task, property, title, quantifier, holds,
    decided, declared (empty when the measure declares nothing), instances, explanation."""
    rows = []
    for measure in measures:
        for name, result in check_measure(measure, trials=trials, seed=seed).items():
            prop = properties_of(measure.task)[name]
            flag = declared(measure, name)
            rows.append([measure.name, measure.task, name, prop.title, prop.quantifier, result.holds,
                         result.decided, "" if flag is None else flag, result.instances, result.explain()])  # fmt: skip
    columns = ["measure", "task", "property", "title", "quantifier", "holds", "decided", "declared", "instances",
               "explanation"]  # fmt: skip
    return Table({column: [row[i] for row in rows] for i, column in enumerate(columns)})


def render(table: Table, markdown: bool = False) -> str:
    """A property table as text (or markdown): per task, a grid of measures x properties ('yes' / 'no';
    '*' marks a verdict that rests on the search, not on an example), then every explanation."""
    out: list[str] = []
    records = table.records()
    for task in dict.fromkeys(row["task"] for row in records):
        rows = [row for row in records if row["task"] == task]
        titles = dict.fromkeys((row["property"], row["title"]) for row in rows)
        grid: dict[str, dict[str, str]] = {}
        for row in rows:
            cell = ("yes" if _true(row["holds"]) else "no") + ("" if _true(row["decided"]) else "*")
            grid.setdefault(row["measure"], {})[row["property"]] = cell
        header = ["measure", *(title for _, title in titles)]
        body = [[measure, *(cells.get(name, "") for name, _ in titles)] for measure, cells in grid.items()]
        out += [f"{'## ' if markdown else ''}{task}", ""]
        out += _grid(header, body, markdown) + [""]
        out.append("* no example decides it: the verdict rests on the search (the instances say how many).")
        out.append("")
        for row in rows:
            out.append(f"{'- ' if markdown else ''}{row['measure']} / {row['property']}: {row['explanation']}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _grid(header: list[str], body: list[list[str]], markdown: bool) -> list[str]:
    if markdown:
        escape = [[str(cell).replace("|", "\\|").replace("*", "\\*") for cell in row] for row in [header, *body]]
        lines = ["| " + " | ".join(escape[0]) + " |", "|" + "---|" * len(header)]
        return lines + ["| " + " | ".join(row) + " |" for row in escape[1:]]
    widths = [max(len(str(row[i])) for row in [header, *body]) for i in range(len(header))]
    return ["  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
            for row in [header, *body]]  # fmt: skip


def _true(value) -> bool:
    return value in (True, "True") or (isinstance(value, np.bool_) and bool(value))


def _plain(value):
    """Numbers and nested lists for an example: integers stay integers, floats are rounded to 12 digits."""
    array = np.asarray(value)
    if np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.bool_):
        return array.tolist()
    rounded = np.round(array.astype(float), 12) + 0.0
    integral = np.isfinite(rounded).all() and np.all(rounded == np.round(rounded)) and array.ndim > 1
    return rounded.astype(np.int64).tolist() if integral else rounded.tolist()


def _number_text(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_number_text(v) for v in value) + "]"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)
