"""What the pipeline's data and scoring jobs do, whatever the task: a data set's canonical files from the files its
configuration names (rule prepare_data), and its score stack, means and measures (rule score_runs). The task does
the work (:class:`~ordeval.tasks.base.Task`); these functions name the files."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from ordeval.tasks import get_task
from ordeval.tasks.base import TaskData
from ordeval.tasks.plugins import load_plugins
from ordeval.tasks.stack import ScoreStack, write_scored


def prepare_dataset(
    name: str,
    task: str,
    spec: Mapping,
    files: Mapping[str, str | Path],
    seed: int,
    outputs: Mapping[str, str | Path],
    plugins: Sequence[str] = (),
) -> TaskData:
    """Read, compute or simulate data set ``name`` of ``task`` (its configuration ``spec``; ``files``: the files
    it reads, by configuration entry, :func:`~ordeval.tasks.sources.source_paths`), validate it, and write its
    canonical files (``outputs``: gold, runs, arrays, provenance), each atomically; the data set."""
    load_plugins(plugins)  # a plugin's file format or task
    owner = get_task(task)
    data = owner.build(name, spec, files, seed)
    data.provenance["task"] = owner.name
    data.provenance["summary"] = owner.describe(data)
    for key in ("venue", "language"):
        data.provenance[key] = spec.get(key, "")
    owner.write_canonical(data, outputs)
    return data


def score_dataset(
    name: str,
    task: str,
    spec: Mapping,
    canonical: Mapping[str, str | Path],
    measures: Sequence[str],
    outputs: Mapping[str, str | Path],
    plugins: Sequence[str] = (),
) -> ScoreStack:
    """Every run of data set ``name`` scored on every topic with each of ``measures``, from its canonical files
    (``canonical``: gold, runs, arrays, provenance), written as ``outputs`` (scores: a stack of its own, which rule
    score_table writes each measure's table from; means; measures); the stack."""
    load_plugins(plugins)
    owner = get_task(task)
    data = owner.read_canonical(name, spec, {key: canonical[key] for key in owner.canonical_files()})
    stack = owner.score(data, measures).stack
    write_scored(stack, {key: outputs[key] for key in ("scores", "means", "measures")})
    return stack
