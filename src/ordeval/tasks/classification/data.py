"""Ordinal-classification data sets as configuration: a gold source plus run sources, turned into arrays.

A data set's configuration names its ``classes`` (labels in ascending order, as in the files), its
``gold`` source and its ``runs`` sources. A source has a ``type``:

gold
  ``semeval_labels`` (``path``): ``id<TAB>topic<TAB>label`` per item;
  ``tsv`` (``path``): the canonical gold table ``topic<TAB>item<TAB>label`` with that header;
  ``simulate_items``: ``topics`` (required), ``items_min``, ``items_max``, ``class_shares``,
  ``concentration`` (see :func:`.simulate.simulate_gold`), ``topic_prefix`` = ``t``, ``corpus`` = the
  data set's name (data sets of one corpus share the simulated gold).

runs
  ``semeval_labels`` (``path``, ``name``, ``align`` = ``id``): one run;
  ``tsv`` (``path``, ``runs`` = all, ``align`` = ``id``): the canonical runs table
  ``topic<TAB>item<TAB>run<TAB>label``, one or many runs;
  ``constant_class`` (``name``, ``class``): every item gets ``class`` (a configured label);
  ``simulate``: ``systems`` (required), ``prefix`` = ``SIM``, ``corpus`` = the data set's name, and the
  simulator's keys (see :func:`.simulate.simulate_runs`); runs ``<prefix>01`` ...

``align`` pairs a file's lines with the gold's items: ``id`` by (topic, id), ``position`` line by line
(see :mod:`.readers`). Random streams: ``stream(seed, corpus, "gold")`` for a simulated gold;
``stream(seed, corpus, "systems", index)`` (system parameters) and ``stream(seed, name, "runs", index)``
(predictions) for the ``simulate`` entry at ``runs[index]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError
from ordeval.io.files import write_atomically, write_json
from ordeval.io.provenance import dataset_origin, read_provenance
from ordeval.stats.seeding import stream
from ordeval.tasks.base import TaskData, build_runs, check_files_exist, file_record, resolve_path
from ordeval.tasks.classification import readers, simulate
from ordeval.tasks.classification.formats import FORMATS

BASELINE_SOURCES = frozenset({"constant_class"})
SIMULATED_GOLD = "simulate_items"


@dataclass
class ClassificationData(TaskData):
    """One OC data set: items grouped into topics, the gold class of each item and each run's class.

    ``items`` are the item ids in gold order (an id may recur under another topic: an item is a
    (topic, id) pair); ``item_topic[i]`` indexes ``topics``; ``gold[i]`` and ``runs[r, i]`` are class
    indices 0..K-1 into ``classes``."""

    items: list[str] = field(default_factory=list)
    item_topic: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    gold: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    runs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    #: The data set's ``one_class_agreement``: ``one`` (kappa and the alphas are 1 on a topic whose labels
    #: are all in one class, the 0/0 convention) or ``nan`` (undefined; see the task's ``score``).
    one_class_agreement: str = "one"

    @property
    def num_items(self) -> int:
        return len(self.items)

    def gold_counts(self) -> np.ndarray:
        """Gold items per topic and class, topics x classes."""
        shape = (len(self.topics), len(self.classes))
        cells = np.ravel_multi_index((self.item_topic, self.gold), shape)
        return np.bincount(cells, minlength=shape[0] * shape[1]).reshape(shape)

    def empty_class_topics(self) -> int:
        """Number of topics with at least one empty gold class."""
        return int((self.gold_counts() == 0).any(axis=1).sum())


# --------------------------------------------------------------------------- building a data set


def _entry(name: str, entry: str) -> str:
    return f"datasets.{name}.{entry}"


def _align(source: Mapping, name: str, entry: str) -> str:
    align = source.get("align", "id")
    if align not in readers.ALIGNMENTS:
        raise ConfigError(f"{_entry(name, entry)}.align: {align!r} is not one of {', '.join(readers.ALIGNMENTS)}")
    return align


def _read_gold_file(source: Mapping, classes: list[str], data_root) -> readers.Gold:
    path = resolve_path(source["path"], data_root)
    return readers.gold_items(FORMATS[source["type"]].read(path, classes, {**source, "role": "gold"})[""])


def simulated_item_names(topics: list[str], item_topic: np.ndarray) -> list[str]:
    """``<topic>-<k>`` for the k-th item (from 1) of each topic."""
    sizes = np.bincount(item_topic, minlength=len(topics))
    return [f"{topic}-{k}" for topic, size in zip(topics, sizes.tolist(), strict=True) for k in range(1, size + 1)]


def build_gold(name: str, spec: Mapping, data_root, seed: int) -> tuple[readers.Gold, dict]:
    """The gold items of data set ``name`` and the gold's provenance record."""
    source = spec["gold"]
    classes = readers.class_labels(spec["classes"])
    kind = source["type"]
    if kind in FORMATS:
        return _read_gold_file(source, classes, data_root), file_record(source, data_root)
    if kind != SIMULATED_GOLD:  # the schema admits no other type
        raise ConfigError(f"{_entry(name, 'gold')}: unknown source type {kind!r}")
    parameters = simulate.gold_parameters(source, len(classes), _entry(name, "gold"))
    corpus = source.get("corpus", name)
    item_topic, labels = simulate.simulate_gold(stream(seed, corpus, "gold"), num_classes=len(classes), **parameters)
    prefix = source.get("topic_prefix", "t")
    topics = [f"{prefix}{i:03d}" for i in range(1, parameters["topics"] + 1)]
    items = simulated_item_names(topics, item_topic)
    gold = readers.Gold(Path(name), items, item_topic, labels, topics, np.arange(len(items)) + 1, simulated=True)
    return gold, {"source": "simulated", **source, "seed": seed}


