"""The tasks ordeval knows, looked up by name; each is imported only when first asked for."""

from __future__ import annotations

import importlib

from .base import Task

#: task name -> module whose ``TASK`` attribute is the task.
KNOWN_TASKS = {
    "quantification": "ordeval.tasks.quantification",
    "classification": "ordeval.tasks.classification",
    "scores": "ordeval.tasks.scores",
}
#: The task of a data set whose configuration names none (the only one before tasks existed).
DEFAULT_TASK = "quantification"

_loaded: dict[str, Task] = {}


def get_task(name: str) -> Task:
    """The task called ``name`` (``quantification``, ``classification``)."""
    if name not in _loaded:
        if name not in KNOWN_TASKS:
            raise KeyError(f"unknown task {name!r}; known: {', '.join(KNOWN_TASKS)}")
        _loaded[name] = importlib.import_module(KNOWN_TASKS[name]).TASK
    return _loaded[name]


def all_tasks() -> list[Task]:
    """Every task ordeval knows, in the order of :data:`KNOWN_TASKS`."""
    return [get_task(name) for name in KNOWN_TASKS]
