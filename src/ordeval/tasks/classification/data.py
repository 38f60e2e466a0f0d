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

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import sha256, write_atomically, write_json
from ordeval.io.provenance import read_provenance
from ordeval.tasks.base import TaskData
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


def read_gold(spec: Mapping, path: Path) -> readers.Gold:
    """The gold items of a gold file, by its registered format (:mod:`.formats`)."""
    source = spec["gold"]
    classes = readers.class_labels(spec["classes"])
    return readers.gold_items(FORMATS[source["type"]].read(path, classes, {**source, "role": "gold"})[""])


def simulated_item_names(topics: list[str], item_topic: np.ndarray) -> list[str]:
    """``<topic>-<k>`` for the k-th item (from 1) of each topic."""
    sizes = np.bincount(item_topic, minlength=len(topics))
    return [f"{topic}-{k}" for topic, size in zip(topics, sizes.tolist(), strict=True) for k in range(1, size + 1)]


def simulate_gold(name: str, spec: Mapping, rng: np.random.Generator) -> readers.Gold | None:
    """The simulated gold items of data set ``name`` (None for a source type that simulates none)."""
    source = spec["gold"]
    if source["type"] != SIMULATED_GOLD:
        return None
    num_classes = len(spec["classes"])
    parameters = simulate.gold_parameters(source, num_classes, _entry(name, "gold"))
    item_topic, labels = simulate.simulate_gold(rng, num_classes=num_classes, **parameters)
    prefix = source.get("topic_prefix", "t")
    topics = [f"{prefix}{i:03d}" for i in range(1, parameters["topics"] + 1)]
    items = simulated_item_names(topics, item_topic)
    return readers.Gold(Path(name), items, item_topic, labels, topics, np.arange(len(items)) + 1, simulated=True)


def simulated_run_names(source: Mapping) -> list[str]:
    """``<prefix>01``, ``<prefix>02``, ... (``prefix`` default ``SIM``)."""
    prefix = source.get("prefix", "SIM")
    return [f"{prefix}{i:02d}" for i in range(1, source["systems"] + 1)]


def read_run_file(name: str, spec: Mapping, source: Mapping, path: Path, entry: str) -> dict:
    """{run name: label table} of a run file, by its registered format (:mod:`.formats`); its ``align`` checked."""
    _align(source, name, entry)
    tables = FORMATS[source["type"]].read(path, readers.class_labels(spec["classes"]), {**source, "role": "run"})
    return {source["name"]: tables[""]} if "" in tables else tables  # a file of one run: the name the source gives


def baseline(name: str, spec: Mapping, source: Mapping, gold: readers.Gold, entry: str) -> tuple[np.ndarray, dict]:
    """(class index of every gold item, provenance record) of a ``constant_class`` baseline."""
    classes = readers.class_labels(spec["classes"])
    label = str(source["class"])
    if label not in classes:
        raise ConfigError(f"{_entry(name, entry)}.class: {label!r} is not one of the classes {', '.join(classes)}")
    labels = simulate.constant_class(len(gold), classes.index(label))
    return labels, {"source": "baseline", "type": source["type"], "class": label, "computed_from": "gold"}


def simulate_runs(name: str, spec: Mapping, source: Mapping, gold: readers.Gold, system_rng, noise_rng, entry: str):
    """The class of every gold item from each system of a ``simulate`` run source (:func:`.simulate.simulate_runs`)."""
    num_classes = len(spec["classes"])
    parameters = simulate.run_parameters(source, num_classes, _entry(name, entry))
    return simulate.simulate_runs(system_rng, noise_rng, gold.labels, gold.item_topic, num_classes, **parameters)


def dataset(name: str, spec: Mapping, gold: readers.Gold, run_names: list[str], runs, provenance: dict):
    """The data set of ``name`` from its gold items, runs and provenance."""
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


def write_canonical(data: ClassificationData, gold_path, runs_path, provenance_path, arrays_path=None) -> None:
    """The gold (topic, item, label), the runs (topic, item, run, label; runs in order, items in gold order;
    labels as configured) and the provenance, each written atomically; with ``arrays_path``, also the same labels
    as arrays (``.npz``) with the SHA-256 of the two tables as written (see :func:`read_arrays`)."""
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
    if arrays_path is not None:

        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                np.savez(
                    handle,
                    gold=np.asarray(data.gold, dtype=np.int64),
                    runs=np.asarray(data.runs, dtype=np.int64).reshape(len(data.run_names), len(data.items)),
                    item_topic=np.asarray(data.item_topic, dtype=np.int64),
                    items=np.array(data.items, dtype=str),
                    topics=np.array(data.topics, dtype=str),
                    run_names=np.array(data.run_names, dtype=str),
                    classes=np.array(data.classes, dtype=str),
                    gold_sha256=np.array(sha256(gold_path)),
                    runs_sha256=np.array(sha256(runs_path)),
                )

        write_atomically(arrays_path, write)


