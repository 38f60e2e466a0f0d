"""Readers for the native data formats of SPEC section 2 and the project's canonical tables.

Every reader returns validated distributions over the data set's classes (renormalised to sum
to 1) and raises :class:`~ordeval.errors.InputError` naming the file, the line or JSON record,
and the problem for anything listed under "Input validation" in the SPEC.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...errors import InputError

#: A probability may stray this far outside [0, 1] (rounding in official files) before it is an error.
PROBABILITY_TOLERANCE = 1e-4
#: A distribution may sum to 1 +- this before it is an error; within it, it is renormalised.
SUM_TOLERANCE = 0.01

GOLD_COLUMNS = ("topic", "class", "prob")
RUN_COLUMNS = ("topic", "run", "class", "prob")


@dataclass
class TopicDistributions:
    """Distributions read from one file: ``values[i]`` is the distribution of ``topics[i]``."""

    path: str
    topics: list[str]
    values: np.ndarray  # topics x classes
    locations: list[str]  # where each topic was read ("line 3", "record 7"), for later errors


def class_labels(classes: Sequence) -> list[str]:
    """Class labels as the strings that appear in files (``-2`` ... ``2``)."""
    return [str(label) for label in classes]


def checked_distribution(values: Sequence[float], path: str | Path, where: str) -> np.ndarray:
    """Validate one distribution (range, NaN, sum) and renormalise it to sum to 1."""
    array = np.asarray(values, dtype=float)
    if np.isnan(array).any():
        raise InputError(path, where, "probability is NaN")
    outside = (array < -PROBABILITY_TOLERANCE) | (array > 1 + PROBABILITY_TOLERANCE)
    if outside.any():
        raise InputError(path, where, f"probability {float(array[outside][0])!r} is outside [0, 1]")
    array = np.clip(array, 0.0, None)
    total = array.sum()
    if abs(total - 1) > SUM_TOLERANCE:
        raise InputError(path, where, f"probabilities sum to {total:.6g}, not 1 (tolerance {SUM_TOLERANCE})")
    return array / total


def _text_lines(path: str | Path) -> Iterator[tuple[int, list[str]]]:
    """(line number, tab-separated fields) of every non-blank line; an empty file is an error."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(path, None, "file not found") from None
    except UnicodeDecodeError as error:
        raise InputError(path, f"byte {error.start}", "file is not UTF-8 text") from None
    if not text.strip():
        raise InputError(path, None, "file is empty")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, line.rstrip("\r\n").split("\t")


def _expect_columns(fields: list[str], count: int, path, where: str, layout: str) -> None:
    if len(fields) != count:
        raise InputError(path, where, f"expected {count} tab-separated columns ({layout}), found {len(fields)}")