def simulated_run_names(source: Mapping) -> list[str]:
    """``<prefix>01``, ``<prefix>02``, ... (``prefix`` default ``SIM``)."""
    prefix = source.get("prefix", "SIM")
    return [f"{prefix}{i:02d}" for i in range(1, source["systems"] + 1)]


def run_labels(name: str, spec: Mapping, gold: readers.Gold, data_root, seed: int):
    """``runs_of`` of :func:`ordeval.tasks.base.build_runs`: each (run name, class indices of the gold's items,
    provenance record) of one run source: a file (paired with the gold), a constant class, or simulated."""
    classes = readers.class_labels(spec["classes"])
    seen: set[str] = set()

    def runs_of(source: Mapping, index: int, entry: str):
        kind = source["type"]
        if kind in FORMATS:
            align = _align(source, name, entry)
            path = resolve_path(source["path"], data_root)
            record = {**file_record(source, data_root), "align": align}
            tables = FORMATS[kind].read(path, classes, {**source, "role": "run"})
            if "" in tables:  # a file of one run: the name the source gives
                tables = {source["name"]: tables[""]}
            for run_name, table in tables.items():
                if run_name in seen:  # before pairing: the clearer error
                    raise ConfigError(f"{_entry(name, entry)}: run name {run_name!r} is used twice")
                seen.add(run_name)
                yield run_name, readers.pair(table, gold, align, run_name), record
        elif kind == "constant_class":
            label = str(source["class"])
            if label not in classes:
                raise ConfigError(
                    f"{_entry(name, entry)}.class: {label!r} is not one of the classes {', '.join(classes)}"
                )
            labels = simulate.constant_class(len(gold), classes.index(label))
            yield source["name"], labels, {"source": "baseline", "type": kind, "class": label, "computed_from": "gold"}
        elif kind == "simulate":
            parameters = simulate.run_parameters(source, len(classes), _entry(name, entry))
            corpus = source.get("corpus", name)
            values = simulate.simulate_runs(
                stream(seed, corpus, "systems", index),
                stream(seed, name, "runs", index),
                gold.labels,
                gold.item_topic,
                len(classes),
                **parameters,
            )
            for run_name, run in zip(simulated_run_names(source), values, strict=True):
                yield run_name, run, {"source": "simulated", **source, "seed": seed}
        else:  # the schema admits no other type
            raise ConfigError(f"{_entry(name, entry)}: unknown source type {kind!r}")

    return runs_of


def build_dataset(name: str, spec: Mapping, data_root: str | Path, seed: int) -> ClassificationData:
    """Read or simulate the gold and every run of data set ``name``; validate; nothing is written."""
    check_files_exist({name: spec}, data_root)
    gold, gold_record = build_gold(name, spec, data_root, seed)
    run_names, runs, run_records = build_runs(name, spec, run_labels(name, spec, gold, data_root, seed))
    provenance = {
        "dataset": name,
        "origin": dataset_origin(gold_record["source"], run_records),
        "description": spec.get("description", ""),
        "gold": gold_record,
        "runs": run_records,
        "simulated_runs": [run for run, record in run_records.items() if record["source"] == "simulated"],
    }
    return ClassificationData(
        name,
        readers.class_labels(spec["classes"]),
        gold.topics,
        run_names,
        provenance,
        gold.items,
        gold.item_topic,
        gold.labels,
        runs,
        spec.get("one_class_agreement", "one"),
    )


