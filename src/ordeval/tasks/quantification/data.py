"""Data sets as configuration: a gold source plus a list of run sources, turned into arrays.

A data set's configuration (validated by ``ordeval/schemas/config.schema.yaml``) names its
classes, its ``gold`` source and its ``runs`` sources. A source has a ``type``:

* a native file: ``semeval_dist``, ``semeval_labels``, ``ntcir_annotations`` / ``ntcir_submission``
  (with ``score`` A/E/S), ``tsv`` (the canonical long table), with a ``path`` relative to ``data_root``;
* an organiser baseline computed from the gold (runs only): ``uniform``, ``popularity``, ``constant_class``;
* a simulation: ``simulate_annotators`` / ``simulate_tweets`` (gold), ``simulate`` (runs).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ordeval.io.errors import ConfigError, InputError
from ordeval.io.files import sha256, write_atomically, write_json
from ordeval.io.provenance import read_provenance
from ordeval.io.table import Table
from ordeval.tasks.base import TaskData
from ordeval.tasks.quantification import baselines, canonical_tables, readers, simulate
from ordeval.tasks.quantification.formats import FORMATS

BASELINE_SOURCES = frozenset({"uniform", "popularity", "constant_class"})


@dataclass
class Dataset(TaskData):
    """One OQ data set: gold and run distributions over the same topics and classes."""

    gold: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))  # topics x classes
    runs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 0)))  # runs x topics x classes


# --------------------------------------------------------------------------- building a data set
# (the steps of ordeval.tasks.base.Task.build; what is particular to quantification is here)

#: A gold: its topics and their distributions (topics x classes).
Gold = tuple[list[str], np.ndarray]


def read_file(source: Mapping, role: str, classes: list, path: Path) -> dict[str, readers.TopicDistributions]:
    """Distributions of the ``role`` file ``path`` of a source read by its registered format (:mod:`.formats`),
    keyed by run name ('' for a single distribution set); a file of several runs gives those ``runs`` names."""
    found = FORMATS[source["type"]].read(path, classes, {**source, "role": role})
    wanted = source.get("runs")
    if wanted and "" not in found:
        unknown = [run for run in wanted if run not in found]
        if unknown:
            raise InputError(path, None, f"has no run(s) {', '.join(unknown)}; it holds {', '.join(found)}")
        found = {run: found[run] for run in wanted}
    return found


def _simulation_parameters(source: Mapping, excluded: set[str]) -> dict:
    return {key: value for key, value in source.items() if key not in excluded}


def simulate_gold(name: str, spec: Mapping, rng: np.random.Generator) -> Gold | None:
    """The simulated gold of data set ``name`` (None for a source type that simulates none)."""
    source = spec["gold"]
    num_classes = len(spec["classes"])
    if source["type"] == "simulate_annotators":
        scores = source.get("scores", [source["score"]])
        parameters = _simulation_parameters(source, {"type", "corpus", "scores", "score", "topic_prefix"})
        values = simulate.simulate_annotator_gold(
            rng,
            num_classes=num_classes,
            num_scores=len(scores),
            score_index=scores.index(source["score"]),
            **parameters,
        )
    elif source["type"] == "simulate_tweets":
        parameters = _simulation_parameters(source, {"type", "corpus", "topic_prefix"})
        values = simulate.simulate_tweet_gold(rng, num_classes=num_classes, **parameters)
    else:
        return None
    prefix = source.get("topic_prefix", "t")
    return [f"{prefix}{i:03d}" for i in range(1, len(values) + 1)], values


def simulated_run_names(source: Mapping) -> list[str]:
    """``<prefix>01`` ...; with English variants, ``<prefix>01-C`` ... and ``<prefix>01-E`` ..."""
    prefix = source.get("prefix", "SIM")
    systems, english = source["systems"], source.get("english_variants", 0)
    if english == 0:
        return [f"{prefix}{i:02d}" for i in range(1, systems + 1)]
    return [f"{prefix}{i:02d}-C" for i in range(1, systems + 1)] + [f"{prefix}{i:02d}-E" for i in range(1, english + 1)]


def baseline(name: str, spec: Mapping, source: Mapping, gold: Gold, entry: str) -> tuple[np.ndarray, dict]:
    """(topics x classes estimates, provenance record) of an organiser baseline computed from the gold."""
    kind = source["type"]
    if kind == "constant_class":
        classes = readers.class_labels(spec["classes"])
        label = str(source["class"])
        if label not in classes:
            raise ConfigError(f"datasets.{name}.{entry}: class {label!r} is not one of {classes}")
        values = baselines.constant_class(gold[1], classes.index(label))
    else:
        values = getattr(baselines, kind)(gold[1])
    return values, {"source": "baseline", "type": kind, "computed_from": "gold"}


def simulate_runs(source: Mapping, gold: Gold, system_rng, noise_rng) -> np.ndarray:
    """The estimates of the systems of a ``simulate`` run source (:func:`.simulate.simulate_runs`)."""
    parameters = _simulation_parameters(source, {"type", "prefix", "corpus"})
    return simulate.simulate_runs(system_rng, noise_rng, gold[1], **parameters)


# --------------------------------------------------------------------------- canonical tables


def gold_table(dataset: Dataset) -> Table:
    """Canonical gold table: columns topic, class, prob."""
    return Table(
        {
            "topic": np.repeat(np.array(dataset.topics, dtype=object), len(dataset.classes)),
            "class": np.tile(np.array(dataset.classes, dtype=object), len(dataset.topics)),
            "prob": dataset.gold.ravel(),
        }
    )


def runs_table(dataset: Dataset) -> Table:
    """Canonical runs table: columns topic, run, class, prob (runs in order, then topics, then classes)."""
    num_runs, num_topics, num_classes = dataset.runs.shape
    return Table(
        {
            "topic": np.tile(np.repeat(np.array(dataset.topics, dtype=object), num_classes), num_runs),
            "run": np.repeat(np.array(dataset.run_names, dtype=object), num_topics * num_classes),
            "class": np.tile(np.array(dataset.classes, dtype=object), num_runs * num_topics),
            "prob": dataset.runs.ravel(),
        }
    )


def write_canonical(dataset: Dataset, gold_path, runs_path, provenance_path, arrays_path=None) -> None:
    """The canonical tables of ``dataset`` and its provenance; with ``arrays_path``, also the same gold and
    runs as arrays (``.npz``) with the SHA-256 of the two tables as written (see :func:`read_arrays`)."""
    gold_table(dataset).write(gold_path)
    runs_table(dataset).write(runs_path)
    write_json(dataset.provenance, provenance_path)
    if arrays_path is not None:

        def write(temporary: str) -> None:
            with open(temporary, "wb") as handle:
                np.savez(
                    handle,
                    gold=_as_read(dataset.gold, gold_path),
                    runs=_as_read(dataset.runs, runs_path),
                    topics=np.array(dataset.topics, dtype=str),
                    run_names=np.array(dataset.run_names, dtype=str),
                    classes=np.array(dataset.classes, dtype=str),
                    gold_sha256=np.array(sha256(gold_path)),
                    runs_sha256=np.array(sha256(runs_path)),
                )

        write_atomically(arrays_path, write)


def _as_read(values: np.ndarray, path) -> np.ndarray:
    """Distributions as the canonical tables read back: the shortest round-trip text gives every float
    back, and the reader checks, clips and renormalises each one as
    :func:`readers.checked_distributions` does (the same operations on the same layout), so the arrays
    equal what parsing gives, to the bit."""
    flat = values.reshape(-1, values.shape[-1])
    return readers.checked_distributions(flat, path, lambda row: f"distribution {row}").reshape(values.shape)


#: The arrays of ``arrays.npz`` (:func:`write_canonical`): name -> numpy kind and dimensions.
ARRAYS = {
    "gold": ("f", 2),
    "runs": ("f", 3),
    "topics": ("U", 1),
    "run_names": ("U", 1),
    "classes": ("U", 1),
    "gold_sha256": ("U", 0),
    "runs_sha256": ("U", 0),
}


def read_arrays(arrays_path, classes: list, gold_path, runs_path) -> tuple | None:
    """(topics, run names, gold, runs) from the arrays that :func:`write_canonical` stored beside the tables,
    when they mirror the tables as they are now (same SHA-256, same classes); None otherwise (the file is
    missing, or a table or the classes changed since), and the tables are parsed instead. A file that is
    not such arrays (empty, random bytes, pickled objects, shapes that do not fit, values that are not
    distributions) is an InputError naming it."""
    from ordeval.io.archives import Archive

    if not Path(arrays_path).is_file():
        return None
    with Archive(arrays_path, "the arrays of a data set") as archive:  # checked from its headers first
        archive.require(ARRAYS)
        stored = {name: archive.read(name) for name in ARRAYS if name not in ("gold", "runs")}
        if (
            stored["classes"].tolist() != readers.class_labels(classes)
            or str(stored["gold_sha256"]) != sha256(gold_path)
            or str(stored["runs_sha256"]) != sha256(runs_path)
        ):
            return None  # stale: the distributions are not read
        topics, names, count = len(stored["topics"]), len(stored["run_names"]), len(stored["classes"])
        shapes = archive.shape("gold"), archive.shape("runs")
        if shapes != ((topics, count), (names, topics, count)):
            problem = f"gold {shapes[0]} and runs {shapes[1]} for {names} runs x {topics} topics x {count} classes"
            raise InputError(arrays_path, None, f"not the arrays of a data set as ordeval writes them ({problem})")
        gold, runs = archive.read("gold"), archive.read("runs")
    problem = None
    if not (np.isfinite(gold).all() and np.isfinite(runs).all()) or gold.min(initial=0) < 0 or runs.min(initial=0) < 0:
        problem = "probabilities that are negative or not finite"
    elif np.abs(gold.sum(axis=-1) - 1).max(initial=0) > 1e-9 or np.abs(runs.sum(axis=-1) - 1).max(initial=0) > 1e-9:
        problem = "distributions that do not sum to 1"
    if problem:
        raise InputError(arrays_path, None, f"not the arrays of a data set as ordeval writes them ({problem})")
    return stored["topics"].tolist(), stored["run_names"].tolist(), gold, runs


def read_canonical(name: str, classes: list, gold_path, runs_path, provenance_path=None, arrays_path=None) -> Dataset:
    """A data set from its canonical tables (the output of :func:`write_canonical`): from the arrays
    beside them when they mirror the tables (:func:`read_arrays`: no parsing), else parsed and checked."""
    provenance = read_provenance(provenance_path) if provenance_path else {}  # its origin checked
    stored = read_arrays(arrays_path, classes, gold_path, runs_path) if arrays_path is not None else None
    if stored is not None:
        topics, run_names, gold_values, estimates = stored
        return Dataset(name, readers.class_labels(classes), topics, run_names, provenance, gold_values, estimates)
    gold = canonical_tables.read_canonical_gold(gold_path, classes)
    runs = canonical_tables.read_canonical_runs(runs_path, classes)
    estimates = np.stack([readers.align_to_gold(run, gold.topics, run_name) for run_name, run in runs.items()])
    return Dataset(name, readers.class_labels(classes), gold.topics, list(runs), provenance, gold.values, estimates)


def tsv_run_names(path: Path) -> list[str]:
    """The distinct values of the ``run`` column of a canonical runs table, in file order; none
    where the file cannot be read (building the data set then reports the problem)."""
    from ordeval.io.parsing import iter_lines

    names: dict[str, None] = {}
    column = None
    try:  # line by line: the memory of the names, not of the file
        for _, line in iter_lines(path):
            if column is None:
                column = line.split("\t").index("run")
            elif line.count("\t") >= column:
                names.setdefault(line.split("\t")[column].strip())
    except (OSError, InputError, ValueError):
        return []
    return list(names)


def read_selection(gold_path, runs_path, arrays_path, classes: list, topics: list[str], runs: list[str]):
    """({topic: gold}, {(run, topic): distribution}) of a few topics of a data set's canonical files: from its
    arrays while they mirror the tables (tens of MB instead of the whole runs table as text), else by scanning
    the tables."""
    stored = read_arrays(arrays_path, classes, gold_path, runs_path) if arrays_path else None
    if stored is None:
        return canonical_tables.read_canonical_selection(gold_path, runs_path, classes, topics, runs)
    all_topics, run_names, gold, estimates = stored
    row = {topic: index for index, topic in enumerate(all_topics)}
    column = {run: index for index, run in enumerate(run_names)}
    chosen = {(run, topic): estimates[column[run], row[topic]] for run in runs for topic in topics}
    return {topic: gold[row[topic]] for topic in topics}, chosen
