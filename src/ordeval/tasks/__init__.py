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
        if module.name in _NOT_TASKS:
            continue
        task = getattr(importlib.import_module(f"{__name__}.{module.name}"), "TASK", None)
        if isinstance(task, Task):
            found.append((task.order, task.name, task))
    return {name: task for _, name, task in sorted(found, key=lambda entry: entry[:2])}


#: The modules here that hold no task (what every task shares): not imported when the tasks are looked for.
_NOT_TASKS = frozenset(
    {
        "base",
        "sources",
        "formats",
        "registry",
        "plugins",
        "stack",
        "validation",
        "rereading",
        "latent",
        "topic_model",
        "measure_properties",
        "jobs",
    }
)
#: task name -> the task, once looked for (:func:`known_tasks`): a job that reads only a score stack
#: (``ordeval.tasks.stack``) does not import every task's readers and simulators (~0.1 s a process).
_KNOWN: dict[str, Task] = {}
_LOOKED = False


def known_tasks() -> dict[str, Task]:
    """task name -> the task (its module's ``TASK``, and those plugins registered), looked for on first use."""
    global _LOOKED
    if not _LOOKED:
        _KNOWN.update(_discover())
        _LOOKED = True
    return _KNOWN


def default_task() -> str:
    """The task of a data set whose configuration names none: the one whose ``implied`` says so (quantification,
    the only task before tasks existed)."""
    return next(task.name for task in all_tasks() if task.implied)


def task_of(spec) -> str:
    """The task a data set's configuration ``spec`` names: its ``task``, else :func:`default_task`."""
    return spec["task"] if "task" in spec else default_task()


def get_task(name: str) -> Task:
    """The task called ``name`` (``quantification``, ``classification``)."""
    known = known_tasks()
    if name not in known:
        raise KeyError(f"unknown task {name!r}; known: {', '.join(known)}")
    return known[name]


def all_tasks() -> list[Task]:
    """Every task ordeval knows, in the order of :func:`known_tasks`."""
    return list(known_tasks().values())


def register_task(task: Task) -> Task:
    """Add ``task`` (a plugin's :class:`~ordeval.tasks.base.Task`) to the tasks ordeval knows; registering the
    same task again (a plugin loaded twice) changes nothing, another task of a known name is an error."""
    if not isinstance(task, Task):
        raise TypeError(f"a task is an ordeval.tasks.base.Task, not {type(task).__name__}")
    known = known_tasks()
    if task.name in known and type(known[task.name]) is not type(task):
        raise ValueError(f"task {task.name!r} is known already")
    if task.implied and any(other.implied and other.name != task.name for other in known.values()):
        raise ValueError(f"task {task.name!r} is implied, but so is {default_task()!r}: a data set names its task")
    known[task.name] = task
    ordered = sorted(known.values(), key=lambda each: (each.order, each.name))
    known.clear()
    known.update({each.name: each for each in ordered})
    return task


def scoring_tasks() -> list[str]:
    """The tasks that score runs with a measure registry of their own (not ``scores``, whose data sets
    bring precomputed score matrices), in the order of :func:`all_tasks`."""
    return [task.name for task in all_tasks() if task.scores_runs]
