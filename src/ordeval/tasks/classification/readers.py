"""Readers for labelled items (docs/methods.md, section 3): SemEval ``id<TAB>topic<TAB>label`` files and the
project's canonical long tables, and the pairing of a run with the gold.

An item is a (topic, id) pair: the real SemEval gold files hold the same tweet id under two topics
(76 ids in 2016, 93 in 2017), as two items. Every error is an :class:`~ordeval.io.errors.InputError`
naming the file, the physical line and the problem (see :mod:`ordeval.io.parsing`).

Pairing a run with the gold (``align`` of a run source):

* ``id`` (default): each line of the run names an item of the gold by its topic and id; every gold
  item must appear exactly once, in any order;
* ``position``: the run's i-th record is the gold's i-th item (its ids are ignored, e.g. the PotTS
  run numbers its lines 1..N); the topics must agree record by record and the run must have exactly
  as many records as the gold has items.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import InputError
from ordeval.io.fields import Fields, iter_fields, read_fields
from ordeval.io.names import normalisation_hint
from ordeval.io.parsing import INTEGER, quoted

SEMEVAL_FIELDS = ("id", "topic", "label")
GOLD_COLUMNS = ("topic", "item", "label")
RUN_COLUMNS = ("topic", "item", "run", "label")
ALIGNMENTS = ("id", "position")


def class_labels(classes: Sequence) -> list[str]:
    """Class labels as the strings that appear in files (``-2`` ... ``2``)."""
    return [str(label) for label in classes]


@dataclass
class LabelTable:
    """Labelled items read from one file: the gold, or one run of it."""

    fields: Fields
    topic_field: int
    item_field: int
    labels: np.ndarray  # class index of each record
    run: str = ""  # the run's name in a canonical runs table

    @property
    def path(self) -> Path:
        return self.fields.path

    def __len__(self) -> int:
        return len(self.labels)

    def where(self, record: int) -> str:
        return self.fields.where(record)

    def error(self, record: int | None, problem: str) -> InputError:
        return self.fields.error(record, problem)

    def key_bytes(self) -> np.ndarray:
        """``topic<TAB>id\\n`` of every record, as bytes (for a fast comparison with the gold)."""
        if self.topic_field + 1 == self.item_field:
            return self.fields.joined(self.topic_field, self.item_field)
        if self.item_field + 1 == self.topic_field:  # id first: compare "id<TAB>topic" instead
            return self.fields.joined(self.item_field, self.topic_field)
        raise ValueError("topic and item fields must be adjacent")

    @property
    def item_first(self) -> bool:
        return self.item_field < self.topic_field


@dataclass
class Gold:
    """The gold items in file order, and their topics (in order of first appearance)."""

    path: Path
    items: list[str]
    item_topic: np.ndarray  # index into topics, per item
    labels: np.ndarray  # class index per item
    topics: list[str]
    lines: np.ndarray  # physical line of each item
    simulated: bool = False  # no file: messages name the item's position instead of a line
    _cache: dict = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.items)

    def item_topic_names(self) -> list[str]:
        if "names" not in self._cache:
            self._cache["names"] = np.array(self.topics, dtype=object)[self.item_topic].tolist()
        return self._cache["names"]

    def keys(self, item_first: bool) -> list[str]:
        """``topic<TAB>id`` (or ``id<TAB>topic``) of every item, in gold order."""
        key = ("keys", item_first)
        if key not in self._cache:
            names = self.item_topic_names()
            pairs = zip(self.items, names, strict=True) if item_first else zip(names, self.items, strict=True)
            self._cache[key] = list(map("\t".join, pairs))
        return self._cache[key]

    def key_bytes(self, item_first: bool) -> bytes:
        """:meth:`keys` as the bytes of lines (each key followed by ``\\n``)."""
        key = ("key_bytes", item_first)
        if key not in self._cache:
            self._cache[key] = ("\n".join(self.keys(item_first)) + "\n").encode("utf-8")
        return self._cache[key]

    def topic_bytes(self) -> bytes:
        if "topic_bytes" not in self._cache:
            self._cache["topic_bytes"] = ("\n".join(self.item_topic_names()) + "\n").encode("utf-8")
        return self._cache["topic_bytes"]

    def index(self, item_first: bool) -> dict[str, int]:
        """Key (see :meth:`keys`) -> position in the gold."""
        key = ("index", item_first)
        if key not in self._cache:
            keys = self.keys(item_first)
            self._cache[key] = dict(zip(keys, range(len(keys)), strict=True))
        return self._cache[key]

    def where(self, position: int) -> str:
        if self.simulated:
            return f"item {position + 1} of the simulated gold"
        return f"line {int(self.lines[position])} of {self.path}"


# --------------------------------------------------------------------------- reading


def _labels(fields: Fields, column: int, classes: Sequence[str]) -> np.ndarray:
    """Class index of every record's label; the first unknown label is an error."""
    codes = fields.lookup(column, classes)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        record = int(bad[0])
        text = fields.field(record, column)
        integer_classes = all(_is_integer(label) for label in classes)
        if integer_classes and not _is_integer(text):
            raise fields.error(record, f"label {quoted(text)} is not an integer; classes are {', '.join(classes)}")
        raise fields.error(record, f"unknown class label {quoted(text)}; classes are {', '.join(classes)}")
    return codes


