"""The canonical long tables of quantification: ``gold.tsv`` (``topic, class, prob``) and ``runs.tsv`` (``topic,
run, class, prob``), what the pipeline writes and the ``tsv`` format reads.

A table is read with array operations (no Python work per line: a runs table of millions of lines reads in about a
second), with the checks of :mod:`ordeval.tasks.quantification.readers` (each distribution's range and sum, errors
naming file and physical line); a (topic, class) or (topic, run, class) cell given twice is an error naming both
lines, and run names follow the name policy (:mod:`ordeval.io.names`). Also: a table's run names before the data set
is built (:func:`tsv_run_names`), and a few topics and runs picked from the tables by a regular-expression scan
(:func:`read_canonical_selection`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.fields import Fields, iter_fields, read_fields
from ordeval.io.names import distinct, name_problem
from ordeval.io.parsing import read_text
from ordeval.tasks.quantification.readers import (
    PROBABILITY_TOLERANCE,
    ROUNDING,
    SUM_TOLERANCE,
    FirstError,
    Locations,
    TopicDistributions,
    class_labels,
    first_row,
    label_codes,
)

GOLD_COLUMNS = ("topic", "class", "prob")
RUN_COLUMNS = ("topic", "run", "class", "prob")


def _duplicate_keys(keys: np.ndarray) -> tuple[int, int] | None:
    """(record, earlier record) of the first record whose key (integers) repeats an earlier one."""
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    earlier = first[inverse.ravel()]
    repeated = np.flatnonzero(earlier != np.arange(keys.size))
    if not repeated.size:
        return None
    record = int(repeated[0])
    return record, int(earlier[record])


def _check_run_names(fields: Fields, names: list[str], codes: np.ndarray) -> None:
    """Run names read from a file follow the name policy; the error names the line of first use."""
    for code, name in enumerate(names):
        problem = name_problem(name, kind="run")
        if problem:
            record = int(np.argmax(codes == code))
            raise fields.error(record, f"{problem} (run names from files follow the configuration's name policy)")


def _read_long_table(
    path: str | Path, classes: Sequence, columns: tuple[str, ...], wanted: Sequence[str] | None = None
) -> dict[str, TopicDistributions]:
    """A long table with a header; one TopicDistributions per run ('' for gold tables), each with its
    topics in order of first appearance. Vectorised: no Python work per line."""
    labels = class_labels(classes)
    num_classes = len(labels)
    has_run = "run" in columns
    fields = read_fields(path, columns, header=True)
    first = FirstError()
    first(lambda: fields.require_nonempty(0))
    if has_run:
        first(lambda: fields.require_nonempty(1))
    class_codes = first(lambda: label_codes(fields, len(columns) - 2, labels))
    probabilities = first(lambda: fields.floats(len(columns) - 1, "probability"))
    first.raise_first()
    outside = (probabilities < -PROBABILITY_TOLERANCE - ROUNDING) | (
        probabilities > 1 + PROBABILITY_TOLERANCE + ROUNDING
    )
    record = first_row(outside)
    if record is not None:
        raise fields.error(record, f"probability {float(probabilities[record])!r} is outside [0, 1]")

    topic_names, topic_codes = fields.categories(0)
    if has_run:
        run_names, run_codes = fields.categories(1)
        _check_run_names(fields, run_names, run_codes)
    else:
        run_names, run_codes = [""], np.zeros(len(fields), dtype=np.int64)
    num_topics, num_runs, count = len(topic_names), len(run_names), len(fields)
    cells = run_codes * num_topics + topic_codes  # (run, topic)
    keys = cells * num_classes + class_codes  # (run, topic, class)
    if np.bincount(keys, minlength=num_runs * num_topics * num_classes).max() > 1:
        record, earlier = _duplicate_keys(keys)
        topic = topic_names[topic_codes[record]]
        what = f"run {run_names[run_codes[record]]!r}, " if has_run else ""
        raise fields.error(
            record,
            f"duplicate topic {distinct(topic)}: {what}class {labels[class_codes[record]]} already given at "
            f"{fields.where(earlier)}",
        )
    values = np.zeros(num_runs * num_topics * num_classes)
    values[keys] = probabilities
    values = values.reshape(num_runs * num_topics, num_classes)
    first_record = np.full(num_runs * num_topics, count, dtype=np.int64)
    np.minimum.at(first_record, cells, np.arange(count, dtype=np.int64))
    present = first_record < count
    values = np.clip(values, 0.0, None)
    totals = values.sum(axis=1)
    bad = present & (np.abs(totals - 1) > SUM_TOLERANCE + ROUNDING)
    if bad.any():
        cell = first_row(bad, first_record)
        record = int(first_record[cell])
        topic, run = topic_names[topic_codes[record]], run_names[run_codes[record]]
        place = f"{fields.where(record)} (topic {distinct(topic)}{f', run {run!r}' if run else ''})"
        problem = f"probabilities sum to {totals[cell]:.6g}, not 1 (tolerance {SUM_TOLERANCE})"
        raise InputError(fields.path, place, problem)
    values[present] /= totals[present, None]

    if wanted:
        unknown = [run for run in wanted if run not in run_names]
        if unknown:
            raise InputError(path, None, f"has no run(s) {', '.join(unknown)}; it holds {', '.join(run_names)}")
        chosen = [run_names.index(run) for run in wanted]
    else:
        chosen = range(num_runs)
    result = {}
    topic_array = np.array(topic_names, dtype=object)
    for code in chosen:
        block = slice(code * num_topics, (code + 1) * num_topics)
        mine = np.flatnonzero(present[block])
        mine = mine[np.argsort(first_record[block][mine], kind="stable")]
        topics = topic_array[mine].tolist()
        run = run_names[code]
        locations = Locations(fields.numbers[first_record[block][mine]], topics, run)
        sums = totals[block][mine]
        result[run] = TopicDistributions(str(fields.path), topics, values[block][mine], locations, sums)
    return result


def read_canonical_gold(path: str | Path, classes: Sequence) -> TopicDistributions:
    """The canonical gold table: columns ``topic, class, prob``; a class a topic omits has probability 0."""
    return _read_long_table(path, classes, GOLD_COLUMNS)[""]


def read_canonical_runs(
    path: str | Path, classes: Sequence, wanted: Sequence[str] | None = None
) -> dict[str, TopicDistributions]:
    """The canonical run table: columns ``topic, run, class, prob``; one entry per run, in file order
    (or in the order of ``wanted``, which must all be in the file)."""
    return _read_long_table(path, classes, RUN_COLUMNS, wanted)


def tsv_run_names(path: str | Path) -> list[str]:
    """The distinct values of the ``run`` column of a canonical runs table, in file order; none
    where the file cannot be read (building the data set then reports the problem)."""
    names: dict[str, None] = {}
    try:
        for piece in iter_fields(path, RUN_COLUMNS, header=True):
            names.update(dict.fromkeys(piece.categories(1)[0]))
    except (InputError, OSError):
        return []
    return list(names)


def read_canonical_selection(
    gold_path: str | Path, runs_path: str | Path, classes: Sequence, topics: Sequence[str], runs: Sequence[str]
) -> tuple[dict[str, np.ndarray], dict[tuple[str, str], np.ndarray]]:
    """The gold distributions of ``topics`` and the distributions of ``runs`` on them, from canonical
    tables written by the pipeline, without parsing the rest of the files (a regular-expression scan:
    fast on runs tables of millions of lines). Returns ``({topic: p*}, {(run, topic): p})``."""
    labels = class_labels(classes)
    index = {label: i for i, label in enumerate(labels)}
    topic_pattern = "|".join(re.escape(topic) for topic in topics)
    run_pattern = "|".join(re.escape(run) for run in runs)
    gold = {topic: np.zeros(len(labels)) for topic in topics}
    text = read_text(gold_path)
    for topic, label, probability in re.findall(rf"^({topic_pattern})\t([^\t\n]*)\t([^\t\n]*)$", text, re.M):
        gold[topic][index[label]] = float(probability)
    chosen = {(run, topic): np.zeros(len(labels)) for run in runs for topic in topics}
    text = read_text(runs_path)
    pattern = rf"^({topic_pattern})\t({run_pattern})\t([^\t\n]*)\t([^\t\n]*)$"
    for topic, run, label, probability in re.findall(pattern, text, re.M):
        chosen[(run, topic)][index[label]] = float(probability)
    return gold, chosen