# --------------------------------------------------------------------------- canonical tables

#: Items written per block (keeps the arrays small).
_BLOCK_ITEMS = 1 << 18


def _prefix_blocks(data: ClassificationData) -> list[tuple[np.ndarray, np.ndarray]]:
    """``topic<TAB>item<TAB>`` of every item in gold order, encoded, per block of items: (bytes, lengths)."""
    topics = np.array(data.topics, dtype=object)[data.item_topic].tolist()
    blocks = []
    for start in range(0, len(data.items), _BLOCK_ITEMS):
        block = slice(start, start + _BLOCK_ITEMS)
        prefixes = [f"{topic}\t{item}\t".encode() for topic, item in zip(topics[block], data.items[block], strict=True)]
        lengths = np.fromiter(map(len, prefixes), dtype=np.int64, count=len(prefixes))
        blocks.append((np.frombuffer(b"".join(prefixes), dtype=np.uint8), lengths))
    return blocks


def _lines(prefixes: np.ndarray, prefix_lengths: np.ndarray, suffixes: list[bytes], labels: np.ndarray) -> np.ndarray:
    """Encoded lines: each item's prefix followed by ``suffixes[label]`` (the rest of its line)."""
    suffix_lengths = np.array([len(suffix) for suffix in suffixes], dtype=np.int64)
    table = np.zeros((len(suffixes), int(suffix_lengths.max())), dtype=np.uint8)
    for row, suffix in enumerate(suffixes):
        table[row, : len(suffix)] = np.frombuffer(suffix, dtype=np.uint8)
    lengths = suffix_lengths[labels]
    chosen = table[labels]
    tails = (
        chosen.ravel()
        if (suffix_lengths == table.shape[1]).all()
        else chosen[np.arange(table.shape[1]) < lengths[:, None]]
    )
    pieces = np.empty(2 * labels.size, dtype=np.int64)
    pieces[0::2], pieces[1::2] = prefix_lengths, lengths
    is_prefix = np.repeat(np.tile(np.array([True, False]), labels.size), pieces)
    out = np.empty(is_prefix.size, dtype=np.uint8)
    out[is_prefix] = prefixes
    out[~is_prefix] = tails
    return out


def write_canonical(data: ClassificationData, gold_path, runs_path, provenance_path) -> None:
    """The gold (topic, item, label), the runs (topic, item, run, label; runs in order, items in gold order;
    labels as configured) and the provenance, each written atomically."""
    _check_names(data)
    blocks = _prefix_blocks(data)

    def write_table(columns: tuple[str, ...], runs: list[tuple[str, np.ndarray]]):
        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                handle.write(("\t".join(columns) + "\n").encode())
                for run_name, labels in runs:
                    run_part = f"{run_name}\t" if run_name is not None else ""
                    suffixes = [f"{run_part}{label}\n".encode() for label in data.classes]
                    for number, (prefixes, lengths) in enumerate(blocks):
                        block = labels[number * _BLOCK_ITEMS : (number + 1) * _BLOCK_ITEMS]
                        handle.write(_lines(prefixes, lengths, suffixes, block))

        return write

    write_atomically(gold_path, write_table(readers.GOLD_COLUMNS, [(None, data.gold)]))
    write_atomically(runs_path, write_table(readers.RUN_COLUMNS, list(zip(data.run_names, data.runs, strict=True))))
    write_json(data.provenance, provenance_path)


def _check_names(data: ClassificationData) -> None:
    """Names written into the tables must not hold a tab or a line break (they could not be read back)."""
    for what, values in (("topic", data.topics), ("run", data.run_names), ("class", data.classes)):
        for value in values:
            if any(character in value for character in "\t\n\r") or not value:
                raise ValueError(f"{what} name {value!r} cannot be written to a tab-separated table")


def read_canonical(name: str, spec: Mapping, gold_path, runs_path, provenance_path=None) -> ClassificationData:
    """A data set from its canonical files (the output of :func:`write_canonical`)."""
    classes = readers.class_labels(spec["classes"])
    gold = readers.gold_items(readers.read_canonical_gold(gold_path, classes))
    run_names, runs = readers.read_canonical_runs_paired(runs_path, classes, gold)
    provenance = read_provenance(provenance_path) if provenance_path and Path(provenance_path).is_file() else {}
    return ClassificationData(
        name,
        classes,
        gold.topics,
        run_names,
        provenance,
        gold.items,
        gold.item_topic,
        gold.labels,
        runs,
        spec.get("one_class_agreement", "one"),
    )


def tsv_run_names(path: Path) -> list[str]:
    return readers.tsv_run_names(path)