def _is_integer(text: str) -> bool:
    return INTEGER.fullmatch(text) is not None


def read_semeval_labels(path: str | Path, classes: Sequence) -> LabelTable:
    """``id<TAB>topic<TAB>label``, one item per line (gold or run)."""
    fields = read_fields(path, SEMEVAL_FIELDS, layout="tweet id, topic, label", trailing_tabs=True)
    fields.require_nonempty(1)
    return LabelTable(fields, topic_field=1, item_field=0, labels=_labels(fields, 2, class_labels(classes)))


def read_canonical_gold(path: str | Path, classes: Sequence) -> LabelTable:
    """The canonical gold table: header ``topic<TAB>item<TAB>label``, one item per line."""
    fields = read_fields(path, GOLD_COLUMNS, header=True)
    fields.require_nonempty(0)
    return LabelTable(fields, topic_field=0, item_field=1, labels=_labels(fields, 2, class_labels(classes)))


def read_canonical_runs(
    path: str | Path, classes: Sequence, wanted: Sequence[str] | None = None
) -> dict[str, LabelTable]:
    """The canonical runs table: header ``topic<TAB>item<TAB>run<TAB>label``; one table per run, in order
    of first appearance (or of ``wanted``, which must all be in the file)."""
    fields = read_fields(path, RUN_COLUMNS, header=True)
    fields.require_nonempty(0)
    fields.require_nonempty(2)
    labels = _labels(fields, 3, class_labels(classes))
    names, codes = fields.categories(2)
    if wanted:
        unknown = [run for run in wanted if run not in names]
        if unknown:
            raise InputError(path, None, f"has no run(s) {', '.join(unknown)}; it holds {', '.join(names)}")
    else:
        wanted = names
    # rows of each run, in file order (a stable sort groups them without a pass per run)
    order = np.argsort(codes, kind="stable")
    boundaries = np.searchsorted(codes[order], np.arange(len(names) + 1))
    tables = {}
    for run in wanted:
        code = names.index(run)
        rows = order[boundaries[code] : boundaries[code + 1]]
        if rows.size and rows[-1] - rows[0] + 1 == rows.size:
            rows = slice(int(rows[0]), int(rows[-1]) + 1)  # a block of lines: a view, not a copy
        tables[run] = LabelTable(fields.take(rows), 0, 1, labels[rows], run)
    return tables


def read_canonical_runs_paired(path: str | Path, classes: Sequence, gold: Gold) -> tuple[list[str], np.ndarray]:
    """Every run of a canonical runs table, paired with ``gold`` by id: (run names in order of first
    appearance, runs x items class indices in gold order).

    Fast for large tables in the layout :func:`~.data.write_canonical` writes (each run's lines in gold
    order): the file is checked piece by piece against the gold's items without holding every line's
    offsets. Anything else falls back to :func:`read_canonical_runs` and :func:`pair` (any order; their
    errors)."""
    result = _runs_in_gold_order(path, class_labels(classes), gold)
    if result is not None:
        return result
    tables = read_canonical_runs(path, classes)
    runs = np.empty((len(tables), len(gold)), dtype=np.int64)
    for row, (name, table) in enumerate(tables.items()):
        runs[row] = pair(table, gold, "id", name)
    return list(tables), runs


