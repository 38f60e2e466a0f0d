"""The tasks ordeval knows: every module or package of ``ordeval.tasks`` (but ``base``) whose ``TASK`` is a
:class:`~ordeval.tasks.base.Task`, found by looking, not listed. A new task is one package here."""

from __future__ import annotations

import importlib
import pkgutil

from .base import Task


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


def scoring_tasks() -> list[str]:
    """The tasks that score runs with a measure registry of their own (not ``scores``, whose data sets
    bring precomputed score matrices), in the order of :func:`all_tasks`."""
    return [task.name for task in all_tasks() if task.scoring_modules]
