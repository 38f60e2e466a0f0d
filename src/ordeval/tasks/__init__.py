"""The tasks ordeval knows: every module or package of ``ordeval.tasks`` (but ``base``) whose ``TASK`` is a
:class:`~ordeval.tasks.base.Task`, found by looking, not listed, and any a plugin registers
(:func:`register_task`). A new task is one package (its readers and formats, measures, scoring, canonical files,
configuration schema section): nothing outside it names a task."""

from __future__ import annotations

import importlib
import pkgutil

from ordeval.tasks.base import Task


def _discover() -> dict[str, Task]:
    """task name -> the ``TASK`` of every task module here, in the order of their ``order`` attribute."""
    found = []
    for module in pkgutil.iter_modules(__path__):
        if module.name == "base":
            continue
        task = getattr(importlib.import_module(f"{__name__}.{module.name}"), "TASK", None)
        if isinstance(task, Task):
            found.append((task.order, task.name, task))
    return {name: task for _, name, task in sorted(found, key=lambda entry: entry[:2])}


#: task name -> the task (its module's ``TASK``).
KNOWN_TASKS = _discover()
#: The task of a data set whose configuration names none (the only one before tasks existed).
DEFAULT_TASK = "quantification"


def get_task(name: str) -> Task:
    """The task called ``name`` (``quantification``, ``classification``)."""
    if name not in KNOWN_TASKS:
        raise KeyError(f"unknown task {name!r}; known: {', '.join(KNOWN_TASKS)}")
    return KNOWN_TASKS[name]


def all_tasks() -> list[Task]:
    """Every task ordeval knows, in the order of :data:`KNOWN_TASKS`."""
    return [get_task(name) for name in KNOWN_TASKS]


def register_task(task: Task) -> Task:
    """Add ``task`` (a plugin's :class:`~ordeval.tasks.base.Task`) to the tasks ordeval knows; registering the
    same task again (a plugin loaded twice) changes nothing, another task of a known name is an error."""
    if not isinstance(task, Task):
        raise TypeError(f"a task is an ordeval.tasks.base.Task, not {type(task).__name__}")
    known = KNOWN_TASKS.get(task.name)
    if known is not None and type(known) is not type(task):
        raise ValueError(f"task {task.name!r} is known already")
    KNOWN_TASKS[task.name] = task
    ordered = sorted(KNOWN_TASKS.values(), key=lambda each: (each.order, each.name))
    KNOWN_TASKS.clear()
    KNOWN_TASKS.update({each.name: each for each in ordered})
    return task


def scoring_tasks() -> list[str]:
    """The tasks that score runs with a measure registry of their own (not ``scores``, whose data sets
    bring precomputed score matrices), in the order of :func:`all_tasks`."""
    return [task.name for task in all_tasks() if task.scores_runs]