def _runs_in_gold_order(path, classes: list[str], gold: Gold) -> tuple[list[str], np.ndarray] | None:
    """The fast path of :func:`read_canonical_runs_paired`; None where the table is not in that layout
    or has any problem (the slow path then reports it)."""
    expected = np.frombuffer(gold.key_bytes(item_first=False), dtype=np.uint8)
    gold_offsets = np.concatenate(([0], np.flatnonzero(expected == ord("\n")) + 1))
    names: dict[str, int] = {}
    cursors: list[int] = []
    labels: list[np.ndarray] = []
    for piece in iter_fields(path, RUN_COLUMNS, header=True):
        codes = piece.lookup(3, classes)
        if (codes < 0).any() or piece.first_empty(0) is not None or piece.first_empty(2) is not None:
            return None
        run_names, run_codes = piece.categories(2)
        keys = piece.joined(0, 1)
        key_offsets = np.concatenate(([0], np.cumsum(piece.bounds[:, 2] - piece.bounds[:, 0])))
        for local, name in enumerate(run_names):
            rows = np.flatnonzero(run_codes == local)
            if rows[-1] - rows[0] + 1 != rows.size:
                return None  # runs interleaved
            if name not in names:
                names[name] = len(names)
                cursors.append(0)
                labels.append(np.empty(len(gold), dtype=np.int64))
            run = names[name]
            start, stop = cursors[run], cursors[run] + rows.size
            if stop > len(gold):
                return None
            mine = keys[key_offsets[rows[0]] : key_offsets[rows[-1] + 1]]
            theirs = expected[gold_offsets[start] : gold_offsets[stop]]
            if mine.size != theirs.size or not np.array_equal(mine, theirs):
                return None
            labels[run][start:stop] = codes[rows[0] : rows[-1] + 1]
            cursors[run] = stop
    if any(cursor != len(gold) for cursor in cursors):
        return None
    return list(names), np.stack(labels)


def tsv_run_names(path: str | Path) -> list[str]:
    """The run names of a canonical runs table in file order; none where the file cannot be read
    (building the data set then reports the problem)."""
    names: dict[str, None] = {}
    try:
        for piece in iter_fields(path, RUN_COLUMNS, header=True):
            names.update(dict.fromkeys(piece.categories(2)[0]))
    except (InputError, OSError):
        return []
    return list(names)


# --------------------------------------------------------------------------- gold


def _keys(table: LabelTable) -> list[str]:
    """The (topic, id) key of every record, as :meth:`Gold.keys` spells it for the table's field order."""
    return table.key_bytes().tobytes().decode("utf-8").split("\n")[:-1]


def gold_items(table: LabelTable) -> Gold:
    """The gold of a label table: ids must be non-empty and (topic, id) unique."""
    fields = table.fields
    fields.require_nonempty(table.item_field)
    keys = _keys(table)
    if len(set(keys)) < len(keys):
        seen: dict[str, int] = {}
        for record, key in enumerate(keys):
            if key in seen:
                item, topic = fields.field(record, table.item_field), fields.field(record, table.topic_field)
                raise table.error(
                    record, f"duplicate item {quoted(item)} in topic {quoted(topic)} (also at {table.where(seen[key])})"
                )
            seen[key] = record
    items = fields.column(table.item_field)
    topic_names = fields.column(table.topic_field)
    topics = list(dict.fromkeys(topic_names))
    topic_index = {topic: index for index, topic in enumerate(topics)}
    item_topic = np.fromiter(map(topic_index.__getitem__, topic_names), dtype=np.int64, count=len(topic_names))
    gold = Gold(table.path, items, item_topic, table.labels.copy(), topics, fields.numbers.copy())
    gold._cache["names"] = topic_names
    gold._cache[("keys", table.item_first)] = keys
    return gold


# --------------------------------------------------------------------------- pairing a run with the gold


def pair(run: LabelTable, gold: Gold, align: str = "id", name: str = "") -> np.ndarray:
    """The run's class index for every gold item, in gold order (see the module docstring)."""
    if align == "id":
        return _pair_by_id(run, gold, name)
    if align == "position":
        return _pair_by_position(run, gold, name)
    raise ValueError(f"align must be one of {', '.join(ALIGNMENTS)}, not {align!r}")


def _run_label(name: str) -> str:
    return f"run {name!r}" if name else "the run"