#: The arrays of ``arrays.npz`` (:func:`write_canonical`): name -> numpy kind and dimensions.
ARRAYS = {
    "gold": ("i", 1),
    "runs": ("i", 2),
    "item_topic": ("i", 1),
    "items": ("U", 1),
    "topics": ("U", 1),
    "run_names": ("U", 1),
    "classes": ("U", 1),
    "gold_sha256": ("U", 0),
    "runs_sha256": ("U", 0),
}


def read_arrays(arrays_path, classes: list, gold_path, runs_path) -> dict | None:
    """The labels that :func:`write_canonical` stored beside the tables, when they mirror the tables as they are
    now (same SHA-256, same classes); None otherwise (the file is missing, or a table or the classes changed
    since), and the tables are parsed instead: the labels of a stale file are not read. A file that is not such
    arrays (checked from its headers first: empty, random bytes, pickled objects, shapes that do not fit; then
    labels or topics out of range) is an InputError naming it."""
    from ordeval.io.archives import Archive

    if not Path(arrays_path).is_file():
        return None
    labels = ("gold", "runs", "item_topic")
    with Archive(arrays_path, "the arrays of a data set") as archive:  # checked from its headers first
        archive.require(ARRAYS)
        stored = {name: archive.read(name) for name in ARRAYS if name not in labels}
        if (
            stored["classes"].tolist() != list(classes)
            or str(stored["gold_sha256"]) != sha256(gold_path)
            or str(stored["runs_sha256"]) != sha256(runs_path)
        ):
            return None  # stale: the labels are not read
        items, topics, names = len(stored["items"]), len(stored["topics"]), len(stored["run_names"])
        shapes = [archive.shape(name) for name in labels]
        if shapes != [(items,), (names, items), (items,)]:
            problem = f"gold {shapes[0]}, runs {shapes[1]} and topics {shapes[2]} for {names} runs x {items} items"
            raise InputError(arrays_path, None, f"not the arrays of a data set as ordeval writes them ({problem})")
        stored.update({name: archive.read(name) for name in labels})
    gold, runs, item_topic = stored["gold"], stored["runs"], stored["item_topic"]
    problem = None
    if gold.size and (min(gold.min(), runs.min(initial=0)) < 0 or max(gold.max(), runs.max(initial=0)) >= len(classes)):
        problem = f"labels outside the {len(classes)} classes"
    elif item_topic.size and (item_topic.min() < 0 or item_topic.max() >= topics):
        problem = f"items of topics outside the {topics} topics"
    if problem:
        raise InputError(arrays_path, None, f"not the arrays of a data set as ordeval writes them ({problem})")
    return stored


def _check_names(data: ClassificationData) -> None:
    """Names written into the tables must not hold a tab or a line break (they could not be read back)."""
    for what, values in (("topic", data.topics), ("run", data.run_names), ("class", data.classes)):
        for value in values:
            if any(character in value for character in "\t\n\r") or not value:
                raise ValueError(f"{what} name {value!r} cannot be written to a tab-separated table")


def read_canonical(
    name: str, spec: Mapping, gold_path, runs_path, provenance_path=None, arrays_path=None
) -> ClassificationData:
    """A data set from its canonical files (the output of :func:`write_canonical`): from the arrays beside the
    tables when they mirror them (:func:`read_arrays`: no parsing), else parsed and checked."""
    classes = readers.class_labels(spec["classes"])
    provenance = read_provenance(provenance_path) if provenance_path and Path(provenance_path).is_file() else {}
    stored = read_arrays(arrays_path, classes, gold_path, runs_path) if arrays_path is not None else None
    if stored is None:
        gold = readers.gold_items(readers.read_canonical_gold(gold_path, classes))
        run_names, runs = readers.read_canonical_runs_paired(runs_path, classes, gold)
        return dataset(name, spec, gold, run_names, runs, provenance)
    items = stored["items"].tolist()
    gold = readers.Gold(
        Path(gold_path),
        items,
        stored["item_topic"],
        stored["gold"],
        stored["topics"].tolist(),
        np.arange(2, len(items) + 2),  # the lines of the canonical gold table, after its header
    )
    return dataset(name, spec, gold, stored["run_names"].tolist(), stored["runs"], provenance)


def tsv_run_names(path: Path) -> list[str]:
    return readers.tsv_run_names(path)