def _parse_probability(text: str, path, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise InputError(path, where, f"probability {text!r} is not a number") from None


def _check_label(label: str, labels: list[str], path, where: str) -> int:
    try:
        return labels.index(label.strip())
    except ValueError:
        raise InputError(path, where, f"unknown class label {label!r}; classes are {', '.join(labels)}") from None


class _TopicCollector:
    """Collects per-topic distributions in file order, rejecting duplicate topics."""

    def __init__(self, path):
        self.path = str(path)
        self.topics: list[str] = []
        self.values: list[np.ndarray] = []
        self.locations: list[str] = []
        self._seen: dict[str, str] = {}

    def add(self, topic: str, values, where: str) -> None:
        if topic in self._seen:
            raise InputError(self.path, where, f"duplicate topic {topic!r} (first at {self._seen[topic]})")
        self._seen[topic] = where
        self.topics.append(topic)
        self.values.append(checked_distribution(values, self.path, where))
        self.locations.append(where)

    def result(self, num_classes: int) -> TopicDistributions:
        if not self.topics:
            raise InputError(self.path, None, "file holds no topics")
        return TopicDistributions(
            self.path, self.topics, np.vstack(self.values).reshape(-1, num_classes), self.locations
        )


# --------------------------------------------------------------------------- SemEval formats


def read_semeval_dist(path: str | Path, classes: Sequence) -> TopicDistributions:
    """``topic<TAB>p(c_1)<TAB>...<TAB>p(c_K)``, one line per topic (gold or run)."""
    labels = class_labels(classes)
    collector = _TopicCollector(path)
    layout = "topic then one probability per class " + " ".join(labels)
    for number, fields in _text_lines(path):
        where = f"line {number}"
        _expect_columns(fields, len(labels) + 1, path, where, layout)
        probabilities = [_parse_probability(field, path, where) for field in fields[1:]]
        collector.add(fields[0].strip(), probabilities, where)
    return collector.result(len(labels))


def read_semeval_labels(path: str | Path, classes: Sequence) -> TopicDistributions:
    """``tweet_id<TAB>topic<TAB>label``, one line per tweet; a topic's distribution is its label counts
    divided by its tweet count."""
    labels = class_labels(classes)
    counts: dict[str, np.ndarray] = {}
    first_line: dict[str, str] = {}
    for number, fields in _text_lines(path):
        where = f"line {number}"
        _expect_columns(fields, 3, path, where, "tweet_id, topic, label")
        topic = fields[1].strip()
        index = _check_label(fields[2], labels, path, where)
        if topic not in counts:
            counts[topic] = np.zeros(len(labels))
            first_line[topic] = where
        counts[topic][index] += 1
    collector = _TopicCollector(path)
    for topic, topic_counts in counts.items():
        collector.add(topic, topic_counts / topic_counts.sum(), first_line[topic])
    return collector.result(len(labels))


# --------------------------------------------------------------------------- NTCIR formats


def _json_records(path: str | Path) -> list:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(path, None, "file not found") from None
    if not text.strip():
        raise InputError(path, None, "file is empty")
    try:
        records = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(path, f"line {error.lineno} column {error.colno}", f"invalid JSON: {error.msg}") from None
    if not isinstance(records, list):
        raise InputError(path, None, "expected a JSON list of records")
    if not records:
        raise InputError(path, None, "file holds no records")
    return records


def _record_id(record, path, number: int) -> str:
    where = f"record {number}"
    if not isinstance(record, dict) or "id" not in record:
        raise InputError(path, where, "record is not an object with an 'id'")
    return str(record["id"])


def read_ntcir_annotations(path: str | Path, classes: Sequence, score: str) -> TopicDistributions:
    """STC-3 / DialEval-1 annotations: gold for score ``score`` (A, E or S) is the share of
    annotators giving each rating."""
    labels = class_labels(classes)
    collector = _TopicCollector(path)
    for number, record in enumerate(_json_records(path), start=1):
        topic = _record_id(record, path, number)
        where = f"record {number} (id {topic})"
        annotations = record.get("annotations")
        if not isinstance(annotations, list) or not annotations:
            raise InputError(path, where, "no 'annotations' list")
        counts = np.zeros(len(labels))
        for annotator, annotation in enumerate(annotations, start=1):
            try:
                rating = annotation["quality"][score]
            except (KeyError, TypeError):
                raise InputError(path, f"{where}, annotation {annotator}", f"no quality score {score!r}") from None
            counts[_check_label(str(rating), labels, path, f"{where}, annotation {annotator}")] += 1
        collector.add(topic, counts / counts.sum(), where)
    return collector.result(len(labels))


def read_ntcir_submission(path: str | Path, classes: Sequence, score: str) -> TopicDistributions:
    """STC-3 / DialEval-1 run: ``{"id": ..., "quality": {score: {label: p}}}`` per dialogue;
    a missing class key means probability 0."""
    labels = class_labels(classes)
    collector = _TopicCollector(path)
    for number, record in enumerate(_json_records(path), start=1):
        topic = _record_id(record, path, number)
        where = f"record {number} (id {topic})"
        try:
            distribution = record["quality"][score]
        except (KeyError, TypeError):
            raise InputError(path, where, f"no quality distribution for score {score!r}") from None
        if not isinstance(distribution, dict):
            raise InputError(path, where, f"quality {score!r} is not an object of class probabilities")
        probabilities = np.zeros(len(labels))
        for label, value in distribution.items():
            index = _check_label(str(label), labels, path, where)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise InputError(path, where, f"probability {value!r} of class {label} is not a number")
            probabilities[index] = value
        collector.add(topic, probabilities, where)
    return collector.result(len(labels))


# --------------------------------------------------------------------------- canonical long tables


def _read_long_table(path: str | Path, classes: Sequence, columns: tuple[str, ...]) -> dict[str, TopicDistributions]:
    """Long table with a header; returns one TopicDistributions per run ('' for gold tables)."""
    labels = class_labels(classes)
    lines = _text_lines(path)
    number, header = next(lines)
    if tuple(field.strip() for field in header) != columns:
        raise InputError(
            path, f"line {number}", f"header must be {chr(9).join(columns)!s} (tab-separated), found {header!r}"
        )
    has_run = "run" in columns
    # run -> topic -> (first line, probabilities)
    tables: dict[str, dict[str, tuple[str, np.ndarray]]] = {}
    seen_cells: dict[tuple[str, str, int], int] = {}
    for number, fields in lines:
        where = f"line {number}"
        _expect_columns(fields, len(columns), path, where, ", ".join(columns))
        topic = fields[0].strip()
        run = fields[1].strip() if has_run else ""
        index = _check_label(fields[-2], labels, path, where)
        probability = _parse_probability(fields[-1], path, where)
        cell = (run, topic, index)
        if cell in seen_cells:
            what = f"run {run!r}, " if has_run else ""
            raise InputError(
                path,
                where,
                f"duplicate topic {topic!r}: {what}class {labels[index]} already given at line {seen_cells[cell]}",
            )
        seen_cells[cell] = number
        topics = tables.setdefault(run, {})
        if topic not in topics:
            topics[topic] = (where, np.zeros(len(labels)))
        topics[topic][1][index] = probability
    result = {}
    for run, topics in tables.items():
        collector = _TopicCollector(path)
        for topic, (where, probabilities) in topics.items():
            collector.add(topic, probabilities, f"{where} (topic {topic!r}{f', run {run!r}' if run else ''})")
        result[run] = collector.result(len(labels))
    if not result:
        raise InputError(path, None, "file holds a header but no rows")
    return result


def read_canonical_gold(path: str | Path, classes: Sequence) -> TopicDistributions:
    """The canonical gold table: columns ``topic, class, prob``; a class a topic omits has probability 0."""
    return _read_long_table(path, classes, GOLD_COLUMNS)[""]


def read_canonical_runs(path: str | Path, classes: Sequence) -> dict[str, TopicDistributions]:
    """The canonical run table: columns ``topic, run, class, prob``; one entry per run, in file order."""
    return _read_long_table(path, classes, RUN_COLUMNS)


def align_to_gold(run: TopicDistributions, gold_topics: Sequence[str], run_name: str) -> np.ndarray:
    """The run's distributions in gold topic order; a missing or extra topic is an error."""
    position = {topic: i for i, topic in enumerate(run.topics)}
    missing = [topic for topic in gold_topics if topic not in position]
    if missing:
        shown = ", ".join(repr(topic) for topic in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise InputError(run.path, None, f"run {run_name!r} misses {len(missing)} topic(s) of the gold: {shown}{more}")
    gold_set = set(gold_topics)
    for topic, where in zip(run.topics, run.locations, strict=False):
        if topic not in gold_set:
            raise InputError(run.path, where, f"run {run_name!r} has topic {topic!r}, which the gold lacks")
    return run.values[[position[topic] for topic in gold_topics]]


def read_canonical_selection(
    gold_path: str | Path, runs_path: str | Path, classes: Sequence, topics: Sequence[str], runs: Sequence[str]
) -> tuple[dict[str, np.ndarray], dict[tuple[str, str], np.ndarray]]:
    """The gold distributions of ``topics`` and the distributions of ``runs`` on them, from canonical
    tables written by the pipeline, without parsing the rest of the files (a regular-expression scan:
    fast on runs tables of millions of lines). Returns ``({topic: p*}, {(run, topic): p})``."""
    import re

    labels = class_labels(classes)
    index = {label: i for i, label in enumerate(labels)}
    topic_pattern = "|".join(re.escape(topic) for topic in topics)
    run_pattern = "|".join(re.escape(run) for run in runs)
    gold = {topic: np.zeros(len(labels)) for topic in topics}
    text = Path(gold_path).read_text(encoding="utf-8")
    for topic, label, probability in re.findall(rf"^({topic_pattern})\t([^\t\n]*)\t([^\t\n]*)$", text, re.M):
        gold[topic][index[label]] = float(probability)
    chosen = {(run, topic): np.zeros(len(labels)) for run in runs for topic in topics}
    text = Path(runs_path).read_text(encoding="utf-8")
    pattern = rf"^({topic_pattern})\t({run_pattern})\t([^\t\n]*)\t([^\t\n]*)$"
    for topic, run, label, probability in re.findall(pattern, text, re.M):
        chosen[(run, topic)][index[label]] = float(probability)
    return gold, chosen
