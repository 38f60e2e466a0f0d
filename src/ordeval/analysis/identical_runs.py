"""Runs whose scores are identical under every measure (the -C/-E copies of the NTCIR baselines): they stay
separate runs, as in the official evaluations; these functions find them and give the collapsed view of a table
of run pairs, each set of identical runs under one name (``BL-popularity-{C,E}``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from os.path import commonprefix

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.table import Table
from ordeval.tasks.stack import ScoreStack

#: Two runs whose scores differ by at most this (relative) on every topic and measure are identical.
IDENTICAL_TOLERANCE = 1e-12


def identical_run_sets(stack: ScoreStack, tolerance: float = IDENTICAL_TOLERANCE) -> list[list[str]]:
    """Runs whose score matrices agree (within ``tolerance``, relative) on every topic and measure,
    as sets of identical runs in run order; a run identical to no other forms a set of one."""
    columns = stack.values.transpose(2, 0, 1).reshape(len(stack.runs), -1)
    scale = np.maximum(1.0, np.abs(columns).max()) if columns.size else 1.0
    sets: list[list[int]] = []
    for run, column in enumerate(columns):
        for members in sets:
            if np.all(np.abs(columns[members[0]] - column) <= tolerance * scale):
                members.append(run)
                break
        else:
            sets.append([run])
    return [[stack.runs[run] for run in members] for members in sets]


def brace_name(members: Sequence[str]) -> str:
    """One name for a set of identical runs: common prefix, the differing parts in braces, common suffix
    (``BL-popularity-C``, ``BL-popularity-E`` -> ``BL-popularity-{C,E}``); a single run keeps its name."""
    if len(members) == 1:
        return members[0]
    prefix = commonprefix(list(members))
    rests = [member[len(prefix) :] for member in members]
    suffix = commonprefix([rest[::-1] for rest in rests])[::-1]
    middles = [rest[: len(rest) - len(suffix)] for rest in rests]
    return f"{prefix}{{{','.join(middles)}}}{suffix}"


def identical_set_table(runs: Sequence[str], sets: Sequence[Sequence[str]]) -> Table:
    """``run, identical_set``: every run (in ``runs`` order) with the brace name of its set of identical
    runs."""
    name_of = {run: brace_name(members) for members in sets for run in members}
    return Table({"run": list(runs), "identical_set": [name_of[run] for run in runs]})


def read_identical_sets(path) -> dict[str, str]:
    """``{run: brace name of its set}`` from a table written from :func:`identical_set_table`."""
    table = Table.read(path)
    if table.columns != ["run", "identical_set"]:
        raise InputError(path, "line 1", "expected columns run, identical_set")
    return dict(zip(table["run"], table["identical_set"], strict=True))


def collapse_identical_runs(contradictions: Table, identical_set_of: Mapping[str, Mapping[str, str]]) -> Table:
    """The contradiction table with identical runs collapsed into the brace name of their set: ``dataset,
    measure_a, measure_b, run_x, run_y, run_pairs`` (run_pairs = individual pairs in the row)."""
    counts: dict[tuple, int] = {}
    for dataset, a, b, x, y in contradictions.rows():
        key = (dataset, a, b, identical_set_of[dataset][x], identical_set_of[dataset][y])
        counts[key] = counts.get(key, 0) + 1
    columns = [*contradictions.columns, "run_pairs"]
    rows = [(*key, count) for key, count in counts.items()]
    return Table({name: [row[k] for row in rows] for k, name in enumerate(columns)})
