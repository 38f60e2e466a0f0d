"""Readers of the native data formats of quantification (docs/methods.md, section 1), and what every reader of the
task returns and checks.

Every reader returns validated distributions over the data set's classes (a :class:`TopicDistributions`,
renormalised to sum to 1: :func:`checked_distributions`) and raises :class:`~ordeval.io.errors.InputError` naming
the file, the physical line or JSON record, and the problem for anything listed under "Validation" in
docs/methods.md. Text files are split by :mod:`ordeval.io.parsing` (UTF-8 checked, physical lines, strict numbers,
vectorised). :func:`align_to_gold` pairs a run with its gold, topic by topic. The project's canonical long tables
(the ``tsv`` format) are read by :mod:`ordeval.tasks.quantification.canonical_tables` with the same checks.

Duplicates are errors naming both places: a topic given twice (``semeval_dist``, the NTCIR JSON
files), a tweet given twice in one topic (``semeval_labels``), a JSON object repeating a key.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.fields import Fields, read_fields
from ordeval.io.names import distinct, normalisation_hint, normalisation_hints
from ordeval.io.parsing import load_json, quoted

#: A probability may stray this far outside [0, 1] (rounding in official files) before it is an error.
PROBABILITY_TOLERANCE = 1e-4
#: A distribution may sum to 1 +- this before it is an error ("off by more than 0.01", docs/methods.md,
#: section 1); within it, it is renormalised.
SUM_TOLERANCE = 0.01
#: What adding up printed decimals in binary floating point may add to a bound (0.5 + 0.49 is 0.99 but
#: 1 - (0.5 + 0.49) is 0.010000000000000009): a sum off by exactly the tolerance is within it.
ROUNDING = 1e-12

SEMEVAL_LABEL_FIELDS = ("tweet id", "topic", "label")

#: Characters a topic read from JSON may not hold (they cannot be written to a canonical table).
_UNWRITABLE = re.compile("[\t\n\r\x00]")


class Locations(Sequence):
    """Where each topic of a :class:`TopicDistributions` was read ("line 3 (topic 'a', run 'R')"),
    made into text only when asked (a large runs table has hundreds of thousands of topics)."""

    def __init__(self, numbers: np.ndarray, topics: Sequence[str], run: str = "", detail: bool = True):
        self._numbers = numbers
        self._topics = topics
        self._run = run
        self._detail = detail

    def __len__(self) -> int:
        return len(self._numbers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        where = f"line {int(self._numbers[index])}"
        if not self._detail:
            return where
        run = f", run {self._run!r}" if self._run else ""
        return f"{where} (topic {distinct(self._topics[index])}{run})"

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"Locations({len(self)} topics)"


@dataclass
class TopicDistributions:
    """Distributions read from one file: ``values[i]`` is the distribution of ``topics[i]``."""

    path: str
    topics: list[str]
    values: np.ndarray  # topics x classes
    locations: Sequence[str]  # where each topic was read ("line 3", "record 7"), for later errors
    #: each distribution's sum as read, before renormalisation (None: sums of 1 by construction)
    sums: np.ndarray | None = None

    def sum_deviation(self) -> tuple[float, str, float] | None:
        """(largest |sum - 1| of a distribution as read, where, the tolerance within which the sums are
        renormalised: SUM_TOLERANCE), or None where every sum is 1 by construction; ``ordeval validate`` reports it."""
        if self.sums is None or not len(self.sums):
            return None
        row = int(np.argmax(np.abs(self.sums - 1)))
        return float(abs(self.sums[row] - 1)), self.locations[row], SUM_TOLERANCE


def class_labels(classes: Sequence) -> list[str]:
    """Class labels as the strings that appear in files (``-2`` ... ``2``)."""
    return [str(label) for label in classes]


# --------------------------------------------------------------------------- checks


def first_row(mask: np.ndarray, order: np.ndarray | None = None) -> int | None:
    """The first row where ``mask`` holds (``order``: the rows' positions in the file), or None."""
    rows = np.flatnonzero(mask)
    if not rows.size:
        return None
    if order is None:
        return int(rows[0])
    return int(rows[np.argmin(order[rows])])


def checked_distributions(
    values: np.ndarray, path: str | Path, where: Callable[[int], str], order: np.ndarray | None = None
) -> np.ndarray:
    """Validate distributions (rows of ``values``: range, NaN, sum) and renormalise each to sum to 1.
    ``where(row)`` names a row's place; the first bad row in file order (``order``) is reported."""
    array = np.asarray(values, dtype=float)
    if not array.size:
        return array
    row = first_row(np.isnan(array).any(axis=1), order)
    if row is not None:
        raise InputError(path, where(row), "probability is NaN")
    outside = (array < -PROBABILITY_TOLERANCE - ROUNDING) | (array > 1 + PROBABILITY_TOLERANCE + ROUNDING)
    row = first_row(outside.any(axis=1), order)
    if row is not None:
        raise InputError(path, where(row), f"probability {float(array[row][outside[row]][0])!r} is outside [0, 1]")
    array = np.clip(array, 0.0, None)
    totals = array.sum(axis=1)
    row = first_row(np.abs(totals - 1) > SUM_TOLERANCE + ROUNDING, order)
    if row is not None:
        raise InputError(path, where(row), f"probabilities sum to {totals[row]:.6g}, not 1 (tolerance {SUM_TOLERANCE})")
    return array / totals[:, None]


def label_codes(fields: Fields, column: int, labels: list[str]) -> np.ndarray:
    """Class index of every record's label; the first unknown label is an error."""
    codes = fields.lookup(column, labels)
    record = first_row(codes < 0)
    if record is not None:
        text = fields.field(record, column)
        raise fields.error(record, f"unknown class label {quoted(text)}; classes are {', '.join(labels)}")
    return codes


def _line(fields: Fields, record: int) -> str:
    return fields.where(record)


class FirstError:
    """Run several column checks and raise the error of the earliest line (a file's first bad line
    is the one reported, whichever check finds it)."""

    def __init__(self):
        self.errors: list[InputError] = []

    def __call__(self, check: Callable[[], object]):
        try:
            return check()
        except InputError as error:
            self.errors.append(error)
            return None

    def raise_first(self) -> None:
        if self.errors:

            def line(error: InputError) -> float:
                match = re.match(r"line (\d+)", error.where or "")
                return int(match[1]) if match else float("inf")

            raise min(self.errors, key=line)


# --------------------------------------------------------------------------- SemEval formats


def read_semeval_dist(path: str | Path, classes: Sequence) -> TopicDistributions:
    """``topic<TAB>p(c_1)<TAB>...<TAB>p(c_K)``, one line per topic (gold or run)."""
    labels = class_labels(classes)
    layout = "topic then one probability per class " + " ".join(labels)
    names = ("topic", *(f"probability of class {label}" for label in labels))
    fields = read_fields(path, names, layout=layout, trailing_tabs=True)
    first = FirstError()
    first(lambda: fields.require_nonempty(0))
    columns = [first(lambda k=k: fields.floats(k, "probability")) for k in range(1, len(labels) + 1)]
    first.raise_first()
    topics = fields.column(0)
    _reject_duplicate_topics(fields, topics)
    raw = np.column_stack(columns)
    values = checked_distributions(raw, fields.path, lambda row: _line(fields, row))
    locations = Locations(fields.numbers, topics, detail=False)
    return TopicDistributions(str(fields.path), topics, values, locations, np.clip(raw, 0.0, None).sum(axis=1))


def _reject_duplicate_topics(fields: Fields, topics: list[str]) -> None:
    if len(set(topics)) == len(topics):
        return
    seen: dict[str, int] = {}
    for record, topic in enumerate(topics):
        if topic in seen:
            raise fields.error(record, f"duplicate topic {distinct(topic)} (first at {_line(fields, seen[topic])})")
        seen[topic] = record


def read_semeval_labels(path: str | Path, classes: Sequence) -> TopicDistributions:
    """``tweet_id<TAB>topic<TAB>label``, one line per tweet; a topic's distribution is its label counts
    divided by its tweet count. A tweet id may appear under two topics (the real files do), not twice
    in one topic."""
    labels = class_labels(classes)
    fields = read_fields(path, SEMEVAL_LABEL_FIELDS, layout="tweet id, topic, label", trailing_tabs=True)
    first = FirstError()
    first(lambda: fields.require_nonempty(0))
    first(lambda: fields.require_nonempty(1))
    codes = first(lambda: label_codes(fields, 2, labels))
    first.raise_first()
    keys = fields.joined(0, 1).tobytes().decode("utf-8").split("\n")[:-1]
    if len(set(keys)) < len(keys):
        seen: dict[str, int] = {}
        for record, key in enumerate(keys):
            if key in seen:
                tweet, topic = key.split("\t", 1)
                raise fields.error(
                    record,
                    f"duplicate tweet {quoted(tweet)} in topic {quoted(topic)} (first at {_line(fields, seen[key])})",
                )
            seen[key] = record
    topics, topic_codes = fields.categories(1)
    counts = np.bincount(topic_codes * len(labels) + codes, minlength=len(topics) * len(labels))
    counts = counts.reshape(len(topics), len(labels)).astype(float)
    first_record = np.full(len(topics), len(fields), dtype=np.int64)
    np.minimum.at(first_record, topic_codes, np.arange(len(fields)))
    values = counts / counts.sum(axis=1, keepdims=True)
    locations = Locations(fields.numbers[first_record], topics, detail=False)
    return TopicDistributions(str(fields.path), topics, values, locations)


# --------------------------------------------------------------------------- NTCIR formats


def _json_records(path: str | Path) -> list:
    records = load_json(path)
    if not isinstance(records, list):
        raise InputError(path, None, "expected a JSON list of records")
    if not records:
        raise InputError(path, None, "file holds no records")
    return records


def _record_id(record, path, number: int) -> str:
    where = f"record {number}"
    if not isinstance(record, dict) or "id" not in record:
        raise InputError(path, where, "record is not an object with an 'id'")
    value = record["id"]
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(path, where, f"id {value!r} is not a string or an integer")
    text = str(value)
    if not text.strip():
        raise InputError(path, where, "id is empty")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(path, where, f"id {text!r} holds a lone surrogate (not text)") from None
    if _UNWRITABLE.search(text):
        raise InputError(path, where, f"id {text!r} holds a tab, line break or NUL")
    return text


def _label_index(label, labels: list[str], path, where: str) -> int:
    if isinstance(label, bool) or not isinstance(label, (str, int)):
        raise InputError(path, where, f"class label {label!r} is not a string or an integer")
    try:
        return labels.index(str(label))
    except ValueError:
        problem = f"unknown class label {quoted(str(label))}; classes are {', '.join(labels)}"
        raise InputError(path, where, problem) from None


class _RecordTopics:
    """Topics of a JSON file in record order; a repeated id is an error naming both records."""

    def __init__(self, path):
        self.path = str(path)
        self.topics: list[str] = []
        self.rows: list[np.ndarray] = []
        self.locations: list[str] = []
        self._seen: dict[str, str] = {}

    def add(self, topic: str, values: np.ndarray, where: str) -> None:
        if topic in self._seen:
            raise InputError(self.path, where, f"duplicate topic {distinct(topic)} (first at {self._seen[topic]})")
        self._seen[topic] = where
        self.topics.append(topic)
        self.rows.append(values)
        self.locations.append(where)

    def result(self, num_classes: int) -> TopicDistributions:
        values = np.vstack(self.rows).reshape(-1, num_classes)
        checked = checked_distributions(values, self.path, self.locations.__getitem__)
        sums = np.clip(values, 0.0, None).sum(axis=1)
        return TopicDistributions(self.path, self.topics, checked, self.locations, sums)


def read_ntcir_annotations(path: str | Path, classes: Sequence, score: str) -> TopicDistributions:
    """STC-3 / DialEval-1 annotations: gold for score ``score`` (A, E or S) is the share of
    annotators giving each rating."""
    labels = class_labels(classes)
    collected = _RecordTopics(path)
    for number, record in enumerate(_json_records(path), start=1):
        topic = _record_id(record, path, number)
        where = f"record {number} (id {topic})"
        annotations = record.get("annotations")
        if not isinstance(annotations, list) or not annotations:
            raise InputError(path, where, "no 'annotations' list")
        counts = np.zeros(len(labels))
        for annotator, annotation in enumerate(annotations, start=1):
            place = f"{where}, annotation {annotator}"
            try:
                rating = annotation["quality"][score]
            except (KeyError, TypeError, IndexError):
                raise InputError(path, place, f"no quality score {score!r}") from None
            counts[_label_index(rating, labels, path, place)] += 1
        collected.add(topic, counts / counts.sum(), where)
    return collected.result(len(labels))


def _probability(value, label, path, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(path, where, f"probability {value!r} of class {label} is not a number")
    try:
        number = float(value)
    except OverflowError:
        number = float("inf")
    if not np.isfinite(number):
        raise InputError(path, where, f"probability of class {label} is out of range")
    return number


def read_ntcir_submission(path: str | Path, classes: Sequence, score: str) -> TopicDistributions:
    """STC-3 / DialEval-1 run: ``{"id": ..., "quality": {score: {label: p}}}`` per dialogue;
    a missing class key means probability 0."""
    labels = class_labels(classes)
    collected = _RecordTopics(path)
    for number, record in enumerate(_json_records(path), start=1):
        topic = _record_id(record, path, number)
        where = f"record {number} (id {topic})"
        try:
            distribution = record["quality"][score]
        except (KeyError, TypeError, IndexError):
            raise InputError(path, where, f"no quality distribution for score {score!r}") from None
        if not isinstance(distribution, dict):
            raise InputError(path, where, f"quality {score!r} is not an object of class probabilities")
        probabilities = np.zeros(len(labels))
        for label, value in distribution.items():
            probabilities[_label_index(label, labels, path, where)] = _probability(value, label, path, where)
        collected.add(topic, probabilities, where)
    return collected.result(len(labels))


# --------------------------------------------------------------------------- pairing a run with the gold


def align_to_gold(run: TopicDistributions, gold_topics: Sequence[str], run_name: str) -> np.ndarray:
    """The run's distributions in gold topic order; a missing or extra topic is an error."""
    if len(run.topics) == len(gold_topics) and run.topics == list(gold_topics):
        return run.values
    position = dict(zip(run.topics, range(len(run.topics)), strict=True))
    rows = np.fromiter(map(position.get, gold_topics, [-1] * len(gold_topics)), dtype=np.int64, count=len(gold_topics))
    if (rows < 0).any():
        missing = [topic for topic, row in zip(gold_topics, rows.tolist(), strict=True) if row < 0]
        shown = ", ".join(distinct(topic) for topic in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        hint = normalisation_hints(missing, set(run.topics) - set(gold_topics))
        raise InputError(
            run.path, None, f"run {run_name!r} misses {len(missing)} topic(s) of the gold: {shown}{more}{hint}"
        )
    if len(run.topics) > len(gold_topics):
        gold_set = set(gold_topics)
        for index, topic in enumerate(run.topics):
            if topic not in gold_set:
                raise InputError(
                    run.path,
                    run.locations[index],
                    f"run {run_name!r} has topic {distinct(topic)}, which the gold lacks"
                    + normalisation_hint(topic, gold_topics, "in the gold"),
                )
    return run.values[rows]