def _pair_by_position(run: LabelTable, gold: Gold, name: str) -> np.ndarray:
    who = _run_label(name)
    if len(run) > len(gold):
        raise run.error(
            len(gold),
            f"{who} has {len(run)} lines, the gold {len(gold)} items; with align: position line i is the gold's "
            f"item i, and this line has no gold item",
        )
    if len(run) < len(gold):
        missing = len(run)
        raise run.error(
            None,
            f"{who} has {len(run)} lines, the gold {len(gold)} items; with align: position line i is the gold's "
            f"item i, and the gold's item {missing + 1} ({quoted(gold.items[missing])}, {gold.where(missing)}) "
            f"and {len(gold) - missing - 1} more have no line",
        )
    if run.fields.joined(run.topic_field).tobytes() != gold.topic_bytes():
        topics = run.fields.column(run.topic_field)
        expected = gold.item_topic_names()
        record = next(i for i, (a, b) in enumerate(zip(topics, expected, strict=True)) if a != b)
        raise run.error(
            record,
            f"topic {quoted(topics[record])} but the gold's item {record + 1} ({gold.where(record)}) has topic "
            f"{quoted(expected[record])}; with align: position the topics must agree line by line"
            + normalisation_hint(topics[record], [expected[record]], "in the gold"),
        )
    return run.labels.copy()


def _pair_by_id(run: LabelTable, gold: Gold, name: str) -> np.ndarray:
    if len(run) == len(gold) and run.key_bytes().tobytes() == gold.key_bytes(run.item_first):
        return run.labels.copy()  # the gold's items in the gold's order
    run.fields.require_nonempty(run.item_field)
    keys = _keys(run)
    index = gold.index(run.item_first)
    position = np.fromiter(map(index.get, keys, [-1] * len(keys)), dtype=np.int64, count=len(keys))
    # the first record that is not a gold item, or repeats one
    unknown = position < 0
    first_seen = np.zeros(len(keys), dtype=bool)
    matched = np.flatnonzero(~unknown)
    _, first = np.unique(position[matched], return_index=True)
    first_seen[matched[first]] = True
    bad = np.flatnonzero(unknown | ~first_seen)
    who = _run_label(name)
    if bad.size:
        record = int(bad[0])
        item, topic = run.fields.field(record, run.item_field), run.fields.field(record, run.topic_field)
        if not unknown[record]:
            earlier = int(np.flatnonzero(position == position[record])[0])
            raise run.error(
                record,
                f"duplicate item {quoted(item)} in topic {quoted(topic)} (also at {run.where(earlier)})",
            )
        problem = _unknown_item(item, topic, gold, who)
        problem += normalisation_hint(item, gold.items, "in the gold") or normalisation_hint(
            topic, gold.topics, "in the gold"
        )
        if unknown.all():
            problem += (
                f"; none of the {len(keys)} lines of {who} names a gold item (topic and id): if its lines follow "
                "the gold's order, use align: position"
            )
        raise run.error(record, problem)
    if matched.size < len(gold):
        present = np.zeros(len(gold), dtype=bool)
        present[position] = True
        absent = np.flatnonzero(~present)
        first_absent = int(absent[0])
        item, topic = gold.items[first_absent], gold.topics[gold.item_topic[first_absent]]
        items = run.fields.column(run.item_field)
        hint = normalisation_hint(item, items, "in the run") or normalisation_hint(
            topic, run.fields.column(run.topic_field), "in the run"
        )
        raise run.error(
            None,
            f"{who} misses {absent.size} item(s) of the gold, e.g. {quoted(item)} of topic "
            f"{quoted(topic)} ({gold.where(first_absent)}){hint}",
        )
    labels = np.empty(len(gold), dtype=np.int64)
    labels[position] = run.labels
    return labels


def _unknown_item(item: str, topic: str, gold: Gold, who: str) -> str:
    """Why (topic, item) is not a gold item: the id is under other topic(s) in the gold, or absent."""
    positions = [i for i, gold_item in enumerate(gold.items) if gold_item == item]
    if positions:
        others = sorted({gold.topics[gold.item_topic[i]] for i in positions})
        return (
            f"item {quoted(item)} has topic {quoted(topic)} in {who} but "
            f"{' / '.join(quoted(other) for other in others)} in the gold ({gold.where(positions[0])})"
        )
    return f"item {quoted(item)} (topic {quoted(topic)}) is not in the gold: an extra item"
