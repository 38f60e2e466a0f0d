"""Property checks of evaluation measures, computed rather than declared.

A *property* is a precise statement about a measure (its definition, with the reference, is the
docstring of the function that tests one instance of it), defined by the measure's task (its package's
``properties`` module: :mod:`ordeval.tasks.measure_properties`). Each property is either

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
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from ordeval.io.table import Table
from ordeval.properties.base import DEFAULT_TRIALS, Example, PropertyResult
from ordeval.tasks.measure_properties import Batch, Property, Scorer, plain


def properties_of(task: str) -> dict[str, Property]:
    """The properties ``task`` defines (:meth:`ordeval.tasks.base.Task.properties`; empty for a task without any)."""
    from ordeval.tasks import get_task

    return get_task(task).properties()


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
                shown = {label: plain(values[index]) for label, values in scores.items()}
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
            rows.append(
                [
                    measure.name,
                    measure.task,
                    name,
                    prop.title,
                    prop.quantifier,
                    result.holds,
                    result.decided,
                    "" if flag is None else flag,
                    result.instances,
                    result.explain(),
                ]
            )
    columns = [
        "measure",
        "task",
        "property",
        "title",
        "quantifier",
        "holds",
        "decided",
        "declared",
        "instances",
        "explanation",
    ]
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
    return [
        "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        for row in [header, *body]
    ]


def _true(value) -> bool:
    return value in (True, "True") or (isinstance(value, np.bool_) and bool(value))
